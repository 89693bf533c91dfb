/**
 * Calendar arithmetic on UTC dates written as `YYYY-MM-DD`. Cost Management reports days in UTC
 * and the dashboard shows calendar months, so every window here is a whole UTC day range.
 */

/** An inclusive range of UTC days. */
export interface DayRange {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;

export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function toDate(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

export function addDays(day: string, days: number): string {
  return isoDay(new Date(toDate(day).getTime() + days * DAY_MS));
}

export function firstOfMonth(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

export function lastOfMonth(day: string): string {
  const date = toDate(day);
  return isoDay(new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)));
}

/** The first day of the month before `day`'s month (January → December of the year before). */
export function firstOfPreviousMonth(day: string): string {
  return firstOfMonth(addDays(firstOfMonth(day), -1));
}

export function daysInMonth(day: string): number {
  return Number(lastOfMonth(day).slice(8, 10));
}

/** Days from `from` to `to`, both included (0 when `to` is before `from`). */
export function dayCount(range: DayRange): number {
  return Math.max(0, Math.round((toDate(range.to).getTime() - toDate(range.from).getTime()) / DAY_MS) + 1);
}

export function eachDay(range: DayRange): string[] {
  return Array.from({ length: dayCount(range) }, (_, i) => addDays(range.from, i));
}

/** `20261121` (Cost Management's UsageDate) → `2026-11-21`. */
export function fromUsageDate(value: number | string): string {
  const digits = String(value);
  if (!/^\d{8}$/.test(digits)) throw new Error(`UsageDate ${digits} is not yyyymmdd`);
  return `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;
}

/** Cost Management checks the length of a Daily query; no window sent is longer than this. */
export const MAX_WINDOW_DAYS = 31;

/**
 * The query windows of one day, shared by every endpoint so a full dashboard costs three calls:
 * - `month`: the running month up to today;
 * - `previous`: the whole last month, stretched back so that with `month` it covers the last 30
 *   days (never longer than 31 days);
 * - `forecastMonth`: the whole running month, for the forecast.
 */
export interface CostWindows {
  today: string;
  month: DayRange;
  lastMonth: DayRange;
  previous: DayRange;
  forecastMonth: DayRange;
}

export const DEFAULT_DAYS = 30;

export function costWindows(now: Date): CostWindows {
  const today = isoDay(now);
  const lastMonthStart = firstOfPreviousMonth(today);
  const lastMonth = { from: lastMonthStart, to: lastOfMonth(lastMonthStart) };
  const tailStart = addDays(today, -(DEFAULT_DAYS - 1));
  return {
    today,
    month: { from: firstOfMonth(today), to: today },
    lastMonth,
    previous: { from: tailStart < lastMonthStart ? tailStart : lastMonthStart, to: lastMonth.to },
    forecastMonth: { from: firstOfMonth(today), to: lastOfMonth(today) },
  };
}

/**
 * Cost Management lags 8–24 hours behind usage, so a day's costs are complete only a day after it
 * ended: today and yesterday may still grow. The newest day whose costs are complete.
 */
export function lastCompleteDay(today: string): string {
  return addDays(today, -2);
}

/**
 * The days of last month that match the running month so far (1st up to today's day of the
 * month, at most to last month's end): month to date compared like with like.
 */
export function samePeriodLastMonth(windows: Pick<CostWindows, 'today' | 'lastMonth'>): DayRange {
  const day = Math.min(Number(windows.today.slice(8, 10)), daysInMonth(windows.lastMonth.from));
  return { from: windows.lastMonth.from, to: addDays(windows.lastMonth.from, day - 1) };
}

/** The last `days` days up to and including today. */
export function trailingDays(today: string, days: number): DayRange {
  return { from: addDays(today, -(days - 1)), to: today };
}

/**
 * The windows to query for `range`: the shared `month` and `previous` windows, plus windows of
 * at most MAX_WINDOW_DAYS for anything older, counted back from the day before `previous`.
 */
export function windowsCovering(range: DayRange, windows: CostWindows): DayRange[] {
  const covering: DayRange[] = [];
  if (range.to >= windows.month.from) covering.push(windows.month);
  if (range.from <= windows.previous.to && range.to >= windows.previous.from) covering.push(windows.previous);
  let end = addDays(windows.previous.from, -1);
  while (range.from <= end) {
    const start = addDays(end, -(MAX_WINDOW_DAYS - 1));
    // Whole windows (not clipped to `range`) so that 60 and 90 days share their older queries.
    covering.push({ from: start, to: end });
    end = addDays(start, -1);
  }
  return covering;
}
