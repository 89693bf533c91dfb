import type { UsageRow } from './wire';

/** The export's header; the column names are part of the documented contract (docs/costs.md). */
export const CSV_HEADER = ['date', 'resourceGroup', 'service', 'cost', 'currency'] as const;

// A spreadsheet runs a cell that starts with one of these as a formula (OWASP "CSV injection");
// resource-group and service names come from the provider, typed by whoever owns the subscription.
const FORMULA_START = /^[=+\-@\t\r]/;
// A signed number (a refund's cost, a name that is a number) is read as a number, never run.
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A cell a spreadsheet would run as a formula gets a leading `'`, so it is shown as text. */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/**
 * One cell: formula-like text neutralised, then RFC 4180: a field with a comma, quote or line
 * break is quoted, quotes doubled; lines end CRLF.
 */
export function csvField(value: string): string {
  const cell = neutralizeFormula(value);
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

export function toCsv(lines: readonly UsageRow[]): string {
  const body = lines.map((line) =>
    [line.date, line.resourceGroup, line.service, line.cost.toFixed(4), line.currency].map(csvField).join(','),
  );
  return [CSV_HEADER.join(','), ...body].join('\r\n') + '\r\n';
}
