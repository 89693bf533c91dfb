import postgres from 'postgres';
import { closeSql } from '../../shared/db/client';
import { getSettings, overrideSettings } from '../../shared/config/settings';
import { readJson, type ProblemJson } from '../support/http';
import { startFaultProxy, throughProxy, type FaultProxy } from '../support/faultProxy';
import { useTestHost } from '../support/testHost';
import { healthAfterCut, healthOf } from './health';
import { bearer } from '../support/tokens';
import { activeVereinsIds, clubList } from '../clubMaster/fixtures';
import { createBox } from '../support/fixtures';

/**
 * The service's pools reach PostgreSQL through a proxy this file controls: cutting every
 * connection and refusing new ones is what the service sees when the server restarts, without
 * touching the server everybody else uses. `direct` checks the data behind the proxy's back.
 */
describe('PostgreSQL restarted (connections cut) mid-request', () => {
  let proxy: FaultProxy;
  let direct: postgres.Sql;
  let restoreSettings = () => {};

  beforeAll(async () => {
    const url = new URL(getSettings().DATABASE_URL ?? '');
    direct = postgres(url.toString(), { max: 1, onnotice: () => undefined });
    proxy = await startFaultProxy({ host: url.hostname, port: Number(url.port || 5432) });
    restoreSettings = overrideSettings({ DATABASE_URL: throughProxy(url.toString(), proxy) });
    await closeSql();
  });
  const host = useTestHost();
  afterAll(async () => {
    await closeSql();
    restoreSettings();
    await proxy.close();
    await direct.end();
  });
  afterEach(() => {
    proxy.accept();
    proxy.delay(0);
  });

  const health = () => healthOf(host);

  it('turns /healthz 503 naming the database while the server is gone, and 200 again once it is back', async () => {
    const down = await healthAfterCut(host, proxy);
    expect(down.status).toBe(503);
    expect(down.body.failing).toContain('database');
    proxy.accept();
    const up = await health();
    expect(up.status).toBe(200);
    expect(up.body.failing).toEqual([]);
  });

  it('answers a request whose connection is cut 503 with Retry-After, and the next one normally', async () => {
    const headers = await bearer('cut-user-1');
    expect((await host.request('GET', '/api/notifications', { headers })).status).toBe(200);
    // Slow traffic keeps the query in flight; the cut comes while it waits for its answer.
    proxy.delay(200);
    const pending = host.request('GET', '/api/notifications', { headers });
    await new Promise((resolve) => setTimeout(resolve, 100));
    proxy.cutAll();
    const answer = await pending;
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect((await readJson<ProblemJson>(answer)).status).toBe(503);
    proxy.delay(0);
    expect((await host.request('GET', '/api/notifications', { headers })).status).toBe(200);
  });

  it('leaves no half-written box report when the connection is cut mid-transaction; the report sent again is written whole', async () => {
    const box = await createBox(direct);
    const headers = { authorization: `Bearer ${box.token}` };
    const clubs = clubList('cut', 2_000);
    proxy.delay(30);
    const pending = host.request('POST', '/api/edge/clubs/sync', { headers, json: { clubs } });
    // Wait until the report's transaction is open on the server, then cut.
    for (let i = 0; i < 200; i++) {
      const [open] = await direct<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity
        where application_name = 'shooting-club-backend' and state in ('active', 'idle in transaction') and xact_start is not null
          and pid <> pg_backend_pid()`;
      if ((open?.n ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    proxy.cutAll();
    const answer = await pending;
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).not.toBeNull();
    proxy.delay(0);
    // Rolled back by the server: none of the report's rows.
    expect(await activeVereinsIds(direct, box.clubId)).toEqual([]);

    const again = await host.request('POST', '/api/edge/clubs/sync', { headers, json: { clubs } });
    expect(again.status).toBe(200);
    expect(await activeVereinsIds(direct, box.clubId)).toHaveLength(2_000);
  });
});
