import { byText, currencyOf, normaliseGroups, roundMoney, sum, within } from './figures';
import { monthForecast } from './forecast';
import { daysInMonth, eachDay, lastCompleteDay, type CostWindows } from './period';
import type { ForecastRow, UsageRow } from './wire';

/**
 * The running month as Azure Cost analysis's accumulated view draws it: the month-to-date running
 * total day by day, the forecast continuing it to the month's end, last month's running total
 * for comparison, the monthly budget, and the running total split by service or resource group.
 */

/** The largest groups drawn on their own; the rest is added up as one. */
export const GROUPS_SHOWN = 5;
export const OTHER_GROUP = 'Other';

export interface GroupCurve {
  name: string;
  monthToDate: number;
  /** Running total per day of `actual`, same order. */
  cumulative: number[];
  /** True for the group that adds up everything past the largest GROUPS_SHOWN. */
  other: boolean;
}

export interface Accumulated {
  currency: string;
  month: string;
  daysInMonth: number;
  /** The newest complete day; the actual points after it are still growing. */
  completeThrough: string;
  /** One point per day from the 1st up to today. */
  actual: { date: string; cumulative: number; complete: boolean }[];
  forecast: {
    method: 'provider' | 'run_rate';
    endOfMonth: number;
    /** From the newest actual day (its running total) to the month's last day. */
    points: { date: string; cumulative: number }[];
  };
  /** Last month's running total per day of the month. */
  lastMonth: { month: string; total: number; points: { day: number; cumulative: number }[] };
  /** The monthly budget (COSTS_MONTHLY_BUDGET); null when none is set. */
  budget: number | null;
  groups: { service: GroupCurve[]; resourceGroup: GroupCurve[] };
  warnings: string[];
}

function runningTotals(days: readonly string[], rows: readonly { date: string; cost: number }[]): number[] {
  const byDay = new Map<string, number>();
  for (const row of rows) byDay.set(row.date, (byDay.get(row.date) ?? 0) + row.cost);
  let total = 0;
  return days.map((date) => (total += byDay.get(date) ?? 0));
}

/** The largest groups by month to date, the rest folded into one "Other" curve. */
export function groupCurves(days: readonly string[], rows: readonly UsageRow[], nameOf: (row: UsageRow) => string): GroupCurve[] {
  const byGroup = new Map<string, UsageRow[]>();
  for (const row of rows) {
    const name = nameOf(row);
    byGroup.set(name, [...(byGroup.get(name) ?? []), row]);
  }
  const ordered = [...byGroup.entries()]
    .map(([name, groupRows]) => ({ name, rows: groupRows, total: sum(groupRows.map((row) => row.cost)) }))
    .sort((a, b) => b.total - a.total || byText(a.name, b.name));
  // Folding a single group into "Other" would only rename it.
  const shown = ordered.length > GROUPS_SHOWN + 1 ? ordered.slice(0, GROUPS_SHOWN) : ordered;
  const rest = ordered.slice(shown.length);
  const curve = (name: string, groupRows: readonly UsageRow[], other: boolean): GroupCurve => ({
    name,
    monthToDate: roundMoney(sum(groupRows.map((row) => row.cost))),
    cumulative: runningTotals(days, groupRows).map(roundMoney),
    other,
  });
  return [
    ...shown.map((group) => curve(group.name, group.rows, false)),
    ...(rest.length
      ? [
          curve(
            OTHER_GROUP,
            rest.flatMap((group) => group.rows),
            true,
          ),
        ]
      : []),
  ];
}

export function accumulate(
  windows: CostWindows,
  month: readonly UsageRow[],
  previous: readonly UsageRow[],
  forecast: readonly ForecastRow[] | undefined,
  budget: number | null,
): Accumulated {
  const current = normaliseGroups(month.filter(within(windows.month)));
  const last = previous.filter(within(windows.lastMonth));
  const { currency, warnings } = currencyOf([...current, ...last, ...(forecast ?? [])]);
  const days = eachDay(windows.month);
  const complete = lastCompleteDay(windows.today);
  const actual = runningTotals(days, current);

  const predicted = monthForecast(windows, current, forecast);
  if (predicted.method === 'run_rate') {
    warnings.push('The provider has no forecast for this month yet; the end of month is the month-to-date run rate.');
  }
  const anchor = predicted.lastActual || windows.month.from;
  const monthToDate = sum(current.map((row) => row.cost));
  let running = predicted.lastActual ? monthToDate : 0;
  const forecastPoints = [
    ...(predicted.lastActual ? [{ date: anchor, cumulative: roundMoney(running) }] : []),
    ...predicted.days.map(({ date, cost }) => ({ date, cumulative: roundMoney((running += cost)) })),
  ];

  const lastDays = eachDay(windows.lastMonth);
  const lastTotals = runningTotals(lastDays, last);

  return {
    currency,
    month: windows.month.from.slice(0, 7),
    daysInMonth: daysInMonth(windows.today),
    completeThrough: complete,
    actual: days.map((date, index) => ({ date, cumulative: roundMoney(actual[index] ?? 0), complete: date <= complete })),
    forecast: { method: predicted.method, endOfMonth: roundMoney(predicted.endOfMonth), points: forecastPoints },
    lastMonth: {
      month: windows.lastMonth.from.slice(0, 7),
      total: roundMoney(sum(last.map((row) => row.cost))),
      points: lastTotals.map((cumulative, index) => ({ day: index + 1, cumulative: roundMoney(cumulative) })),
    },
    budget,
    groups: {
      service: groupCurves(days, current, (row) => row.service.trim() || OTHER_GROUP),
      resourceGroup: groupCurves(days, current, (row) => row.resourceGroup),
    },
    warnings,
  };
}
