import { monthForecast } from './forecast';
import { dayCount, eachDay, lastCompleteDay, samePeriodLastMonth, type CostWindows, type DayRange } from './period';
import type { ForecastRow, UsageRow } from './wire';

/**
 * The dashboard's figures, computed from the provider's rows without I/O. Sums run at full
 * precision; only the answers are rounded (money to cents, shares and percentages to 0.1).
 */

export const NO_RESOURCE_GROUP = '(no resource group)';
export const DEFAULT_CURRENCY = 'EUR';

export const roundMoney = (value: number) => Math.round((value + Number.EPSILON) * 100) / 100;
const roundTenth = (value: number) => Math.round((value + Number.EPSILON) * 10) / 10;
export const sum = (values: Iterable<number>) => {
  let total = 0;
  for (const value of values) total += value;
  return total;
};
/** Code-unit order: the same everywhere, whatever the locale. */
export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
export const within = (range: DayRange) => (row: { date: string }) => row.date >= range.from && row.date <= range.to;

export interface Delta {
  absolute: number;
  /** Relative to the earlier figure; null when that is zero. */
  percent: number | null;
}

function delta(current: number, previous: number): Delta {
  return { absolute: roundMoney(current - previous), percent: previous > 0 ? roundTenth(((current - previous) / previous) * 100) : null };
}

/**
 * Resource groups come back in varying casing (`Rg-Web`, `rg-web`) and subscription-level
 * charges without one; both are grouped here. The shown name is the casing of the newest row.
 */
export function normaliseGroups(rows: readonly UsageRow[]): UsageRow[] {
  const shown = new Map<string, { name: string; date: string }>();
  for (const row of rows) {
    const key = row.resourceGroup.toLowerCase();
    const seen = shown.get(key);
    if (!seen || row.date > seen.date || (row.date === seen.date && row.resourceGroup < seen.name)) {
      shown.set(key, { name: row.resourceGroup, date: row.date });
    }
  }
  return rows.map((row) => {
    const name = shown.get(row.resourceGroup.toLowerCase())?.name ?? row.resourceGroup;
    return { ...row, resourceGroup: name.trim() ? name : NO_RESOURCE_GROUP };
  });
}

export function currencyOf(rows: readonly { currency: string }[]): { currency: string; warnings: string[] } {
  const currencies = [...new Set(rows.map((row) => row.currency).filter(Boolean))].sort();
  if (currencies.length <= 1) return { currency: currencies[0] ?? DEFAULT_CURRENCY, warnings: [] };
  return {
    currency: currencies.includes(DEFAULT_CURRENCY) ? DEFAULT_CURRENCY : (currencies[0] ?? DEFAULT_CURRENCY),
    warnings: [`Costs arrived in several currencies (${currencies.join(', ')}); they are added as they are.`],
  };
}

export interface ResourceGroupLine {
  resourceGroup: string;
  monthToDate: number;
  /** The same days of last month as the month so far. */
  lastMonthToDate: number;
  lastMonth: number;
  /** Month to date against the same days of last month. */
  delta: Delta;
}

export interface Summary {
  currency: string;
  month: string;
  monthToDate: number;
  /** The newest complete day: the month to date includes the days after it, still growing. */
  completeThrough: string;
  forecast: { endOfMonth: number; method: 'provider' | 'run_rate' };
  /** The same days of last month as the month so far (`samePeriod`). */
  lastMonthToDate: number;
  samePeriod: DayRange;
  /** Month to date against the same days of last month. */
  deltaToLastMonthToDate: Delta;
  lastMonth: number;
  /** The end-of-month forecast against the whole last month. */
  deltaToLastMonth: Delta;
  resourceGroups: ResourceGroupLine[];
  warnings: string[];
}

/**
 * `month` and `previous` are the rows of the shared windows; `forecast` is undefined when the
 * provider has none (too little history: 424, or an empty answer). Then the end of month is the
 * month-to-date run rate stretched over the whole month, and the answer says so.
 */
export function summarise(
  windows: CostWindows,
  month: readonly UsageRow[],
  previous: readonly UsageRow[],
  forecast?: readonly ForecastRow[],
): Summary {
  const rows = normaliseGroups([...month.filter(within(windows.month)), ...previous.filter(within(windows.lastMonth))]);
  const current = rows.filter(within(windows.month));
  const last = rows.filter(within(windows.lastMonth));
  const monthToDate = sum(current.map((row) => row.cost));
  const lastMonth = sum(last.map((row) => row.cost));
  const { currency, warnings } = currencyOf([...current, ...last, ...(forecast ?? [])]);

  const { endOfMonth, method } = monthForecast(windows, current, forecast);
  if (method === 'run_rate') {
    warnings.push('The provider has no forecast for this month yet; the end of month is the month-to-date run rate.');
  }

  const samePeriod = samePeriodLastMonth(windows);
  const lastToDate = last.filter(within(samePeriod));
  const lastMonthToDate = sum(lastToDate.map((row) => row.cost));

  const groups = new Map<string, { monthToDate: number; lastMonthToDate: number; lastMonth: number }>();
  const groupOf = (name: string) => {
    let figures = groups.get(name);
    if (!figures) groups.set(name, (figures = { monthToDate: 0, lastMonthToDate: 0, lastMonth: 0 }));
    return figures;
  };
  for (const row of current) groupOf(row.resourceGroup).monthToDate += row.cost;
  for (const row of last) groupOf(row.resourceGroup).lastMonth += row.cost;
  for (const row of lastToDate) groupOf(row.resourceGroup).lastMonthToDate += row.cost;
  const resourceGroups = [...groups.entries()]
    .map(([resourceGroup, figures]) => ({
      resourceGroup,
      monthToDate: roundMoney(figures.monthToDate),
      lastMonthToDate: roundMoney(figures.lastMonthToDate),
      lastMonth: roundMoney(figures.lastMonth),
      delta: delta(figures.monthToDate, figures.lastMonthToDate),
    }))
    .sort((a, b) => b.monthToDate - a.monthToDate || b.lastMonth - a.lastMonth || byText(a.resourceGroup, b.resourceGroup));

  return {
    currency,
    month: windows.month.from.slice(0, 7),
    monthToDate: roundMoney(monthToDate),
    completeThrough: lastCompleteDay(windows.today),
    forecast: { endOfMonth: roundMoney(endOfMonth), method },
    lastMonthToDate: roundMoney(lastMonthToDate),
    samePeriod,
    deltaToLastMonthToDate: delta(monthToDate, lastMonthToDate),
    lastMonth: roundMoney(lastMonth),
    deltaToLastMonth: delta(endOfMonth, lastMonth),
    resourceGroups,
    warnings,
  };
}

/**
 * Shares in tenths of a percent by the largest-remainder method, so that they add up to exactly
 * 100.0 whenever anything was spent.
 */
export function sharesOf(costs: readonly number[]): number[] {
  const total = sum(costs);
  if (total <= 0) return costs.map(() => 0);
  const exact = costs.map((cost) => (Math.max(cost, 0) / total) * 1000);
  const floors = exact.map(Math.floor);
  const missing = 1000 - sum(floors);
  const order = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  const bumped = new Set(order.slice(0, Math.max(missing, 0)).map(({ index }) => index));
  return floors.map((tenths, index) => (tenths + (bumped.has(index) ? 1 : 0)) / 10);
}

export interface Breakdown {
  currency: string;
  month: string;
  total: number;
  services: { service: string; cost: number; sharePercent: number }[];
  warnings: string[];
}

export function breakDown(windows: CostWindows, month: readonly UsageRow[]): Breakdown {
  const rows = month.filter(within(windows.month));
  const byService = new Map<string, number>();
  for (const row of rows) {
    const name = row.service.trim() || 'Other';
    byService.set(name, (byService.get(name) ?? 0) + row.cost);
  }
  const ordered = [...byService.entries()].sort((a, b) => b[1] - a[1] || byText(a[0], b[0]));
  const shares = sharesOf(ordered.map(([, cost]) => cost));
  const { currency, warnings } = currencyOf(rows);
  return {
    currency,
    month: windows.month.from.slice(0, 7),
    total: roundMoney(sum(rows.map((row) => row.cost))),
    services: ordered.map(([service, cost], index) => ({ service, cost: roundMoney(cost), sharePercent: shares[index] ?? 0 })),
    warnings,
  };
}

export interface Timeseries {
  currency: string;
  days: number;
  from: string;
  to: string;
  total: number;
  /** The newest day whose costs are complete; later points may still grow. */
  completeThrough: string;
  points: { date: string; cost: number; complete: boolean }[];
  warnings: string[];
}

/**
 * One point per day of `range`; a day without rows is 0 (the provider leaves such days out).
 * Days after the last complete day of `today` are marked incomplete: their 0 or low figure is
 * the provider's lag, not a saving.
 */
export function timeseriesOf(range: DayRange, rows: readonly UsageRow[], today: string): Timeseries {
  const inRange = rows.filter(within(range));
  const byDay = new Map<string, number>();
  for (const row of inRange) byDay.set(row.date, (byDay.get(row.date) ?? 0) + row.cost);
  const { currency, warnings } = currencyOf(inRange);
  return {
    currency,
    days: dayCount(range),
    from: range.from,
    to: range.to,
    total: roundMoney(sum(inRange.map((row) => row.cost))),
    completeThrough: lastCompleteDay(today),
    points: eachDay(range).map((date) => ({ date, cost: roundMoney(byDay.get(date) ?? 0), complete: date <= lastCompleteDay(today) })),
    warnings,
  };
}

/** The export's lines: one per day, resource group and service, sorted by those. */
export function exportLines(range: DayRange, rows: readonly UsageRow[]): UsageRow[] {
  const lines = new Map<string, UsageRow>();
  for (const row of normaliseGroups(rows.filter(within(range)))) {
    const key = JSON.stringify([row.date, row.resourceGroup, row.service, row.currency]);
    const line = lines.get(key);
    if (line) line.cost += row.cost;
    else lines.set(key, { ...row });
  }
  return [...lines.values()].sort(
    (a, b) => byText(a.date, b.date) || byText(a.resourceGroup, b.resourceGroup) || byText(a.service, b.service),
  );
}
