import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SingleFlightCache } from '../../shared/costs/cache';
import { csvField, toCsv } from '../../shared/costs/csv';
import { sharesOf } from '../../shared/costs/figures';
import {
  addDays,
  costWindows,
  dayCount,
  lastCompleteDay,
  MAX_WINDOW_DAYS,
  samePeriodLastMonth,
  trailingDays,
  windowsCovering,
} from '../../shared/costs/period';
import { classifyProviderError, retryAfterSeconds } from '../../shared/costs/providerErrors';
import { readForecastRows, readUsageRows, type ColumnarResult } from '../../shared/costs/wire';

const fixtures = path.join(__dirname, '..', 'fixtures', 'cost-management');
const responseOf = (file: string) =>
  (JSON.parse(readFileSync(path.join(fixtures, file), 'utf8')) as { responses: { '200': { body: { properties: ColumnarResult } } } })
    .responses['200'].body.properties;
const replayOf = (file: string) =>
  JSON.parse(readFileSync(path.join(fixtures, 'errors', file), 'utf8')) as {
    status: number;
    headers: Record<string, string>;
    body: { error: { code: string; message: string } };
  };

describe('cost windows (UTC calendar months)', () => {
  it.each([
    [
      '2026-11-21T10:00:00Z',
      { from: '2026-11-01', to: '2026-11-21' },
      { from: '2026-10-01', to: '2026-10-31' },
      { from: '2026-10-01', to: '2026-10-31' },
    ],
    [
      '2026-12-01T00:00:00Z',
      { from: '2026-12-01', to: '2026-12-01' },
      { from: '2026-11-01', to: '2026-11-30' },
      { from: '2026-11-01', to: '2026-11-30' },
    ],
    [
      '2027-01-01T00:30:00Z',
      { from: '2027-01-01', to: '2027-01-01' },
      { from: '2026-12-01', to: '2026-12-31' },
      { from: '2026-12-01', to: '2026-12-31' },
    ],
    [
      '2027-01-15T23:59:59Z',
      { from: '2027-01-01', to: '2027-01-15' },
      { from: '2026-12-01', to: '2026-12-31' },
      { from: '2026-12-01', to: '2026-12-31' },
    ],
    // 30 days back from March 1st reach January 31st: the previous window stretches back to it.
    [
      '2027-03-01T12:00:00Z',
      { from: '2027-03-01', to: '2027-03-01' },
      { from: '2027-02-01', to: '2027-02-28' },
      { from: '2027-01-31', to: '2027-02-28' },
    ],
    // In a leap year 29 days back from March 1st is February 1st.
    [
      '2028-03-01T12:00:00Z',
      { from: '2028-03-01', to: '2028-03-01' },
      { from: '2028-02-01', to: '2028-02-29' },
      { from: '2028-02-01', to: '2028-02-29' },
    ],
  ])('on %s', (now, month, lastMonth, previous) => {
    const windows = costWindows(new Date(now));
    expect(windows).toMatchObject({ month, lastMonth, previous });
    expect(windows.forecastMonth.from).toBe(month.from);
  });

  it('keeps every window at most 31 days and covers the last 30 days, on every day of 2024 to 2028', () => {
    for (let day = '2024-01-01'; day <= '2028-12-31'; day = addDays(day, 1)) {
      const windows = costWindows(new Date(`${day}T12:00:00Z`));
      expect(dayCount(windows.previous)).toBeLessThanOrEqual(MAX_WINDOW_DAYS);
      expect(dayCount(windows.month)).toBeLessThanOrEqual(MAX_WINDOW_DAYS);
      expect(windows.previous.from <= addDays(day, -29)).toBe(true);
      expect(addDays(windows.previous.to, 1)).toBe(windows.month.from);
    }
  });

  it('covers 90 days with contiguous windows of at most 31 days', () => {
    const windows = costWindows(new Date('2027-03-01T12:00:00Z'));
    const range = trailingDays(windows.today, 90);
    const covering = windowsCovering(range, windows).sort((a, b) => (a.from < b.from ? -1 : 1));
    expect(covering[0]!.from <= range.from).toBe(true);
    expect(covering.at(-1)!.to).toBe(range.to);
    for (const [index, window] of covering.entries()) {
      expect(dayCount(window)).toBeLessThanOrEqual(MAX_WINDOW_DAYS);
      if (index > 0) expect(window.from).toBe(addDays(covering[index - 1]!.to, 1));
    }
  });
});

describe('like with like', () => {
  it.each([
    ['2026-11-21T10:00:00Z', { from: '2026-10-01', to: '2026-10-21' }],
    ['2026-12-01T06:00:00Z', { from: '2026-11-01', to: '2026-11-01' }],
    // Last month is shorter: the whole of it, never days of the month after.
    ['2027-03-31T12:00:00Z', { from: '2027-02-01', to: '2027-02-28' }],
    ['2028-03-30T12:00:00Z', { from: '2028-02-01', to: '2028-02-29' }],
    ['2027-01-15T12:00:00Z', { from: '2026-12-01', to: '2026-12-15' }],
  ])('on %s month to date is compared with last month %o', (now, expected) => {
    expect(samePeriodLastMonth(costWindows(new Date(now)))).toEqual(expected);
  });

  it('counts a day complete only a day after it ended (cost data lags 8–24 hours)', () => {
    expect(lastCompleteDay('2026-11-21')).toBe('2026-11-19');
    expect(lastCompleteDay('2027-03-01')).toBe('2027-02-27');
  });
});

describe('shares', () => {
  it.each([
    [
      [1, 1, 1],
      [33.4, 33.3, 33.3],
    ],
    [
      [218.6978230062062, 30.2572751438, 2.10333307059661, 0.14384913581657052, 0],
      [87.1, 12, 0.8, 0.1, 0],
    ],
    [
      [0, 0],
      [0, 0],
    ],
    [[5], [100]],
  ])('%j → %j, adding up to 100 when anything was spent', (costs, shares) => {
    expect(sharesOf(costs)).toEqual(shares);
  });
});

describe('CSV (RFC 4180)', () => {
  it('quotes fields with commas, quotes or line breaks and doubles quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it.each([
    ['=1+2', "'=1+2"],
    ['+SUM(A1)', "'+SUM(A1)"],
    ['-cmd', "'-cmd"],
    ['@A1', "'@A1"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['=A1,B1', `"'=A1,B1"`],
    ['-1.2500', '-1.2500'],
    ['+7', '+7'],
    ['-2e3', '-2e3'],
    ['-', "'-"],
    ['a=b', 'a=b'],
  ])('neutralises formula cells: %j → %j (numbers stay numbers)', (value, cell) => {
    expect(csvField(value)).toBe(cell);
  });

  it('writes the header and CRLF line ends', () => {
    expect(toCsv([{ date: '2026-11-02', resourceGroup: 'rg, "web"', service: 'Storage', cost: 1.23456, currency: 'EUR' }])).toBe(
      'date,resourceGroup,service,cost,currency\r\n2026-11-02,"rg, ""web""",Storage,1.2346,EUR\r\n',
    );
  });
});

describe('reading Cost Management answers by column name', () => {
  it('reads the spec example SubscriptionQuery (PreTaxCost, ResourceGroup, UsageDate, Currency)', () => {
    expect(readUsageRows(responseOf('SubscriptionQuery.json'))).toEqual([
      { date: '2018-03-31', resourceGroup: 'ScreenSharingTest-peer', service: '', cost: 2.10333307059661, currency: 'USD' },
      { date: '2018-03-31', resourceGroup: 'Ict_StratAndPlan_GoldSprova_Prod', service: '', cost: 218.68795741935486, currency: 'USD' },
      { date: '2018-04-01', resourceGroup: 'ssbciotelement01', service: '', cost: 0.14384913581657052, currency: 'USD' },
      { date: '2018-04-29', resourceGroup: 'ict_stratandplan_goldsprova_prod', service: '', cost: 0.009865586851323632, currency: 'USD' },
    ]);
  });

  it('reads the spec example SubscriptionForecast (PreTaxCost, UsageDate, CostStatus, Currency)', () => {
    expect(readForecastRows(responseOf('SubscriptionForecast.json'))[0]).toEqual({
      date: '2018-03-31',
      cost: 2.10333307059661,
      status: 'Forecast',
      currency: 'USD',
    });
  });

  it('reads a 204 (the SDK returns {}) as no rows, and rejects an answer without a date column', () => {
    expect(readUsageRows({})).toEqual([]);
    expect(() => readUsageRows({ columns: [{ name: 'Cost' }], rows: [[1]] })).toThrow(/UsageDate/);
  });
});

describe('provider error classification', () => {
  const restError = (file: string) => {
    const replay = replayOf(file);
    return {
      name: 'RestError',
      message: replay.body.error.message,
      code: replay.body.error.code,
      statusCode: replay.status,
      response: { headers: { toJSON: () => replay.headers } },
    };
  };

  it.each([
    [
      {
        name: 'AuthenticationRequiredError',
        message:
          'invalid_client: Error(s): 7000222 - Timestamp: x - Description: AADSTS7000222: The provided client secret keys for app are expired.',
      },
      'secret_expired',
    ],
    [{ name: 'AuthenticationRequiredError', message: 'AADSTS7000215: Invalid client secret provided.' }, 'provider_refused'],
    [{ name: 'CredentialUnavailableError', message: 'endpoints_resolution_error' }, 'provider_unavailable'],
    [restError('arm-401-RBACAccessDenied.json'), 'access_denied'],
    [restError('arm-403-AuthorizationFailed.json'), 'access_denied'],
    [restError('arm-409-MissingSubscriptionRegistration.json'), 'provider_not_registered'],
    // The spec's wording: a 403 for the missing registration; the code decides, not the status.
    [{ ...restError('arm-409-MissingSubscriptionRegistration.json'), statusCode: 403 }, 'provider_not_registered'],
    [restError('costmanagement-429-clienttype-throttled.json'), 'rate_limited'],
    [restError('costmanagement-404-unsupported-offer.json'), 'provider_refused'],
    [restError('forecast-400-CantForecastOnThePast.json'), 'provider_refused'],
    [{ name: 'RestError', message: 'down', code: 'ServiceUnavailable', statusCode: 503 }, 'provider_unavailable'],
    [{ name: 'RestError', message: 'connect ECONNREFUSED', code: 'REQUEST_SEND_ERROR' }, 'provider_unavailable'],
    [{ name: 'AbortError', message: 'The operation was aborted.' }, 'provider_unavailable'],
  ])('%#: %j → %s', (error, failure) => {
    expect(classifyProviderError(error).failure).toBe(failure);
  });

  it('takes the longest of Retry-After and the Cost Management retry-after headers, 60 s when none', () => {
    expect(retryAfterSeconds(replayOf('costmanagement-429-clienttype-throttled.json').headers, 0)).toBe(45);
    expect(retryAfterSeconds(replayOf('costmanagement-429-qpu-throttled.json').headers, 0)).toBe(12);
    expect(retryAfterSeconds({ 'Retry-After': '20', 'x-ms-ratelimit-microsoft.costmanagement-entity-retry-after': '30' }, 0)).toBe(30);
    expect(retryAfterSeconds({ 'retry-after': 'Sun, 22 Nov 2026 10:00:30 GMT' }, Date.parse('2026-11-22T10:00:00Z'))).toBe(30);
    expect(retryAfterSeconds({}, 0)).toBe(60);
  });
});

describe('single-flight cache', () => {
  it('shares one load among concurrent misses, then answers from memory until the TTL', async () => {
    let now = 0;
    const cache = new SingleFlightCache<number>(1000, () => now);
    let loads = 0;
    const load = async () => {
      loads += 1;
      await Promise.resolve();
      return loads;
    };
    const hits = await Promise.all(Array.from({ length: 100 }, () => cache.get('k', load)));
    expect(loads).toBe(1);
    expect(hits.every((hit) => hit.value === 1 && !hit.cached)).toBe(true);
    now = 999;
    expect(await cache.get('k', load)).toMatchObject({ value: 1, cached: true });
    now = 1000;
    expect(await cache.get('k', load)).toMatchObject({ value: 2, cached: false });
  });

  it('serves the last value on an allowed failure and holds a failure for its wait', async () => {
    let now = 0;
    const cache = new SingleFlightCache<string>(1000, () => now);
    await cache.get('k', () => Promise.resolve('old'));
    now = 5000;
    const busy = new Error('busy');
    const options = { staleOn: (error: unknown) => error === busy, holdFor: () => 10 };
    expect(await cache.get('k', () => Promise.reject(busy), options)).toMatchObject({ value: 'old', stale: true, cached: true });
    let called = false;
    expect(
      await cache.get(
        'k',
        () => {
          called = true;
          return Promise.resolve('new');
        },
        options,
      ),
    ).toMatchObject({ value: 'old', stale: true });
    expect(called).toBe(false);
    now = 15_000;
    expect(await cache.get('k', () => Promise.resolve('new'), options)).toMatchObject({ value: 'new', stale: false });
    await expect(cache.get('other', () => Promise.reject(new Error('refused')), options)).rejects.toThrow('refused');
  });
});
