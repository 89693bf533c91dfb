import { ClientSecretCredential } from '@azure/identity';
import { costsFunction } from '../../functions/costs';
import type { FakeCostProvider } from '../../development/costsFake/server';
import { cachingCredential } from '../../shared/costs/tokenCache';
import { startTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { captureLog, clockAt, SECRET, serviceFor, startFake, useFake } from './support';

describe('token cache (60-second buffer) against the fake token endpoint', () => {
  let fake: FakeCostProvider;
  beforeAll(async () => {
    // Two minutes: shorter than MSAL's own 5-minute renewal margin, so MSAL itself caches nothing
    // and every fetch the cache lets through reaches the token endpoint.
    fake = await startFake({ tokenLifetimeSeconds: 120 });
  });
  afterAll(() => fake.close());

  it('reuses a token until 60 s before it expires, then fetches a new one; concurrent callers share a fetch', async () => {
    let offset = 0;
    const credential = cachingCredential(
      new ClientSecretCredential('tenant-1', 'client-1', SECRET, { authorityHost: fake.authUrl, disableInstanceDiscovery: true }),
      () => Date.now() + offset,
    );
    const scope = `${fake.apiUrl}/.default`;
    const tokenNow = async () => (await credential.getToken(scope))!;

    const tokens = await Promise.all(Array.from({ length: 20 }, tokenNow));
    expect(new Set(tokens.map((token) => token.token)).size).toBe(1);
    expect(fake.count('token')).toBe(1);
    const first = tokens[0]!;
    const untilExpiry = first.expiresOnTimestamp - Date.now();

    offset = untilExpiry - 61_000; // 61 s left: still good
    expect((await tokenNow()).token).toBe(first.token);
    expect(fake.count('token')).toBe(1);

    offset = untilExpiry - 59_000; // 59 s left: inside the buffer
    const second = await tokenNow();
    expect(second.token).not.toBe(first.token);
    expect(fake.count('token')).toBe(2);
  });
});

describe('single flight', () => {
  const fake = useFake();

  it('1,000 concurrent summary requests make one call per distinct query', async () => {
    const service = serviceFor(fake(), clockAt('2026-11-21T10:00:00Z').now);
    const { log } = captureLog();
    const before = { token: fake().count('token'), query: fake().count('query'), forecast: fake().count('forecast') };
    const answers = await Promise.all(Array.from({ length: 1000 }, () => service.summary(log)));
    expect(new Set(answers.map((answer) => answer.monthToDate))).toEqual(new Set([251.2]));
    expect(fake().count('token') - before.token).toBe(1);
    expect(fake().count('query') - before.query).toBe(2); // month to date; last month with the 30-day tail
    expect(fake().count('forecast') - before.forecast).toBe(1);
  });

  it('a full dashboard load over HTTP, 20 concurrent of each endpoint, costs three provider queries', async () => {
    const service = serviceFor(fake(), clockAt('2026-11-22T08:00:00Z').now);
    const host = await startTestHost([costsFunction(() => service)]);
    try {
      const headers = await bearer('admin-1', { roles: ['ops_admin'] });
      const before = fake().requests.filter((request) => request.operation === 'query' || request.operation === 'forecast').length;
      const paths = ['status', 'summary', 'breakdown', 'timeseries?days=30', 'export.csv?days=30'];
      const responses = await Promise.all(
        paths.flatMap((path) => Array.from({ length: 20 }, () => host.request('GET', `/api/admin/v1/costs/${path}`, { headers }))),
      );
      expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
      await Promise.all(responses.map((response) => response.arrayBuffer()));
      const after = fake().requests.filter((request) => request.operation === 'query' || request.operation === 'forecast').length;
      expect(after - before).toBe(3);
    } finally {
      await host.close();
    }
  }, 60000);
});
