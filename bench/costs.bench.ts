import http from 'node:http';
import { costRoutes } from '../functions/costs';
import { demoDataset } from '../development/costsFake/demoData';
import { usageRecords, forecastRecords } from '../development/costsFake/dataset';
import { startDevHost } from '../development/devhost/host';
import type { CostProvider } from '../shared/costs/azureProvider';
import { createCostService } from '../shared/costs/service';
import { resetSettings } from '../shared/config/settings';
import { httpGroup } from '../shared/host/definition';
import { requireCapability } from '../shared/http/guards';
import { defineRoute, json } from '../shared/http/route';
import { createLogger } from '../shared/log/logger';
import { tokenFor } from '../tests/support/tokens';
import { compare } from './harness';
import type { BenchContext } from './context';

const CONCURRENT = 1000;
/** Sockets the client keeps open: 1,000 simultaneous TCP connects overflow the listen backlog (511). */
const SOCKETS = 100;

/** GETs `url` `count` times at once over a keep-alive pool; resolves with the status codes. */
function getConcurrently(url: string, count: number, headers: Record<string, string>, agent: http.Agent): Promise<number[]> {
  const one = () =>
    new Promise<number>((resolve, reject) => {
      http
        .get(url, { headers, agent }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        })
        .on('error', reject);
    });
  return Promise.all(Array.from({ length: count }, one));
}

/**
 * The demo data answered in memory. On a warm cache the provider is never asked, so what it is
 * does not enter the figure; the SDK path is covered by the tests against the TLS fake.
 */
function inMemoryProvider(): CostProvider {
  const dataset = demoDataset();
  const day = (date: number) => `${String(date).slice(0, 4)}-${String(date).slice(4, 6)}-${String(date).slice(6, 8)}`;
  return {
    usage: (range) =>
      Promise.resolve(
        usageRecords(dataset)
          .map((row) => ({ ...row, date: day(row.date) }))
          .filter((row) => row.date >= range.from && row.date <= range.to),
      ),
    forecast: (range) =>
      Promise.resolve(
        forecastRecords(dataset)
          .map((row) => ({ ...row, date: day(row.date), status: 'Forecast' }))
          .filter((row) => row.date >= range.from && row.date <= range.to),
      ),
  };
}

/**
 * 1,000 concurrent `GET /api/admin/v1/costs/summary` on a warm cache against 1,000 concurrent
 * requests to a trivial endpoint behind the same guard (token check and capability), both through
 * the local host over HTTP. Reported as time per batch; requests per second relative to the
 * baseline is 1 / ratio (target ≥ 0.8, i.e. a time ratio ≤ 1.25).
 */
export default async function costs(_context: BenchContext) {
  // One info line per request would make the figure a measure of the terminal.
  const logLevel = process.env['LOG_LEVEL'];
  process.env['LOG_LEVEL'] = 'warn';
  resetSettings();
  const service = createCostService({ provider: inMemoryProvider });
  const trivial = defineRoute({
    method: 'GET',
    path: '/api/bench/whoami',
    summary: 'trivial authenticated endpoint',
    guard: requireCapability('costs.read'),
    handle: ({ caller }) => Promise.resolve(json({ userId: caller.userId })),
  });
  const host = await startDevHost(
    [
      httpGroup(
        'costs',
        'api/admin/v1/costs',
        costRoutes(() => service),
      ),
      httpGroup('bench', 'api/bench', [trivial]),
    ],
    {
      port: 0,
      log: createLogger({ minLevel: 'error' }),
      setting: () => undefined,
      runTimers: false,
    },
  );
  const agent = new http.Agent({ keepAlive: true, maxSockets: SOCKETS });
  try {
    const headers = { authorization: `Bearer ${await tokenFor('bench-admin', { roles: ['billing_admin'] })}` };
    const batch = (path: string) => async () => {
      const statuses = await getConcurrently(host.url + path, CONCURRENT, headers, agent);
      if (statuses.some((status) => status !== 200)) throw new Error(`${path}: not every answer was 200`);
    };
    // Warm the cache: the measured requests are all cache hits.
    await batch('/api/admin/v1/costs/summary')();
    return await compare({
      title: `${CONCURRENT.toLocaleString('en')} concurrent cost summary requests on a warm cache vs a trivial authenticated endpoint`,
      baseline: { name: `${CONCURRENT} × GET /api/bench/whoami (same guard)`, run: batch('/api/bench/whoami') },
      subject: { name: `${CONCURRENT} × GET /api/admin/v1/costs/summary`, run: batch('/api/admin/v1/costs/summary') },
      iterations: 8,
      warmup: 1,
      target: 1.25,
    });
  } finally {
    agent.destroy();
    await host.close();
    if (logLevel === undefined) delete process.env['LOG_LEVEL'];
    else process.env['LOG_LEVEL'] = logLevel;
    resetSettings();
  }
}
