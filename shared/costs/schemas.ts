import * as v from 'valibot';
import { wholeNumber } from '../validation/wholeNumber';
import { DEFAULT_DAYS } from './period';

/** The cost endpoints' answers, for the OpenAPI document (the service builds them). */

export const MAX_DAYS = 90;

const dayText = `must be a whole number from 1 to ${MAX_DAYS}`;
export const DaysQuerySchema = v.object({ days: wholeNumber(DEFAULT_DAYS, 1, MAX_DAYS, { message: dayText }) });

const day = v.pipe(v.string(), v.isoDate(), v.description('UTC day, YYYY-MM-DD'));
const money = v.pipe(v.number(), v.description('amount in `currency`, rounded to cents'));
const freshness = {
  asOf: v.pipe(
    v.string(),
    v.isoTimestamp(),
    v.description('when the data was fetched from the provider (its own data lags 8–24 h behind usage)'),
  ),
  cached: v.pipe(v.boolean(), v.description('true when answered from the 30-minute cache')),
  stale: v.pipe(v.boolean(), v.description('true when older than 30 minutes because the provider is rate-limiting or failing')),
};
const currency = v.pipe(v.string(), v.description("the subscription's billing currency (EUR)"));
const warnings = v.pipe(v.array(v.string()), v.description('notes for the operator, e.g. forecast replaced by the run rate'));
const delta = v.object({
  absolute: money,
  percent: v.pipe(v.nullable(v.number()), v.description('relative to the earlier figure, 0.1 precision; null when that is 0')),
});

export const CostStatusSchema = v.pipe(
  v.object({
    configured: v.pipe(v.boolean(), v.description('false unless all four INTERNAL_CLOUD_COST_* credentials are set')),
    asOf: v.pipe(v.string(), v.isoTimestamp()),
    cached: v.literal(false),
  }),
  v.title('CostStatus'),
);

export const CostSummarySchema = v.pipe(
  v.object({
    currency,
    month: v.pipe(v.string(), v.description('the running month, YYYY-MM (UTC)')),
    monthToDate: money,
    completeThrough: v.pipe(
      day,
      v.description('the newest complete day: the month to date includes the days after it, whose costs may still grow'),
    ),
    forecast: v.object({
      endOfMonth: money,
      method: v.pipe(
        v.picklist(['provider', 'run_rate']),
        v.description("provider: the provider's forecast; run_rate: month to date stretched to the whole month"),
      ),
    }),
    lastMonthToDate: v.pipe(money, v.description('last month over the same days as the month to date (samePeriod)')),
    samePeriod: v.pipe(
      v.object({ from: day, to: day }),
      v.description("last month's 1st up to today's day of the month (at most its end)"),
    ),
    deltaToLastMonthToDate: v.pipe(delta, v.description('month to date minus the same days of last month')),
    lastMonth: money,
    deltaToLastMonth: v.pipe(delta, v.description('end-of-month forecast minus last month')),
    resourceGroups: v.array(
      v.object({
        resourceGroup: v.string(),
        monthToDate: money,
        lastMonthToDate: money,
        lastMonth: money,
        delta: v.pipe(delta, v.description('month to date minus the same days of last month')),
      }),
    ),
    warnings,
    ...freshness,
  }),
  v.title('CostSummary'),
);

export const CostBreakdownSchema = v.pipe(
  v.object({
    currency,
    month: v.string(),
    total: money,
    services: v.array(
      v.object({
        service: v.string(),
        cost: money,
        sharePercent: v.pipe(v.number(), v.description('0.1 precision; the shares add up to 100')),
      }),
    ),
    warnings,
    ...freshness,
  }),
  v.title('CostBreakdown'),
);

export const CostTimeseriesSchema = v.pipe(
  v.object({
    currency,
    days: v.number(),
    from: day,
    to: day,
    total: money,
    completeThrough: v.pipe(
      day,
      v.description('the newest complete day: cost data lags 8–24 hours, so today and yesterday may still grow'),
    ),
    points: v.array(v.object({ date: day, cost: money, complete: v.pipe(v.boolean(), v.description('false after completeThrough')) })),
    warnings,
    ...freshness,
  }),
  v.title('CostTimeseries'),
);

const groupCurves = v.array(
  v.object({
    name: v.string(),
    monthToDate: money,
    cumulative: v.pipe(v.array(money), v.description('running total per day of `actual`')),
    other: v.pipe(v.boolean(), v.description('true for the sum of every group past the five largest')),
  }),
);

export const CostAccumulatedSchema = v.pipe(
  v.object({
    currency,
    month: v.pipe(v.string(), v.description('the running month, YYYY-MM (UTC)')),
    daysInMonth: v.number(),
    completeThrough: v.pipe(day, v.description('the newest complete day; later actual points may still grow')),
    actual: v.array(v.object({ date: day, cumulative: money, complete: v.boolean() })),
    forecast: v.object({
      method: v.picklist(['provider', 'run_rate']),
      endOfMonth: money,
      points: v.pipe(
        v.array(v.object({ date: day, cumulative: money })),
        v.description('running total from the newest actual day to the end of the month'),
      ),
    }),
    lastMonth: v.object({
      month: v.string(),
      total: money,
      points: v.array(v.object({ day: v.pipe(v.number(), v.description('day of the month')), cumulative: money })),
    }),
    budget: v.pipe(v.nullable(money), v.description('the monthly budget (setting COSTS_MONTHLY_BUDGET); null when unset')),
    groups: v.object({ service: groupCurves, resourceGroup: groupCurves }),
    warnings,
    ...freshness,
  }),
  v.title('CostAccumulated'),
);

export const CostCsvSchema = v.pipe(
  v.string(),
  v.description(
    'RFC 4180 CSV, CRLF line ends, header `date,resourceGroup,service,cost,currency`, one line per UTC day, resource group and service; cost with 4 decimals. Headers x-cost-as-of, x-cost-cached and x-cost-stale carry the freshness.',
  ),
);
