import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n';
import { Confirm, ErrorBox, useAction, useApp } from '../ui';

/**
 * "Forget me" (DELETE /api/me): what is lost in words before anything happens, then the erasure
 * and the sign-out. The erasure comes first, so a failure leaves the member signed in to try
 * again; signing out afterwards also lets go of this browser's push subscription.
 */
export function DeleteAccount() {
  const { api, signOut } = useApp();
  const [confirming, setConfirming] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const action = useAction();
  // "Cancel" puts the focus back on the button that opened the question, once it is there again.
  const asked = useRef(false);
  useEffect(() => {
    if (!confirming && asked.current) opener.current?.focus();
    asked.current = confirming;
  }, [confirming]);
  return (
    <section class="card" aria-labelledby="delete-account-title" data-testid="delete-account">
      <h2 id="delete-account-title">{t('account.deleteTitle')}</h2>
      <p class="small muted">{t('account.deleteHint')}</p>
      {confirming ? (
        <Confirm
          question={t('account.deleteQuestion')}
          yes={t('account.deleteYes')}
          busy={action.busy}
          testId="delete-account-confirm"
          onYes={() =>
            void action.run(async () => {
              await api.send('DELETE', '/api/me');
              await signOut();
            })
          }
          onCancel={() => setConfirming(false)}
        />
      ) : (
        <button
          type="button"
          class="button button-danger"
          ref={opener}
          onClick={() => {
            action.clearError();
            setConfirming(true);
          }}
        >
          {t('account.deleteTitle')}
        </button>
      )}
      {action.error ? <ErrorBox error={action.error} title={t('state.actionFailed')} /> : null}
    </section>
  );
}
