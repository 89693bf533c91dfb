import { fetchSession } from '../api';
import { h, replace } from '../dom';
import { t } from '../i18n';
import { storeToken } from '../session';
import type { Session } from '../types';
import { problemBox } from '../ui';

/** The sign-in form: the pasted token is checked with GET /api/me before it is kept. */
export function signInPage(main: HTMLElement, notice: string | undefined, signedIn: (session: Session) => void): void {
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
    { class: 'card signin', 'aria-labelledby': 'signin-title' },
    h('h1', { id: 'signin-title', tabindex: -1 }, t('signin.title')),
    notice ? h('div', { class: 'alert alert-warning', role: 'status' }, h('p', {}, notice)) : null,
    h(
      'p',
      { id: 'token-help' },
      t('signin.intro'),
      ' ',
      t('signin.local'),
      ' ',
      h('code', {}, 'npm run -s token -- --sub admin-1 --role platform_admin'),
    ),
    h('div', { class: 'field' }, h('label', { for: 'token' }, t('signin.token')), token),
    message,
    h('button', { type: 'submit', class: 'button' }, t('signin.submit')),
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
        storeToken(value);
        signedIn(session);
      })
      .catch((error: unknown) => {
        replace(message, problemBox(t('signin.refused'), error));
        token.focus();
      });
  });
  main.append(form);
}
