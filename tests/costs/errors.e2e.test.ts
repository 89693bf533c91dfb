import { costsFunction } from '../../functions/costs';
import type { FakeCostProvider, FakeFailure, FakeOperation } from '../../development/costsFake/server';
import { createCostService, type CostService } from '../../shared/costs/service';
import { startTestHost, type TestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { clockAt, SECRET, serviceFor, startFake } from './support';

/**
 * Each provider failure, served by the fake in Azure's wire format and read through the real
 * SDKs, reaches the caller as problem+json with a stable code, and the operator finds one log line
 * `cloud_costs_<endpoint>_failed` with the HTTP status and the provider's text.
 */

interface Problem {
  status: number;
  code?: string;
  detail?: string;
}

interface LogLine {
  level: string;
  event: string;
  failure?: string;
  status?: number | null;
  providerCode?: string | null;
  error?: string;
}

describe('cost provider failures', () => {
  let fake: FakeCostProvider;
  let host: TestHost;
  let headers: Record<string, string>;
  let current: CostService;
  let clock: ReturnType<typeof clockAt>;
  const output: string[] = [];

  beforeAll(async () => {
    fake = await startFake();
    host = await startTestHost([costsFunction(() => current)]);
    headers = await bearer('admin-1', { roles: ['platform_admin'] });
    // Everything the process writes while these tests run: the host's log lines go to stdout/stderr.
    for (const stream of [process.stdout, process.stderr]) {
      jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        output.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
        return true;
      });
    }
  });
  beforeEach(() => {
    fake.clearFailures();
    clock = clockAt('2026-11-21T10:00:00Z');
    current = serviceFor(fake, clock.now);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await host.close();
    await fake.close();
    // Last: across every failure above, neither the secret nor an access token reached a log.
    const everything = output.join('');
    expect(everything).toContain('cloud_costs_summary_failed');
    expect(everything).not.toContain(SECRET);
    for (const token of fake.issuedTokens()) expect(everything).not.toContain(token);
  });

  const logLines = (): LogLine[] =>
    output
      .flatMap((chunk) => chunk.split('\n'))
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine)
      .filter((line) => line.event.startsWith('cloud_costs_'));

  async function problemOf(path: string): Promise<{ problem: Problem; response: Response }> {
    const response = await host.request('GET', `/api/admin/v1/costs/${path}`, { headers });
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    return { response, problem: (await response.json()) as Problem };
  }

  async function failing(operation: FakeOperation, failure: FakeFailure, path = 'summary') {
    fake.fail(operation, failure);
    const logged = logLines().length;
    const result = await problemOf(path);
    return { ...result, lines: logLines().slice(logged) };
  }

  it('not configured: status says so, every data endpoint answers not_configured, nothing is loaded', async () => {
    current = createCostService({ provider: undefined, now: clock.now });
    const before = fake.requests.length;
    const status = await host.request('GET', '/api/admin/v1/costs/status', { headers });
    expect(status.status).toBe(200);
    expect(await status.json()).toEqual({ configured: false, asOf: '2026-11-21T10:00:00.000Z', cached: false });
    for (const path of ['summary', 'breakdown', 'timeseries', 'export.csv']) {
      const { response, problem } = await problemOf(path);
      expect(response.status).toBe(503);
      expect(problem.code).toBe('not_configured');
      expect(problem.detail).toMatch(/INTERNAL_CLOUD_COST_TENANT_ID.*INTERNAL_CLOUD_COST_SUBSCRIPTION_ID/);
    }
    expect(fake.requests.length).toBe(before);
  });

  it('expired client secret (AADSTS7000222 at the token endpoint) → 502 secret_expired', async () => {
    const { response, problem, lines } = await failing('token', 'expired_secret');
    expect(response.status).toBe(502);
    expect(problem).toMatchObject({ code: 'secret_expired' });
    expect(problem.detail).toMatch(/create a new client secret.*INTERNAL_CLOUD_COST_CLIENT_SECRET.*redeploy/);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'error',
        event: 'cloud_costs_summary_failed',
        failure: 'secret_expired',
        status: 401,
        providerCode: 'AADSTS7000222',
      }),
    ]);
    expect(lines[0]?.error).toMatch(/AADSTS7000222: The provided client secret keys for app .* are expired/);
  });

  it('a wrong secret (AADSTS7000215) → 502 provider_refused, and the wrong secret is not logged', async () => {
    const wrong = 'Wr0ng~secret.value-not-to-be-logged';
    current = serviceFor(fake, clock.now, { clientSecret: wrong });
    const logged = logLines().length;
    const { response, problem } = await problemOf('breakdown');
    expect(response.status).toBe(502);
    expect(problem).toMatchObject({ code: 'provider_refused', detail: 'The provider did not accept the request.' });
    const [line] = logLines().slice(logged);
    expect(line).toMatchObject({ event: 'cloud_costs_breakdown_failed', providerCode: 'AADSTS7000215' });
    expect(output.join('')).not.toContain(wrong);
  });

  it.each([
    ['rbac_denied', 401, 'RBACAccessDenied'],
    ['authorization_failed', 403, 'AuthorizationFailed'],
  ] as const)('missing role (%s) → 502 access_denied, logged with status %d', async (failure, status, code) => {
    const { response, problem, lines } = await failing('query', failure, 'timeseries?days=7');
    expect(response.status).toBe(502);
    expect(problem.code).toBe('access_denied');
    expect(problem.detail).toMatch(/Cost Management Reader/);
    expect(lines).toEqual([
      expect.objectContaining({ level: 'error', event: 'cloud_costs_timeseries_failed', status, providerCode: code }),
    ]);
  });

  it('resource provider not registered (MissingSubscriptionRegistration, 409) → 502 provider_not_registered', async () => {
    const { response, problem, lines } = await failing('query', 'not_registered', 'export.csv');
    expect(response.status).toBe(502);
    expect(problem.code).toBe('provider_not_registered');
    expect(problem.detail).toMatch(/register the resource provider/);
    expect(lines).toEqual([
      expect.objectContaining({ event: 'cloud_costs_export_failed', status: 409, providerCode: 'MissingSubscriptionRegistration' }),
    ]);
    expect(lines[0]?.error).toMatch(/not registered to use namespace 'Microsoft.CostManagement'/);
  });

  it('a refusal the dashboard has no special text for (404 unsupported offer) → 502 provider_refused', async () => {
    const { response, problem, lines } = await failing('query', 'unsupported_offer');
    expect(response.status).toBe(502);
    expect(problem).toMatchObject({ code: 'provider_refused', detail: 'The provider did not accept the request.' });
    expect(lines).toEqual([expect.objectContaining({ level: 'error', status: 404, providerCode: 'NotFound' })]);
    expect(lines[0]?.error).toMatch(/WebDirect\/AIRS offer type/);
  });

  it.each([
    ['rate_limited', '45'],
    ['rate_limited_qpu', '12'],
  ] as const)(
    '429 (%s) without cached data → 503 rate_limited with the provider wait; no new call during the wait',
    async (failure, wait) => {
      const { response, problem, lines } = await failing('query', failure);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe(wait);
      expect(problem.code).toBe('rate_limited');
      expect(problem.detail).toContain(`try again in ${wait} seconds`);
      expect(lines).toEqual([expect.objectContaining({ level: 'warn', event: 'cloud_costs_summary_failed', status: 429 })]);

      // The SDK does not retry a 429 without Retry-After; nor does the service before the wait is over.
      fake.clearFailures();
      const before = fake.count('query');
      expect((await problemOf('summary')).response.status).toBe(503);
      expect(fake.count('query')).toBe(before);
      clock.advance(Number(wait) * 1000);
      expect((await host.request('GET', '/api/admin/v1/costs/summary', { headers })).status).toBe(200);
      expect(fake.count('query')).toBeGreaterThan(before);
    },
  );

  it('429 after the 30 minutes with cached data → the last figures, marked stale', async () => {
    const fresh = await host.request('GET', '/api/admin/v1/costs/summary', { headers });
    expect(await fresh.json()).toMatchObject({ monthToDate: 251.2, cached: false, stale: false });
    clock.advance(31 * 60_000);
    fake.fail('query', 'rate_limited');
    const response = await host.request('GET', '/api/admin/v1/costs/summary', { headers });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ monthToDate: 251.2, asOf: '2026-11-21T10:00:00.000Z', cached: true, stale: true });
    expect(response.headers.get('x-cost-stale')).toBe('true');
  });

  it('5xx from Cost Management, after the SDK retried twice → 502 provider_unavailable', async () => {
    const before = fake.count('query');
    const { response, problem, lines } = await failing('query', 'server_error', 'breakdown');
    expect(response.status).toBe(502);
    expect(problem.code).toBe('provider_unavailable');
    expect(fake.count('query') - before).toBe(3);
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', event: 'cloud_costs_breakdown_failed', status: 503 })]);
  });

  it('token endpoint down → 502 provider_unavailable', async () => {
    const { response, problem } = await failing('token', 'server_error', 'breakdown');
    expect(response.status).toBe(502);
    expect(problem.code).toBe('provider_unavailable');
  });

  it.each(['no_history', 'cant_forecast_on_the_past'] as const)(
    'no forecast (%s) is not a failure: the run rate stands in',
    async (failure) => {
      fake.fail('forecast', failure);
      const response = await host.request('GET', '/api/admin/v1/costs/summary', { headers });
      expect(response.status).toBe(200);
      // 251.2022803564 over the 21 days up to the newest row (21st), times 30 days: 358.8604005091.
      expect(await response.json()).toMatchObject({ monthToDate: 251.2, forecast: { endOfMonth: 358.86, method: 'run_rate' } });
    },
  );
});
