import { accumulate, GROUPS_SHOWN, OTHER_GROUP } from '../../shared/costs/accumulated';
import { summarise } from '../../shared/costs/figures';
import { monthForecast } from '../../shared/costs/forecast';
import { costWindows } from '../../shared/costs/period';
import type { ForecastRow, UsageRow } from '../../shared/costs/wire';

const windows = costWindows(new Date('2026-11-05T10:00:00Z'));
const row = (date: string, cost: number, service = 'Storage', resourceGroup = 'rg-app'): UsageRow => ({
  date,
  cost,
  service,
  resourceGroup,
  currency: 'EUR',
});
const forecastRow = (date: string, cost: number): ForecastRow => ({ date, cost, status: 'Forecast', currency: 'EUR' });

// 1st to 4th of November: 10, 20, 0 (no rows), 6; today (5th) has nothing yet.
const november = [row('2026-11-01', 10), row('2026-11-02', 15), row('2026-11-02', 5, 'Bandwidth', 'rg-net'), row('2026-11-04', 6)];
const october = [row('2026-10-01', 3), row('2026-10-15', 30), row('2026-10-31', 7)];

describe('the accumulated month (running total, forecast, budget, last month)', () => {
  it('runs the month-to-date total day by day up to today and marks the days whose costs may still grow', () => {
    const month = accumulate(windows, november, october, undefined, null);
    expect(month.actual.map((point) => point.cumulative)).toEqual([10, 30, 30, 36, 36]);
    expect(month.actual.map((point) => point.date)).toEqual(['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05']);
    // Cost data lags up to a day: the 4th and today are still incomplete on the 5th.
    expect(month.completeThrough).toBe('2026-11-03');
    expect(month.actual.map((point) => point.complete)).toEqual([true, true, true, false, false]);
    expect(month.daysInMonth).toBe(30);
  });

  it('without a provider forecast continues linearly with the daily mean of the month so far, to the same end as the summary', () => {
    const month = accumulate(windows, november, october, undefined, null);
    // 36 over the 4 days up to the newest actual day: 9 a day for the 26 days from the 5th.
    expect(month.forecast.method).toBe('run_rate');
    expect(month.forecast.points[0]).toEqual({ date: '2026-11-04', cumulative: 36 });
    expect(month.forecast.points[1]).toEqual({ date: '2026-11-05', cumulative: 45 });
    expect(month.forecast.points.at(-1)).toEqual({ date: '2026-11-30', cumulative: 270 });
    expect(month.forecast.endOfMonth).toBe(270);
    expect(summarise(windows, november, october).forecast).toEqual({ endOfMonth: 270, method: 'run_rate' });
    expect(month.warnings).toEqual([expect.stringContaining('run rate')]);
  });

  it("with the provider's forecast adds its daily figures after the newest actual day (a day it leaves out adds nothing)", () => {
    const forecast = [
      forecastRow('2026-11-04', 99),
      forecastRow('2026-11-05', 4),
      forecastRow('2026-11-06', 5),
      forecastRow('2026-11-30', 1),
    ];
    const month = accumulate(windows, november, october, forecast, null);
    expect(month.forecast.method).toBe('provider');
    expect(month.forecast.points.slice(0, 3)).toEqual([
      { date: '2026-11-04', cumulative: 36 },
      { date: '2026-11-05', cumulative: 40 },
      { date: '2026-11-06', cumulative: 45 },
    ]);
    expect(month.forecast.points.at(-2)?.cumulative).toBe(45);
    expect(month.forecast.endOfMonth).toBe(46);
    expect(summarise(windows, november, october, forecast).forecast.endOfMonth).toBe(46);
    expect(month.warnings).toEqual([]);
  });

  it("draws last month's running total by day of the month and passes the budget through", () => {
    const month = accumulate(windows, november, october, undefined, 250);
    expect(month.lastMonth.month).toBe('2026-10');
    expect(month.lastMonth.points).toHaveLength(31);
    expect(month.lastMonth.points[0]).toEqual({ day: 1, cumulative: 3 });
    expect(month.lastMonth.points[14]).toEqual({ day: 15, cumulative: 33 });
    expect(month.lastMonth.points.at(-1)).toEqual({ day: 31, cumulative: 40 });
    expect(month.lastMonth.total).toBe(40);
    expect(month.budget).toBe(250);
    expect(accumulate(windows, november, october, undefined, null).budget).toBeNull();
  });

  it('splits the running total by service and by resource group, largest first, each adding up to the total', () => {
    const month = accumulate(windows, november, october, undefined, null);
    expect(month.groups.service.map((group) => [group.name, group.monthToDate])).toEqual([
      ['Storage', 31],
      ['Bandwidth', 5],
    ]);
    expect(month.groups.resourceGroup.map((group) => [group.name, group.cumulative])).toEqual([
      ['rg-app', [10, 25, 25, 31, 31]],
      ['rg-net', [0, 5, 5, 5, 5]],
    ]);
  });

  it('folds every group past the five largest into one "Other" curve', () => {
    const many = Array.from({ length: GROUPS_SHOWN + 2 }, (_, i) => row('2026-11-01', 10 - i, `Service ${i}`));
    const groups = accumulate(windows, many, [], undefined, null).groups.service;
    expect(groups).toHaveLength(GROUPS_SHOWN + 1);
    expect(groups.at(-1)).toMatchObject({ name: OTHER_GROUP, other: true, monthToDate: 5 + 4 });
    // Six groups: the sixth is shown by its name rather than as "Other".
    const six = accumulate(windows, many.slice(0, GROUPS_SHOWN + 1), [], undefined, null).groups.service;
    expect(six.map((group) => group.other)).not.toContain(true);
  });

  it('on the 1st with no costs yet forecasts from the start of the month without an anchor point', () => {
    const first = costWindows(new Date('2026-12-01T08:00:00Z'));
    const forecast = monthForecast(first, [], undefined);
    expect(forecast.lastActual).toBe('');
    expect(forecast.days).toHaveLength(31);
    expect(forecast.endOfMonth).toBe(0);
    const month = accumulate(first, [], [], [forecastRow('2026-12-01', 2), forecastRow('2026-12-31', 3)], null);
    expect(month.forecast.points[0]).toEqual({ date: '2026-12-01', cumulative: 2 });
    expect(month.forecast.endOfMonth).toBe(5);
  });
});
