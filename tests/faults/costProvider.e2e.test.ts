import { costsFunction } from '../../functions/costs';
import type { FakeCostProvider } from '../../development/costsFake/server';
import { azureCostProvider } from '../../shared/costs/azureProvider';
import { createCostService, type CostService } from '../../shared/costs/service';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { clockAt, configFor, startFake } from '../costs/support';

/** A provider request may take this long here (30 s in production). */
const REQUEST_TIMEOUT_MS = 400;

/**
 * The fake cost provider answering far slower than the request timeout, or failing. The dashboard
 * answers in bounded time: with the cached figures marked stale when it has them, 502
 * provider_unavailable when it has none.
 */
describe('a slow or failing cost provider', () => {
  let fake: FakeCostProvider;
  let headers: Record<string, string>;
  let current: CostService;
  let clock: ReturnType<typeof clockAt>;

  beforeAll(async () => {
    fake = await startFake();
    headers = await bearer('admin-1', { roles: ['platform_admin'] });
  });
  const host = useTestHost([costsFunction(() => current)]);
  beforeEach(() => {
    clock = clockAt('2026-11-21T10:00:00Z');
    const config = configFor(fake);
    current = createCostService({
      provider: () => azureCostProvider(config, { requestTimeoutMs: REQUEST_TIMEOUT_MS }),
      now: clock.now,
      secrets: [config.clientSecret],
    });
  });
  afterEach(() => {
    fake.delayAnswers(0);
    fake.clearFailures();
  });
  afterAll(async () => {
    await fake.close();
  });

  const summary = () => host.request('GET', '/api/admin/v1/costs/summary', { headers });

  it('a provider slower than the timeout: the last figures are served, marked stale', async () => {
    const fresh = await summary();
    expect(fresh.status).toBe(200);
    expect(await fresh.json()).toMatchObject({ monthToDate: 251.2, cached: false, stale: false });

    clock.advance(31 * 60_000);
    fake.delayAnswers(REQUEST_TIMEOUT_MS * 10);
    const late = await summary();
    expect(late.status).toBe(200);
    expect(await late.json()).toMatchObject({ monthToDate: 251.2, asOf: '2026-11-21T10:00:00.000Z', cached: true, stale: true });
    expect(late.headers.get('x-cost-stale')).toBe('true');
  });

  it('a failing provider (5xx after the retries): the cached figures, marked stale', async () => {
    expect((await summary()).status).toBe(200);
    clock.advance(31 * 60_000);
    fake.fail('query', 'server_error');
    const stale = await summary();
    expect(stale.status).toBe(200);
    expect(await stale.json()).toMatchObject({ monthToDate: 251.2, cached: true, stale: true });
  });

  it('a slow provider with nothing cached: 502 provider_unavailable, and the next load works once it is quick again', async () => {
    fake.delayAnswers(REQUEST_TIMEOUT_MS * 10);
    const slow = await summary();
    expect(slow.status).toBe(502);
    expect(await slow.json()).toMatchObject({ code: 'provider_unavailable' });
    fake.delayAnswers(0);
    const again = await summary();
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ monthToDate: 251.2, stale: false });
  });
});
