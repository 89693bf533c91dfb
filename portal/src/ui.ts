import type { ApiError } from './api';
import { h, type Child, type Props } from './dom';
import { t } from './i18n';

/** A problem answered by the backend: its title, the operator text (`detail`), code and request id. */
export function problemBox(heading: string, error: unknown): HTMLElement {
  const api = error as Partial<ApiError>;
  return h(
    'div',
    { class: 'alert alert-danger', role: 'alert' },
    h('p', { class: 'alert-title' }, heading),
    h('p', {}, api.detail ?? api.message ?? String(error)),
    api.code || api.status
      ? h(
          'p',
          { class: 'muted small' },
          [
            api.status ? `HTTP ${api.status}` : '',
            api.code ? `code ${api.code}` : '',
            api.requestId ? `${t('common.requestId')} ${api.requestId}` : '',
          ]
            .filter(Boolean)
            .join(' · '),
        )
      : null,
  );
}

export function loading(): HTMLElement {
  return h('p', { class: 'muted', role: 'status' }, t('common.loading'));
}

/** Where the ingest runbook (docs/runbook-ingest.md) says what to do, by its section's title. */
export function runbookRef(section: string): HTMLElement {
  return h('span', { class: 'runbook-ref' }, t('diag.runbook', { section: `docs/runbook-ingest.md › “${section}”` }));
}

/** A section with a heading whose id labels it. */
export function section(id: string, title: string, ...children: (Node | null)[]): HTMLElement {
  return h('section', { class: 'card', 'aria-labelledby': id }, h('h2', { id }, title), ...children);
}

/** A table in a horizontally scrolling wrapper (narrow screens). */
export function tableWrap(table: HTMLTableElement, label: string): HTMLElement {
  return h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': label }, table);
}

/** A column's header: its label, or `{ label, numeric: true }` for a column of figures (aligned with them). */
export type Column = Child | { label: Child; numeric: true };

const isNumeric = (column: Column): column is { label: Child; numeric: true } =>
  typeof column === 'object' && column !== null && !Array.isArray(column) && !(column instanceof Node);

/** A table with one header row, the `columns`, and `rows` as its body. */
export function dataTable(props: Props, columns: readonly Column[], rows: Child): HTMLTableElement {
  return h(
    'table',
    props,
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        columns.map((column) =>
          isNumeric(column) ? h('th', { scope: 'col', class: 'num' }, column.label) : h('th', { scope: 'col' }, column),
        ),
      ),
    ),
    h('tbody', {}, rows),
  );
}
