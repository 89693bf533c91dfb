import { costsFunction } from '../../functions/costs';
import type { FakeCostProvider } from '../../development/costsFake/server';
import type { CostService } from '../../shared/costs/service';
import { startTestHost, type TestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { clockAt, serviceFor, startFake, useFake } from './support';

/**
 * The dashboard endpoints over HTTP, through the production service, @azure/identity and
 * @azure/arm-costmanagement against the fake provider serving tests/fixtures/cost-management/
 * dataset.json. Every expected figure below is worked out by hand from that file.
 */

interface Body {
  [key: string]: unknown;
}

async function hostFor(service: () => CostService): Promise<TestHost> {
  return startTestHost([costsFunction(service)]);
}

describe('cost dashboard on 2026-11-21 (mid-month)', () => {
  let fake: FakeCostProvider;
  let host: TestHost;
  let admin: Record<string, string>;
  const clock = clockAt('2026-11-21T10:00:00Z');

  beforeAll(async () => {
    // Pages of 4 rows: the month's 6 rows arrive over a nextLink. Reversed columns: found by name.
    fake = await startFake({ pageSize: 4, columnOrder: 'reversed' });
    const service = serviceFor(fake, clock.now);
    host = await hostFor(() => service);
    admin = await bearer('admin-1', { roles: ['billing_admin'] });
  });
  afterAll(async () => {
    await host.close();
    await fake.close();
  });

  const get = async (path: string) => {
    const response = await host.request('GET', `/api/admin/v1/costs/${path}`, { headers: admin });
    return {
      response,
      body: (response.headers.get('content-type')?.includes('json') ? await response.json() : await response.text()) as Body & string,
    };
  };

  it('summary: month to date, forecast, last month, delta and the resource-group table', async () => {
    const { response, body } = await get('summary');
    expect(response.status).toBe(200);
    // MTD = 2.10333307059661 + 218.68795741935486 + 0.14384913581657052 + 0.009865586851323632 + 30.2572751438 + 0 = 251.2022803564
    // Last month (October) = 19.545363672276512 + 173.41979241290323 + 50.43096419040001 + 0.07675760200000002 + 20.359416562625452 = 263.8322944402
    // Forecast rows after the last actual day (21st): 10.5 + 4.25 + 0.25 = 15 → end of month 266.2022803564
    // Delta = 266.2022803564 − 263.8322944402 = 2.3699859162 (0.898 %)
    // Like with like: October 1st–21st = 19.545363672276512 (5th) + 173.41979241290323 (15th) = 192.9651560852;
    // MTD − that = 58.2371242712 (30.18 %). Per group the month to date against the same days.
    expect(body).toEqual({
      currency: 'EUR',
      month: '2026-11',
      monthToDate: 251.2,
      // Cost data lags: the 20th and today still grow.
      completeThrough: '2026-11-19',
      forecast: { endOfMonth: 266.2, method: 'provider' },
      lastMonthToDate: 192.97,
      samePeriod: { from: '2026-10-01', to: '2026-10-21' },
      deltaToLastMonthToDate: { absolute: 58.24, percent: 30.2 },
      lastMonth: 263.83,
      deltaToLastMonth: { absolute: 2.37, percent: 0.9 },
      resourceGroups: [
        // Both casings are one group, shown as written on its newest row (20th).
        {
          resourceGroup: 'ict_stratandplan_goldsprova_prod',
          monthToDate: 218.7,
          lastMonthToDate: 173.42,
          lastMonth: 173.42,
          delta: { absolute: 45.28, percent: 26.1 },
        },
        // October's row of this group is the 23rd: nothing on the same days, so no percentage.
        {
          resourceGroup: '(no resource group)',
          monthToDate: 30.26,
          lastMonthToDate: 0,
          lastMonth: 50.43,
          delta: { absolute: 30.26, percent: null },
        },
        // 19.545363672276512 (5th) of 19.62 (the 25th's 0.077 is after the 21st): 2.1033 − 19.5454 = −17.44 (−89.24 %).
        {
          resourceGroup: 'ScreenSharingTest-peer',
          monthToDate: 2.1,
          lastMonthToDate: 19.55,
          lastMonth: 19.62,
          delta: { absolute: -17.44, percent: -89.2 },
        },
        {
          resourceGroup: 'ssbciotelement01',
          monthToDate: 0.14,
          lastMonthToDate: 0,
          lastMonth: 20.36,
          delta: { absolute: 0.14, percent: null },
        },
      ],
      warnings: [],
      asOf: '2026-11-21T10:00:00.000Z',
      cached: false,
      stale: false,
    });
    expect(response.headers.get('x-cost-as-of')).toBe('2026-11-21T10:00:00.000Z');
  });

  it('asked the provider with the newest api-version, Custom UTC periods, and followed the nextLink', () => {
    const queries = fake.requests.filter((request) => request.operation === 'query');
    expect(queries.every((request) => request.apiVersion === '2025-03-01')).toBe(true);
    const periods = queries.map((request) => (request.body as { timePeriod: { from: string; to: string } }).timePeriod);
    expect(periods).toEqual(
      expect.arrayContaining([
        { from: '2026-11-01T00:00:00.000Z', to: '2026-11-21T23:59:59.000Z' },
        { from: '2026-10-01T00:00:00.000Z', to: '2026-10-31T23:59:59.000Z' },
      ]),
    );
    // November has 6 rows: page 1 (4 rows) + page 2 through the nextLink; October 5 rows: 2 pages.
    expect(queries.filter((request) => request.skipToken)).toHaveLength(2);
    const [forecast] = fake.requests.filter((request) => request.operation === 'forecast');
    expect(forecast?.body).toMatchObject({
      timeframe: 'Custom',
      timePeriod: { from: '2026-11-01T00:00:00.000Z', to: '2026-11-30T23:59:59.000Z' },
    });
    expect(forecast?.body).not.toHaveProperty('dataset.grouping');
  });

  it('breakdown: month to date per service, shares adding up to 100', async () => {
    const { response, body } = await get('breakdown');
    expect(response.status).toBe(200);
    // Shares of 251.2022803564: VM 218.6978230062 → 87.06 %, Bandwidth 30.2572751438 → 12.04 %,
    // App Service 2.1033330706 → 0.84 %, Storage 0.1438491358 → 0.057 %, Key Vault 0. In tenths by
    // largest remainder: 870.6→871, 120.4→120, 8.4→8, 0.6→1, 0 (sum 1000).
    expect(body).toMatchObject({
      currency: 'EUR',
      month: '2026-11',
      total: 251.2,
      services: [
        { service: 'Virtual Machines', cost: 218.7, sharePercent: 87.1 },
        { service: 'Bandwidth', cost: 30.26, sharePercent: 12 },
        { service: 'Azure App Service', cost: 2.1, sharePercent: 0.8 },
        { service: 'Storage', cost: 0.14, sharePercent: 0.1 },
        { service: 'Key Vault', cost: 0, sharePercent: 0 },
      ],
      cached: true, // the month's query was cached by the summary
    });
  });

  it('timeseries: 30 days by default, days without rows as 0, today and yesterday marked incomplete', async () => {
    const { response, body } = await get('timeseries');
    expect(response.status).toBe(200);
    const points = body['points'] as { date: string; cost: number; complete: boolean }[];
    expect(points).toHaveLength(30);
    expect(points[0]).toEqual({ date: '2026-10-23', cost: 50.43, complete: true });
    // Cost data lags 8–24 hours: the 20th and today's 0 may still grow.
    expect(points.filter((point) => !point.complete)).toEqual([
      { date: '2026-11-20', cost: 30.27, complete: false },
      { date: '2026-11-21', cost: 0, complete: false },
    ]);
    expect(points.filter((point) => point.cost !== 0).map(({ date, cost }) => ({ date, cost }))).toEqual([
      { date: '2026-10-23', cost: 50.43 },
      { date: '2026-10-25', cost: 0.08 },
      { date: '2026-10-31', cost: 20.36 },
      { date: '2026-11-02', cost: 220.79 }, // 2.10333307059661 + 218.68795741935486
      { date: '2026-11-10', cost: 0.14 },
      { date: '2026-11-20', cost: 30.27 }, // 0.009865586851323632 + 30.2572751438
    ]);
    // 50.43096419040001 + 0.07675760200000002 + 20.359416562625452 + 251.2022803564 (Oct 5th and 15th are older)
    expect(body).toMatchObject({
      days: 30,
      from: '2026-10-23',
      to: '2026-11-21',
      completeThrough: '2026-11-19',
      total: 322.07,
      currency: 'EUR',
      cached: true,
    });
  });

  it('timeseries over 90 days reaches back into August with two more windows of at most 31 days', async () => {
    const before = fake.count('query');
    const { body } = await get('timeseries?days=90');
    // Aug 24 .. Nov 21: adds 7.25 (Aug 25) and 12.5 (Sep 15); 99 on Aug 23 is a day too old.
    expect(body).toMatchObject({ days: 90, from: '2026-08-24', to: '2026-11-21', total: 534.78, cached: false });
    const extra = fake.requests.filter((request) => request.operation === 'query').slice(before);
    expect(extra.map((request) => (request.body as { timePeriod: unknown }).timePeriod)).toEqual([
      { from: '2026-08-31T00:00:00.000Z', to: '2026-09-30T23:59:59.000Z' },
      { from: '2026-07-31T00:00:00.000Z', to: '2026-08-30T23:59:59.000Z' },
    ]);
  });

  it('export.csv: the documented header, one line per day, group and service, as a download', async () => {
    const { response, body } = await get('export.csv?days=30');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="costs-2026-10-23-to-2026-11-21.csv"');
    expect(response.headers.get('x-cost-cached')).toBe('true');
    expect(body).toBe(
      [
        'date,resourceGroup,service,cost,currency',
        '2026-10-23,(no resource group),Bandwidth,50.4310,EUR',
        '2026-10-25,ScreenSharingTest-peer,Storage,0.0768,EUR',
        '2026-10-31,ssbciotelement01,Storage,20.3594,EUR',
        '2026-11-02,ScreenSharingTest-peer,Azure App Service,2.1033,EUR',
        '2026-11-02,ict_stratandplan_goldsprova_prod,Virtual Machines,218.6880,EUR',
        '2026-11-10,ssbciotelement01,Storage,0.1438,EUR',
        '2026-11-20,(no resource group),Bandwidth,30.2573,EUR',
        '2026-11-20,ict_stratandplan_goldsprova_prod,Virtual Machines,0.0099,EUR',
        '2026-11-21,ssbciotelement01,Key Vault,0.0000,EUR',
        '',
      ].join('\r\n'),
    );
  });

  it.each(['0', '91', '-1', '2.5', 'abc', '', '1e2', '1e999', 'Infinity', 'NaN'])(
    'days=%s is a 400 naming query.days, and asks the provider nothing',
    async (days) => {
      const before = fake.requests.length;
      for (const path of [`timeseries?days=${days}`, `export.csv?days=${days}`]) {
        const { response, body } = await get(path);
        expect(response.status).toBe(400);
        expect(response.headers.get('content-type')).toBe('application/problem+json');
        expect(body['errors']).toEqual([{ path: 'query.days', message: 'must be a whole number from 1 to 90' }]);
      }
      expect(fake.requests.length).toBe(before);
    },
  );

  it('accumulated: the running total ends on the month to date, the forecast on the summary forecast, with no further provider call', async () => {
    const before = fake.requests.length;
    const { response, body } = await get('accumulated');
    expect(response.status).toBe(200);
    // Answered from the summary's three queries.
    expect(fake.requests.length).toBe(before);
    const month = body as unknown as {
      daysInMonth: number;
      completeThrough: string;
      actual: { date: string; cumulative: number; complete: boolean }[];
      forecast: { method: string; endOfMonth: number; points: { date: string; cumulative: number }[] };
      lastMonth: { month: string; total: number; points: { day: number; cumulative: number }[] };
      budget: number | null;
      groups: { service: { name: string; monthToDate: number }[]; resourceGroup: { name: string; monthToDate: number }[] };
    };
    expect(month.daysInMonth).toBe(30);
    expect(month.actual).toHaveLength(21);
    expect(month.actual.at(-1)).toEqual({ date: '2026-11-21', cumulative: 251.2, complete: false });
    expect(month.actual.filter((point) => !point.complete).map((point) => point.date)).toEqual(['2026-11-20', '2026-11-21']);
    expect(month.forecast).toMatchObject({ method: 'provider', endOfMonth: 266.2 });
    expect(month.forecast.points.at(-1)).toEqual({ date: '2026-11-30', cumulative: 266.2 });
    expect(month.lastMonth).toMatchObject({ month: '2026-10', total: 263.83 });
    expect(month.lastMonth.points).toHaveLength(31);
    expect(month.budget).toBeNull();
    expect(month.groups.service[0]).toMatchObject({ name: 'Virtual Machines', monthToDate: 218.7 });
    expect(month.groups.resourceGroup.map((group) => group.name)).toEqual([
      'ict_stratandplan_goldsprova_prod',
      '(no resource group)',
      'ScreenSharingTest-peer',
      'ssbciotelement01',
    ]);
  });

  it('a second full dashboard load inside 30 minutes asks the provider nothing; after 30 minutes it refreshes', async () => {
    const before = fake.requests.length;
    for (const path of ['summary', 'breakdown', 'timeseries?days=30', 'export.csv?days=30'])
      expect((await get(path)).response.status).toBe(200);
    expect(fake.requests.length).toBe(before);
    const summary = await get('summary');
    expect(summary.body).toMatchObject({ cached: true, asOf: '2026-11-21T10:00:00.000Z' });

    clock.advance(30 * 60_000);
    const refreshed = await get('summary');
    expect(refreshed.body).toMatchObject({ cached: false, asOf: '2026-11-21T10:30:00.000Z', monthToDate: 251.2 });
    // Three queries' first pages plus two nextLink pages; the token is still valid.
    const calls = fake.requests.slice(before).map((request) => request.operation);
    expect(calls.filter((operation) => operation === 'forecast')).toHaveLength(1);
    expect(calls.filter((operation) => operation === 'query')).toHaveLength(4);
    expect(calls).not.toContain('token');
  });
});

describe('month boundaries', () => {
  const fake = useFake();

  it('on the 1st the month to date is the 1st alone and last month is the whole month before', async () => {
    const service = serviceFor(fake(), clockAt('2026-12-01T06:00:00Z').now);
    const host = await hostFor(() => service);
    try {
      const headers = await bearer('admin-1', { roles: ['ops_admin'] });
      const summary = (await (await host.request('GET', '/api/admin/v1/costs/summary', { headers })).json()) as Body;
      // No December row yet; November = 251.2022803564; forecast for December: 8 + 2 = 10 (no actual day yet, so all of it).
      // Delta 10 − 251.2022803564 = −241.2022803564 (−96.02 %).
      expect(summary).toMatchObject({
        month: '2026-12',
        monthToDate: 0,
        lastMonth: 251.2,
        forecast: { endOfMonth: 10, method: 'provider' },
        deltaToLastMonth: { absolute: -241.2, percent: -96 },
      });
      const breakdown = (await (await host.request('GET', '/api/admin/v1/costs/breakdown', { headers })).json()) as Body;
      expect(breakdown).toMatchObject({ month: '2026-12', total: 0, services: [] });
      const series = (await (await host.request('GET', '/api/admin/v1/costs/timeseries?days=30', { headers })).json()) as Body;
      // Nov 2 .. Dec 1: every November row (the 2nd included).
      expect(series).toMatchObject({ from: '2026-11-02', to: '2026-12-01', total: 251.2 });
    } finally {
      await host.close();
    }
  });

  it('in January last month is December of the year before; without a provider forecast the run rate is used', async () => {
    const before = fake().requests.length;
    const service = serviceFor(fake(), clockAt('2027-01-15T12:00:00Z').now);
    const host = await hostFor(() => service);
    try {
      const headers = await bearer('admin-1', { roles: ['platform_admin'] });
      const summary = (await (await host.request('GET', '/api/admin/v1/costs/summary', { headers })).json()) as Body;
      // January: 25.25 + 4.75 = 30 up to the 14th (newest row) → run rate 30 / 14 × 31 = 66.4285714286.
      // December 2026: 40 + 60.5 = 100.5. Delta 66.4285714286 − 100.5 = −34.0714285714 (−33.90 %).
      expect(summary).toMatchObject({
        month: '2027-01',
        monthToDate: 30,
        lastMonth: 100.5,
        forecast: { endOfMonth: 66.43, method: 'run_rate' },
        deltaToLastMonth: { absolute: -34.07, percent: -33.9 },
        // December 1st–15th: the 2nd's 40 (the 31st's 60.5 is later). 30 − 40 = −10 (−25 %).
        lastMonthToDate: 40,
        samePeriod: { from: '2026-12-01', to: '2026-12-15' },
        deltaToLastMonthToDate: { absolute: -10, percent: -25 },
        resourceGroups: [
          { resourceGroup: 'RG-CLUB-PROD', monthToDate: 30, lastMonthToDate: 40, lastMonth: 100.5, delta: { absolute: -10, percent: -25 } },
        ],
      });
      expect(summary['warnings']).toEqual([
        'The provider has no forecast for this month yet; the end of month is the month-to-date run rate.',
      ]);
      const periods = fake()
        .requests.slice(before)
        .map((request) => (request.body as { timePeriod?: unknown } | undefined)?.timePeriod);
      expect(periods).toEqual(
        expect.arrayContaining([
          { from: '2027-01-01T00:00:00.000Z', to: '2027-01-15T23:59:59.000Z' },
          { from: '2026-12-01T00:00:00.000Z', to: '2026-12-31T23:59:59.000Z' },
          { from: '2027-01-01T00:00:00.000Z', to: '2027-01-31T23:59:59.000Z' },
        ]),
      );
    } finally {
      await host.close();
    }
  });
});

describe('who may read costs', () => {
  let fake: FakeCostProvider;
  let host: TestHost;
  beforeAll(async () => {
    fake = await startFake();
    const service = serviceFor(fake, clockAt('2026-11-21T10:00:00Z').now);
    host = await hostFor(() => service);
  });
  afterAll(async () => {
    await host.close();
    await fake.close();
  });

  const paths = ['status', 'summary', 'breakdown', 'timeseries?days=7', 'accumulated', 'export.csv?days=7'];

  it.each(['platform_admin', 'ops_admin', 'billing_admin'])('%s reads every cost endpoint', async (role) => {
    const headers = await bearer(`user-${role}`, { roles: [role] });
    for (const path of paths) expect((await host.request('GET', `/api/admin/v1/costs/${path}`, { headers })).status).toBe(200);
  });

  it('support_admin gets 403 and an anonymous caller 401 on every cost endpoint, and the provider is never asked', async () => {
    const before = fake.requests.length;
    const support = await bearer('user-support', { roles: ['support_admin'] });
    const plain = await bearer('user-plain');
    for (const path of paths) {
      const forbidden = await host.request('GET', `/api/admin/v1/costs/${path}`, { headers: support });
      expect(forbidden.status).toBe(403);
      expect(forbidden.headers.get('content-type')).toBe('application/problem+json');
      expect((await host.request('GET', `/api/admin/v1/costs/${path}`, { headers: plain })).status).toBe(403);
      expect((await host.request('GET', `/api/admin/v1/costs/${path}`)).status).toBe(401);
    }
    expect(fake.requests.length).toBe(before);
  });
});
