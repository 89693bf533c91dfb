import type { UsageRow } from './wire';

/** The export's header; the column names are part of the documented contract (docs/costs.md). */
export const CSV_HEADER = ['date', 'resourceGroup', 'service', 'cost', 'currency'] as const;

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; lines end CRLF. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function toCsv(lines: readonly UsageRow[]): string {
  const body = lines.map((line) =>
    [line.date, line.resourceGroup, line.service, line.cost.toFixed(4), line.currency].map(csvField).join(','),
  );
  return [CSV_HEADER.join(','), ...body].join('\r\n') + '\r\n';
}
