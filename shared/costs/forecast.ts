import { addDays, dayCount, eachDay, type CostWindows } from './period';
import type { ForecastRow, UsageRow } from './wire';

/**
 * The running month's forecast, day by day, after the newest day with actual costs.
 * - `provider`: Cost Management's Forecast API figures for those days (a day it leaves out is 0);
 * - `run_rate` (the provider has no forecast yet: 424 or an empty answer): every remaining day
 *   costs the daily mean of the month so far, i.e. linear from the month to date.
 * The end of month is the month to date plus the forecast days, so the summary tile and the
 * accumulated chart always end on the same figure.
 */
export interface MonthForecast {
  method: 'provider' | 'run_rate';
  /** The newest day with actual costs ('' when the month has none yet); the forecast starts after it. */
  lastActual: string;
  days: { date: string; cost: number }[];
  /** Month to date plus the forecast days, at full precision. */
  endOfMonth: number;
}

export function monthForecast(windows: CostWindows, current: readonly UsageRow[], forecast?: readonly ForecastRow[]): MonthForecast {
  const monthToDate = current.reduce((total, row) => total + row.cost, 0);
  const lastActual = current.reduce((latest, row) => (row.date > latest ? row.date : latest), '');
  const start = lastActual ? addDays(lastActual, 1) : windows.month.from;
  const ahead = eachDay({ from: start, to: windows.forecastMonth.to });
  if (forecast?.length) {
    const byDay = new Map<string, number>();
    for (const row of forecast) {
      if (row.date >= start && row.date <= windows.forecastMonth.to) byDay.set(row.date, (byDay.get(row.date) ?? 0) + row.cost);
    }
    const days = ahead.map((date) => ({ date, cost: byDay.get(date) ?? 0 }));
    return { method: 'provider', lastActual, days, endOfMonth: monthToDate + days.reduce((total, d) => total + d.cost, 0) };
  }
  const elapsed = dayCount({ from: windows.month.from, to: lastActual || windows.today });
  const mean = elapsed > 0 ? monthToDate / elapsed : 0;
  const days = ahead.map((date) => ({ date, cost: mean }));
  return { method: 'run_rate', lastActual, days, endOfMonth: monthToDate + mean * days.length };
}
