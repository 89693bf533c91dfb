import { send } from './api';
import { h, replace } from './dom';
import { t } from './i18n';
import { problemBox } from './ui';

/** The longest user id the membership API takes (the `sub` of a token). */
const USER_ID_MAX = 200;

/**
 * "Make a user the (first) leader" for platform admins: PUT /api/clubs/{clubId}/leaders/{userId}
 * creates the membership as leader (201) or promotes a member (200). `first` words it for a club
 * without a leader. `onDone` reloads the club page with the confirmation.
 */
export function leaderForm(clubId: string, first: boolean, onDone: (message: string) => void): HTMLElement {
  const input = h('input', {
    id: 'leader-user',
    name: 'userId',
    maxlength: USER_ID_MAX,
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'leader-hint',
  });
  const message = h('div', { 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', class: 'button' }, first ? t('club.leader.submitFirst') : t('club.leader.submit'));
  const form = h(
    'form',
    { class: 'filters', 'data-testid': 'leader-form', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: 'leader-user' }, t('club.leader.user')), input),
    submit,
    h('p', { id: 'leader-hint', class: 'muted small' }, t('club.leader.hint')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const userId = input.value.trim();
    if (!userId) {
      replace(message, h('p', { class: 'error-text', role: 'alert', 'data-testid': 'leader-error' }, t('club.leader.empty')));
      input.focus();
      return;
    }
    submit.disabled = true;
    send('PUT', `/api/clubs/${encodeURIComponent(clubId)}/leaders/${encodeURIComponent(userId)}`)
      .then(() => onDone(t('club.leader.done', { userId })))
      .catch((error: unknown) => replace(message, problemBox(t('club.leader.failed', { userId }), error)))
      .finally(() => {
        submit.disabled = false;
      });
  });
  return h('div', {}, h('h3', {}, first ? t('club.leader.titleFirst') : t('club.leader.title')), form, message);
}
