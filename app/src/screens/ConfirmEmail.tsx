import { ApiError } from '../api';
import type { Contact } from '../contracts';
import { t } from '../i18n';
import { hashOf } from '../routes';
import { ErrorBox, Loading, Screen, useApp, useLoad } from '../ui';

/**
 * The page the confirmation email links to (`#/confirm-email?token=…`): opening it confirms the
 * address (POST /api/user/contact/confirmations, the token single-use and the signed-in member's
 * own), then says which address email now goes to. A link used, expired or not the member's says
 * so in words and leads back to Settings to ask for a new one.
 */
export function ConfirmEmail(props: { token: string }) {
  const { api } = useApp();
  const { loaded } = useLoad(
    () =>
      props.token
        ? api.send<Contact>('POST', '/api/user/contact/confirmations', { token: props.token })
        : Promise.reject(new ApiError(400, 'Bad Request', undefined, undefined, undefined)),
    [props.token],
  );
  const invalid = loaded.state === 'error' && loaded.error instanceof ApiError && [400, 403, 404, 410].includes(loaded.error.status);
  return (
    <Screen title={t('confirm.title')}>
      {loaded.state === 'loading' ? <Loading /> : null}
      {loaded.state === 'ready' ? (
        <p role="status" class="card" data-testid="confirm-done">
          {t('confirm.done', { email: loaded.data.email ?? '' })}
        </p>
      ) : null}
      {invalid ? (
        <p role="alert" class="state state-error" data-testid="confirm-invalid">
          {t('confirm.invalid')}
        </p>
      ) : null}
      {loaded.state === 'error' && !invalid ? <ErrorBox error={loaded.error} /> : null}
      <p>
        <a href={hashOf({ screen: 'settings' })}>{t('confirm.toSettings')}</a>
      </p>
    </Screen>
  );
}
