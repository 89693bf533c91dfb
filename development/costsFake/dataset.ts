/**
 * The fake's data, kept in Cost Management's own columnar shape: the answer a Daily query grouped
 * by ResourceGroupName and ServiceName would give for the whole stored period, and a daily
 * forecast. The fake slices and re-aggregates it for each request.
 */
export interface WireColumn {
  name: string;
  type: 'Number' | 'String';
}

export interface FakeDataset {
  /** Columns of `rows`; looked up by name, so any order works. */
  columns: WireColumn[];
  rows: (string | number)[][];
  forecast: { columns: WireColumn[]; rows: (string | number)[][] };
}

export interface UsageRecord {
  date: number;
  resourceGroup: string;
  service: string;
  cost: number;
  currency: string;
}

function indexOf(columns: WireColumn[], name: string): number {
  const index = columns.findIndex((column) => column.name.toLowerCase() === name.toLowerCase());
  if (index < 0) throw new Error(`dataset has no ${name} column`);
  return index;
}

export function usageRecords(dataset: FakeDataset): UsageRecord[] {
  const [cost, date, group, service, currency] = ['Cost', 'UsageDate', 'ResourceGroupName', 'ServiceName', 'Currency'].map((name) =>
    indexOf(dataset.columns, name),
  ) as [number, number, number, number, number];
  return dataset.rows.map((row) => ({
    cost: Number(row[cost]),
    date: Number(row[date]),
    resourceGroup: String(row[group]),
    service: String(row[service]),
    currency: String(row[currency]),
  }));
}

export function forecastRecords(dataset: FakeDataset): { date: number; cost: number; currency: string }[] {
  const { columns, rows } = dataset.forecast;
  const [cost, date, currency] = ['Cost', 'UsageDate', 'Currency'].map((name) => indexOf(columns, name)) as [number, number, number];
  return rows.map((row) => ({ cost: Number(row[cost]), date: Number(row[date]), currency: String(row[currency]) }));
}

export const USAGE_COLUMNS: WireColumn[] = [
  { name: 'Cost', type: 'Number' },
  { name: 'UsageDate', type: 'Number' },
  { name: 'ResourceGroupName', type: 'String' },
  { name: 'ServiceName', type: 'String' },
  { name: 'Currency', type: 'String' },
];

export const FORECAST_COLUMNS: WireColumn[] = [
  { name: 'Cost', type: 'Number' },
  { name: 'UsageDate', type: 'Number' },
  { name: 'CostStatus', type: 'String' },
  { name: 'Currency', type: 'String' },
];
