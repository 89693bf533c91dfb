import { useState } from 'preact/hooks';
import { tokenPasteOffered, type AuthSession } from '../../../web/signin/session';
import { language, t } from '../i18n';

/**
 * Signing in, and the designed end of a session: after a 401 the app lands here with `expired`
 * and returns to the same screen once signed in again. "Sign in" goes to the OpenID provider
 * (code + PKCE, web/signin) and comes back to the screen the member was on. Where the service
 * offers it (no provider, or local development), a pasted token is checked with GET /api/me
 * before it is kept.
 */
export function SignIn(props: {
  session: AuthSession;
  reason: 'signed-out' | 'expired' | 'start';
  /** A sign-in that came back refused or broken (state mismatch, provider down), shown once. */
  failure?: string;
  onSignedIn: () => void;
}) {
  const [token, setToken] = useState('');
  const [refused, setRefused] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const expired = props.reason === 'expired';

  const submit = async () => {
    setBusy(true);
    setRefused(undefined);
    try {
      const response = await fetch('/api/me', {
        headers: { authorization: `Bearer ${token.trim()}`, 'accept-language': language() },
        cache: 'no-store',
      });
      if (!response.ok) {
        const problem = (await response.json().catch(() => ({}))) as { detail?: string };
        setRefused(problem.detail ?? response.statusText);
        return;
      }
      props.session.usePastedToken(token);
      props.onSignedIn();
    } catch {
      setRefused(t('state.network'));
    } finally {
      setBusy(false);
    }
  };

  const pasteForm = (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <p class="small muted">{t('signin.intro')}</p>
      <label class="field">
        <span>{t('signin.token')}</span>
        <textarea
          value={token}
          rows={4}
          required
          autoComplete="off"
          spellcheck={false}
          onInput={(event) => setToken(event.currentTarget.value)}
        />
      </label>
      {refused ? (
        <p role="alert" class="notice notice-danger">
          {t('signin.refused', { detail: refused })}
        </p>
      ) : null}
      <button type="submit" class={props.session.developerFallback ? 'button' : 'button button-secondary'} disabled={busy}>
        {props.session.developerFallback ? (expired ? t('expired.action') : t('signin.submit')) : t('signin.useToken')}
      </button>
    </form>
  );

  return (
    <section class="signin card" aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        {expired ? t('expired.title') : t('signin.title')}
      </h1>
      {expired ? (
        <p role="alert" data-testid="expired">
          {t('expired.body')}
        </p>
      ) : null}
      {props.reason === 'signed-out' ? <p role="status">{t('signin.signedOut')}</p> : null}
      {props.failure ? (
        <p role="alert" class="notice notice-danger" data-testid="signin-failed">
          {t('signin.failed', { detail: props.failure })}
        </p>
      ) : null}
      {props.session.developerFallback ? null : (
        <button type="button" class="button" onClick={() => void props.session.signIn()}>
          {expired ? t('expired.action') : t('signin.submit')}
        </button>
      )}
      {tokenPasteOffered(props.session) ? (
        props.session.developerFallback ? (
          pasteForm
        ) : (
          // Beside the provider (local development), the paste stays out of the way.
          <details class="developer">
            <summary>{t('signin.developer')}</summary>
            {pasteForm}
          </details>
        )
      ) : null}
    </section>
  );
}
