import { SignInError, tokenPasteOffered, type AuthSession } from '../../../web/signin/session';
import { fetchSession } from '../api';
import { h, replace } from '../dom';
import { t, type Key } from '../i18n';
import type { Session } from '../types';
import { problemBox } from '../ui';

/** A sign-in failure in the reader's language (web/signin's codes), with the technical text under it. */
export function signInErrorBox(error: unknown): HTMLElement {
  if (!(error instanceof SignInError)) return problemBox(t('signin.failed'), error);
  return h(
    'div',
    { class: 'alert alert-danger', role: 'alert', 'data-testid': 'signin-error' },
    h('p', { class: 'alert-title' }, t('signin.failed')),
    h('p', {}, t(`signin.error.${error.code}` as Key)),
    h('p', { class: 'muted small' }, error.message),
  );
}

export interface SignInPageOptions {
  /** Undefined when even the sign-in configuration could not be read. */
  auth: AuthSession | undefined;
  notice?: string;
  error?: unknown;
  signedIn: (session: Session) => void;
}

/**
 * The sign-in page: "Sign in" starts the redirect to the OpenID provider (code + PKCE). Pasting a
 * token is the developer fallback: the only form when no provider is configured, else collapsed
 * under "Developer: paste a token" when the service offers it.
 */
export function signInPage(main: HTMLElement, options: SignInPageOptions): void {
  const { auth } = options;
  const message = h('div', { 'aria-live': 'polite' });
  const card = h(
    'div',
    { class: 'card signin' },
    h('h1', { id: 'signin-title', tabindex: -1 }, t('signin.title')),
    options.notice ? h('div', { class: 'alert alert-warning', role: 'status' }, h('p', {}, options.notice)) : null,
    options.error === undefined ? null : signInErrorBox(options.error),
  );
  if (auth && !auth.developerFallback) {
    const button = h('button', { type: 'button', class: 'button', 'data-testid': 'sign-in' }, t('signin.start'));
    button.addEventListener('click', () => {
      button.disabled = true;
      replace(message, h('p', { role: 'status' }, t('signin.starting')));
      auth
        .signIn()
        .catch((error: unknown) => replace(message, signInErrorBox(error)))
        .finally(() => {
          button.disabled = false;
        });
    });
    card.append(h('p', {}, t('signin.provider')), message, button);
    if (tokenPasteOffered(auth)) {
      card.append(
        h('details', { class: 'developer' }, h('summary', {}, t('signin.developer')), pasteForm(auth, 'signin.useToken', options)),
      );
    }
  } else if (auth) {
    card.append(h('p', { class: 'muted' }, t('signin.notConfigured')), message, pasteForm(auth, 'signin.submit', options));
  } else {
    const retry = h('button', { type: 'button', class: 'button' }, t('common.retry'));
    retry.addEventListener('click', () => location.reload());
    card.append(retry);
  }
  main.append(card);
}

/** The paste form: the token is checked with GET /api/me before the session keeps it. */
function pasteForm(auth: AuthSession, submitLabel: Key, options: SignInPageOptions): HTMLElement {
  const token = h('textarea', {
    id: 'token',
    name: 'token',
    rows: 5,
    required: true,
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'token-help',
  });
  const message = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    { 'aria-labelledby': 'signin-title' },
    h(
      'p',
      { id: 'token-help' },
      t('signin.intro'),
      ' ',
      t('signin.local'),
      ' ',
      // Beside a provider, the token must come from it; without one, the host takes local HS256 tokens.
      h(
        'code',
        {},
        auth.developerFallback ? 'npm run -s token -- --sub admin-1 --role platform_admin' : 'npm run -s token -- --user demo-admin',
      ),
    ),
    h('div', { class: 'field' }, h('label', { for: 'token' }, t('signin.token')), token),
    message,
    h('button', { type: 'submit', class: 'button' }, t(submitLabel)),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = token.value.trim().replace(/^Bearer\s+/i, '');
    if (!value) {
      replace(message, h('p', { class: 'error-text' }, t('signin.empty')));
      token.focus();
      return;
    }
    fetchSession(value)
      .then((session) => {
        auth.usePastedToken(value);
        options.signedIn(session);
      })
      .catch((error: unknown) => {
        replace(message, problemBox(t('signin.refused'), error));
        token.focus();
      });
  });
  return form;
}
