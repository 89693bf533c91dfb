import { useState } from 'preact/hooks';
import { t } from '../i18n';
import { hashOf } from '../routes';
import { ErrorBox, Screen, useAction, useApp } from '../ui';

/** Accepting a club invitation by its code (the link `#/join?code=…` fills it in). */
export function Join(props: { code: string }) {
  const { api } = useApp();
  const [code, setCode] = useState(props.code);
  const [joined, setJoined] = useState(false);
  const action = useAction();
  return (
    <Screen title={t('join.title')}>
      <form
        class="card"
        onSubmit={action.submit(async () => {
          await api.send('POST', '/api/clubs/invitations/accept', { code });
          setJoined(true);
        })}
      >
        <div class="row">
          <label class="field field-grow">
            <span>{t('join.code')}</span>
            <input value={code} required maxLength={40} autoComplete="off" onInput={(event) => setCode(event.currentTarget.value)} />
          </label>
          <button type="submit" class="button" disabled={action.busy || joined}>
            {t('join.submit')}
          </button>
        </div>
        {joined ? (
          <p role="status">
            {t('join.done')} <a href={hashOf({ screen: 'challenges', tab: 'club' })}>{t('tab.club')}</a>
          </p>
        ) : null}
        {action.error ? <ErrorBox error={action.error} title={t('state.actionFailed')} /> : null}
      </form>
    </Screen>
  );
}
