import type { ForecastDefinition, QueryDefinition } from '@azure/arm-costmanagement';
import { fromUsageDate, type DayRange } from './period';

/**
 * The request bodies sent to Cost Management and the reading of its columnar answers. Columns
 * are found by name: their order differs between API versions and examples.
 */

/** One day's cost of one service in one resource group. */
export interface UsageRow {
  date: string;
  resourceGroup: string;
  service: string;
  cost: number;
  currency: string;
}

/** One day of the provider's forecast for the whole subscription (forecasts take no grouping). */
export interface ForecastRow {
  date: string;
  cost: number;
  status: string;
  currency: string;
}

export interface ColumnarResult {
  columns?: { name?: string; type?: string }[];
  rows?: unknown[][];
  nextLink?: string | null;
}

export const RESOURCE_GROUP_DIMENSION = 'ResourceGroupName';
export const SERVICE_DIMENSION = 'ServiceName';

const timePeriod = (range: DayRange) => ({
  from: new Date(`${range.from}T00:00:00.000Z`),
  to: new Date(`${range.to}T23:59:59.000Z`),
});

/** Daily actual cost per resource group and service for the days of `range`. */
export function usageQuery(range: DayRange): QueryDefinition {
  return {
    type: 'ActualCost',
    timeframe: 'Custom',
    timePeriod: timePeriod(range),
    dataset: {
      granularity: 'Daily',
      aggregation: { totalCost: { name: 'Cost', function: 'Sum' } },
      grouping: [
        { type: 'Dimension', name: RESOURCE_GROUP_DIMENSION },
        { type: 'Dimension', name: SERVICE_DIMENSION },
      ],
    },
  };
}

/** The daily forecast of actual cost for `range`; the API accepts only a Custom timeframe. */
export function forecastQuery(range: DayRange): ForecastDefinition {
  return {
    type: 'ActualCost',
    timeframe: 'Custom',
    timePeriod: timePeriod(range),
    dataset: { granularity: 'Daily', aggregation: { totalCost: { name: 'Cost', function: 'Sum' } } },
    includeActualCost: false,
    includeFreshPartialCost: false,
  };
}

export class UnexpectedAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnexpectedAnswerError';
  }
}

function columnIndex(result: ColumnarResult, names: readonly string[], required = true): number {
  const columns = (result.columns ?? []).map((column) => (column.name ?? '').toLowerCase());
  for (const name of names) {
    const index = columns.indexOf(name.toLowerCase());
    if (index >= 0) return index;
  }
  if (required) throw new UnexpectedAnswerError(`the answer has no ${names.join('/')} column`);
  return -1;
}

const text = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : value == null
        ? ''
        : JSON.stringify(value);
const amount = (value: unknown) => {
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number)) throw new UnexpectedAnswerError(`cost ${text(value)} is not a number`);
  return number;
};

// The aggregated column carries the source column's name; legacy answers call it PreTaxCost.
const COST_COLUMNS = ['Cost', 'PreTaxCost'];

/** Reads the rows of a usage answer (a 204 arrives as `{}` and reads as no rows). */
export function readUsageRows(result: ColumnarResult, fallbackCurrency = ''): UsageRow[] {
  const rows = result.rows ?? [];
  if (!rows.length) return [];
  const cost = columnIndex(result, COST_COLUMNS);
  const date = columnIndex(result, ['UsageDate']);
  const group = columnIndex(result, [RESOURCE_GROUP_DIMENSION, 'ResourceGroup']);
  const service = columnIndex(result, [SERVICE_DIMENSION], false);
  const currency = columnIndex(result, ['Currency'], false);
  return rows.map((row) => ({
    date: fromUsageDate(row[date] as number),
    resourceGroup: text(row[group]),
    service: service >= 0 ? text(row[service]) : '',
    cost: amount(row[cost]),
    currency: currency >= 0 ? text(row[currency]) : fallbackCurrency,
  }));
}

export function readForecastRows(result: ColumnarResult): ForecastRow[] {
  const rows = result.rows ?? [];
  if (!rows.length) return [];
  const cost = columnIndex(result, COST_COLUMNS);
  const date = columnIndex(result, ['UsageDate']);
  const status = columnIndex(result, ['CostStatus'], false);
  const currency = columnIndex(result, ['Currency'], false);
  return rows.map((row) => ({
    date: fromUsageDate(row[date] as number),
    cost: amount(row[cost]),
    status: status >= 0 ? text(row[status]) : 'Forecast',
    currency: currency >= 0 ? text(row[currency]) : '',
  }));
}
