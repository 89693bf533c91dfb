import { getJson, send } from './api';
import { h, replace } from './dom';
import { dateTime } from './format';
import { t } from './i18n';
import { appointment, leaderPath, lookupQuery, peoplePath, pickLabel, type Person } from './leaderChoice';
import { problemBox } from './ui';

/** What the member list says after an appointment: the sentence, and the appointment to undo. */
export interface MembersNotice {
  text: string;
  undo?: { clubId: string; person: Person };
}

/** Wait this long after the last keystroke before looking people up. */
const LOOKUP_DELAY_MS = 250;

/**
 * "Make a person the (first) leader" for platform admins, from people who have signed in: a
 * lookup (GET /api/admin/people) lists them by name and id, a pick asks for confirmation, and
 * PUT /api/clubs/{clubId}/leaders/{userId} appoints; typed text alone is never sent. `onDone`
 * reloads the club page with the sentence and an Undo (see `undoButton`).
 */
export function leaderForm(
  clubId: string,
  clubName: string,
  leaders: ReadonlySet<string>,
  first: boolean,
  onDone: (notice: MembersNotice) => void,
): HTMLElement {
  let picked: Person | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  const input = h('input', {
    id: 'leader-search',
    name: 'person',
    type: 'search',
    maxlength: 120,
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'leader-hint',
    'aria-controls': 'leader-results',
  });
  const results = h('div', { id: 'leader-results', 'aria-live': 'polite', 'data-testid': 'leader-results' });
  const message = h('div', { 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', class: 'button' }, first ? t('club.leader.submitFirst') : t('club.leader.submit'));
  const form = h(
    'form',
    { class: 'filters', 'data-testid': 'leader-form', novalidate: true, role: 'search' },
    h('div', { class: 'field' }, h('label', { for: 'leader-search' }, t('leader.search')), input),
    submit,
    h('p', { id: 'leader-hint', class: 'muted small' }, t('leader.searchHint')),
  );
  const error = (text: string) => replace(message, h('p', { class: 'error-text', role: 'alert', 'data-testid': 'leader-error' }, text));

  const lookup = async () => {
    const wanted = lookupQuery(input.value);
    if (!wanted.ok) return replace(results, h('p', { class: 'muted small' }, t('leader.tooShort')));
    const ticket = ++asked;
    replace(results, h('p', { class: 'muted small' }, t('leader.searching')));
    try {
      const { items } = await getJson<{ items: Person[] }>(peoplePath(wanted.query));
      // An older answer arriving after a newer question is dropped.
      if (ticket !== asked) return;
      replace(
        results,
        items.length
          ? h(
              'ul',
              { class: 'plain people', 'aria-label': t('leader.results') },
              items.map((person) => h('li', {}, pickButton(person))),
            )
          : h('p', { class: 'muted small' }, t('leader.noMatch', { query: wanted.query })),
      );
    } catch (failure) {
      if (ticket === asked) replace(results, problemBox(t('leader.results'), failure));
    }
  };
  const pickButton = (person: Person) => {
    const button = h(
      'button',
      {
        type: 'button',
        class: 'button button-secondary person',
        'data-user': person.userId,
        'aria-label': t('leader.pick', { name: named(person) }),
      },
      person.displayName === null ? h('span', { class: 'muted' }, named(person)) : h('strong', {}, person.displayName),
      ' ',
      h('span', { class: 'small' }, `${person.userId} · ${t('leader.lastSeen', { time: dateTime(person.lastSeenAt) })}`),
    );
    button.addEventListener('click', () => {
      picked = person;
      input.value = pickLabel(person);
      replace(results);
      confirm(person);
    });
    return button;
  };
  const confirm = (person: Person) => {
    const yes = h('button', { type: 'button', class: 'button', 'data-testid': 'leader-confirm' }, t('leader.confirmYes'));
    const cancel = h('button', { type: 'button', class: 'button button-secondary' }, t('leader.cancel'));
    cancel.addEventListener('click', () => {
      replace(message);
      input.focus();
    });
    yes.addEventListener('click', () => {
      yes.disabled = true;
      send('PUT', leaderPath(clubId, person.userId))
        .then(() => onDone({ text: t('leader.done', { name: named(person) }), undo: { clubId, person } }))
        .catch((failure: unknown) => {
          yes.disabled = false;
          replace(message, problemBox(t('leader.failed', { name: named(person) }), failure));
        });
    });
    replace(
      message,
      h(
        'div',
        { class: 'alert alert-info', role: 'status', 'data-testid': 'leader-confirmation' },
        h('p', {}, t('leader.confirm', { name: named(person), club: clubName })),
        h('p', { class: 'actions' }, yes, ' ', cancel),
      ),
    );
    yes.focus();
  };

  input.addEventListener('input', () => {
    if (picked && input.value !== pickLabel(picked)) picked = null;
    replace(message);
    clearTimeout(timer);
    timer = setTimeout(() => void lookup(), LOOKUP_DELAY_MS);
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const choice = appointment(picked, input.value, leaders);
    if (choice.ok) return confirm(choice.person);
    error(choice.reason === 'alreadyLeader' ? t('club.leader.already') : t('leader.notPicked'));
    input.focus();
  });
  return h('div', {}, h('h3', {}, first ? t('club.leader.titleFirst') : t('club.leader.title')), form, results, message);
}

/** Undo of an appointment made on this page: DELETE …/leaders/{userId} (the server keeps the last leader). */
export function undoButton(
  undo: NonNullable<MembersNotice['undo']>,
  onDone: (notice: MembersNotice) => void,
  host: HTMLElement,
): HTMLElement {
  const button = h('button', { type: 'button', class: 'button button-secondary', 'data-testid': 'leader-undo' }, t('leader.undo'));
  button.addEventListener('click', () => {
    button.disabled = true;
    send('DELETE', leaderPath(undo.clubId, undo.person.userId))
      .then(() => onDone({ text: t('leader.undone', { name: named(undo.person) }) }))
      .catch((failure: unknown) => {
        button.disabled = false;
        host.append(problemBox(t('leader.undoFailed'), failure));
      });
  });
  return button;
}

/** The person's name, or the reader's words for someone without one (their id is shown beside it). */
function named(person: Person): string {
  return person.displayName ?? t('leader.noName');
}
