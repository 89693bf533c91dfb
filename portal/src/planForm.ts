import { ApiError, send } from './api';
import { h, replace } from './dom';
import { t, type Key } from './i18n';
import type { ClubOverview } from './types';
import { problemBox } from './ui';

type Plan = ClubOverview['trainingPlan'];
type Evening = Plan['evenings'][number];
const WEEKDAYS: Evening['weekday'][] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/**
 * The training plan editor: one row per evening (weekday, start, end, ends next day) and the
 * time zone, saved through PUT /api/admin/clubs/{clubId}/training-plan. The server checks every
 * rule; its 400 names the failing fields, which are shown next to the form.
 */
export function planForm(plan: Plan, onSaved: (saved: Plan) => void, onCancel: () => void): HTMLElement {
  const rows = h('div', { class: 'plan-rows' });
  const message = h('div', { 'aria-live': 'polite' });
  const timeZone = h('input', { id: 'plan-zone', name: 'timeZone', value: plan.timeZone, maxlength: 64, autocomplete: 'off' });
  let count = 0;

  const addRow = (evening: Evening) => {
    count += 1;
    const n = count;
    const id = (field: string) => `plan-${n}-${field}`;
    const weekday = h(
      'select',
      { id: id('weekday'), name: 'weekday' },
      WEEKDAYS.map((day) => h('option', { value: day }, t(`weekday.${day}` as Key))),
    );
    weekday.value = evening.weekday;
    const start = h('input', { id: id('start'), name: 'start', type: 'time', value: evening.start, required: true });
    const end = h('input', { id: id('end'), name: 'end', type: 'time', value: evening.end, required: true });
    const nextDay = h('input', { id: id('next'), name: 'endsNextDay', type: 'checkbox' });
    nextDay.checked = evening.endsNextDay;
    const remove = h('button', { type: 'button', class: 'button button-secondary button-small' }, '×');
    const row = h(
      'fieldset',
      { class: 'plan-row', 'data-evening': n },
      h('legend', {}, t('club.plan.evening', { number: n })),
      h('div', { class: 'field' }, h('label', { for: id('weekday') }, t('club.plan.weekday')), weekday),
      h('div', { class: 'field' }, h('label', { for: id('start') }, t('club.plan.start')), start),
      h('div', { class: 'field' }, h('label', { for: id('end') }, t('club.plan.end')), end),
      h('div', { class: 'field field-check' }, nextDay, h('label', { for: id('next') }, t('club.plan.endsNextDay'))),
      remove,
    );
    remove.setAttribute('aria-label', t('club.plan.remove', { number: n }));
    remove.addEventListener('click', () => {
      row.remove();
      rows.querySelector<HTMLElement>('select')?.focus();
    });
    rows.append(row);
  };
  plan.evenings.forEach(addRow);

  const add = h('button', { type: 'button', class: 'button button-secondary' }, t('club.plan.add'));
  add.addEventListener('click', () => {
    addRow({ weekday: 'wednesday', start: '18:00', end: '20:00', endsNextDay: false });
    rows.lastElementChild?.querySelector<HTMLElement>('select')?.focus();
  });
  const cancel = h('button', { type: 'button', class: 'button button-secondary' }, t('club.plan.cancel'));
  cancel.addEventListener('click', onCancel);
  const save = h('button', { type: 'submit', class: 'button' }, t('club.plan.save'));
  const form = h(
    'form',
    { class: 'plan-form', 'data-testid': 'plan-form', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: 'plan-zone' }, t('club.plan.timeZone')), timeZone),
    rows,
    h('div', { class: 'actions' }, add, save, cancel),
    message,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const evenings = [...rows.querySelectorAll<HTMLElement>('.plan-row')].map((row) => {
      const value = (name: string) => row.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`);
      return {
        weekday: value('weekday')?.value ?? '',
        start: value('start')?.value ?? '',
        end: value('end')?.value ?? '',
        endsNextDay: (value('endsNextDay') as HTMLInputElement | null)?.checked ?? false,
      };
    });
    save.disabled = true;
    send('PUT', `/api/admin/clubs/${encodeURIComponent(plan.clubId)}/training-plan`, { timeZone: timeZone.value.trim(), evenings })
      .then((saved) => onSaved(saved as Plan))
      .catch((error: unknown) => {
        replace(message, problemBox(t('club.plan.failed'), error), fieldErrors(error));
        message.querySelector<HTMLElement>('[role="alert"]')?.focus();
      })
      .finally(() => {
        save.disabled = false;
      });
  });
  return form;
}

/** The fields a 400 named (body.evenings.0.end …), as a list under the problem. */
function fieldErrors(error: unknown): HTMLElement | null {
  if (!(error instanceof ApiError) || !error.fieldErrors.length) return null;
  return h(
    'ul',
    { class: 'error-text', 'data-testid': 'plan-errors' },
    error.fieldErrors.map((item) => h('li', {}, h('code', {}, item.path), ': ', item.message)),
  );
}
