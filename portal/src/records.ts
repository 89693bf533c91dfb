import { h } from './dom';
import { dateTime } from './format';
import { dataTable, tableWrap } from './ui';

/** Fields that hold a point in time (`rejectedAt`, `failingSince`). */
const TIMESTAMP = /At$|Since$/;

/** A record's field as the portal shows it: "–" when empty, a point in time in the reader's time zone beside the raw value. */
export function fieldValue(field: string, raw: unknown): string {
  if (raw === null || raw === undefined || raw === '') return '–';
  if (typeof raw === 'string' && TIMESTAMP.test(field)) return `${dateTime(raw)} (${raw})`;
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  return JSON.stringify(raw);
}

type Cell = string | HTMLElement | (string | HTMLElement | null)[];

/**
 * A list of records (rejects, dead letters, backfills) as a table, one column per field name;
 * `cell` draws a cell (the field's value unless given), `testId` names the table for tests.
 */
export function recordsTable(
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
  label: string,
  options: { cell?: (name: string, row: Record<string, unknown>) => Cell; testId?: string } = {},
): HTMLElement {
  const cell = options.cell ?? ((name, row) => fieldValue(name, row[name]));
  return tableWrap(
    dataTable(
      { 'data-testid': options.testId },
      columns.map((name) => h('code', {}, name)),
      rows.map((row) =>
        h(
          'tr',
          {},
          columns.map((name) => h('td', {}, cell(name, row))),
        ),
      ),
    ),
    label,
  );
}
