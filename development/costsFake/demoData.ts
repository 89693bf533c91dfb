import { addDays, firstOfPreviousMonth, isoDay, lastOfMonth } from '../../shared/costs/period';
import { FORECAST_COLUMNS, USAGE_COLUMNS, type FakeDataset } from './dataset';

/**
 * Realistic EUR costs of a small club platform for the demo dashboard: three months back up to
 * yesterday (Cost Management lags by about a day) and a forecast to the end of the running month.
 * Deterministic per day, so a restart shows the same figures.
 */
const LINES: { resourceGroup: string; service: string; perDay: number; weekendFactor: number }[] = [
  { resourceGroup: 'rg-clubs-prod', service: 'Azure App Service', perDay: 4.62, weekendFactor: 1 },
  { resourceGroup: 'rg-clubs-prod', service: 'Functions', perDay: 0.85, weekendFactor: 0.6 },
  { resourceGroup: 'rg-clubs-prod', service: 'Azure Database for PostgreSQL', perDay: 6.94, weekendFactor: 1 },
  { resourceGroup: 'rg-clubs-prod', service: 'Event Hubs', perDay: 0.74, weekendFactor: 1 },
  { resourceGroup: 'rg-clubs-prod', service: 'Storage', perDay: 0.31, weekendFactor: 0.9 },
  { resourceGroup: 'rg-clubs-prod', service: 'Key Vault', perDay: 0.03, weekendFactor: 0.5 },
  { resourceGroup: 'rg-clubs-staging', service: 'Azure App Service', perDay: 1.54, weekendFactor: 1 },
  { resourceGroup: 'rg-clubs-staging', service: 'Azure Database for PostgreSQL', perDay: 1.12, weekendFactor: 1 },
  { resourceGroup: 'rg-clubs-staging', service: 'Container Registry', perDay: 0.16, weekendFactor: 1 },
  { resourceGroup: 'rg-monitoring', service: 'Log Analytics', perDay: 1.87, weekendFactor: 0.7 },
  { resourceGroup: 'rg-monitoring', service: 'Azure Monitor', perDay: 0.42, weekendFactor: 0.8 },
  { resourceGroup: 'rg-dns', service: 'Azure DNS', perDay: 0.017, weekendFactor: 1 },
  { resourceGroup: '', service: 'Bandwidth', perDay: 0.28, weekendFactor: 1.4 },
];

/** A number in [0.85, 1.15) fixed by the day and the line. */
function jitter(day: string, line: number): number {
  let seed = Number(day.replace(/-/g, '')) * 31 + line * 7919;
  seed = (seed ^ (seed >>> 13)) * 0x5bd1e995;
  seed ^= seed >>> 15;
  return 0.85 + ((seed >>> 0) % 3000) / 10000;
}

const usageDate = (day: string) => Number(day.replace(/-/g, ''));
const isWeekend = (day: string) => [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());
const costOn = (day: string, index: number) => {
  const line = LINES[index]!;
  return Number((line.perDay * jitter(day, index) * (isWeekend(day) ? line.weekendFactor : 1)).toFixed(8));
};

export function demoDataset(now = new Date()): FakeDataset {
  const today = isoDay(now);
  const start = firstOfPreviousMonth(firstOfPreviousMonth(firstOfPreviousMonth(today)));
  const rows: (string | number)[][] = [];
  for (let day = start; day < today; day = addDays(day, 1)) {
    LINES.forEach((line, index) => rows.push([costOn(day, index), usageDate(day), line.resourceGroup, line.service, 'EUR']));
  }
  const forecast: (string | number)[][] = [];
  const end = lastOfMonth(today);
  for (let day = today; day <= end; day = addDays(day, 1)) {
    const total = LINES.reduce((sum, _line, index) => sum + costOn(day, index), 0);
    forecast.push([Number(total.toFixed(8)), usageDate(day), 'Forecast', 'EUR']);
  }
  return { columns: USAGE_COLUMNS, rows, forecast: { columns: FORECAST_COLUMNS, rows: forecast } };
}
