import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPrivateAzurite } from '../../development/local/azurite';
import { freePort } from '../../development/local/net';
import { overrideSettings } from '../../shared/config/settings';
import { resetTableService } from '../../shared/storage/tables';
import { readJson } from '../support/http';
import { startFaultProxy, type FaultProxy } from '../support/faultProxy';
import { useTestHost } from '../support/testHost';
import { healthAfterCut, healthOf } from './health';
import { bearer } from '../support/tokens';

// Starting and stopping a real Azurite takes a few seconds on a busy machine.
jest.setTimeout(60_000);

/**
 * Table storage unreachable or stopped. The service's only use of it is the storage entry of
 * /healthz (ingest status lives in PostgreSQL): that entry turns down, nothing else does.
 */
describe('Azurite down: storage failures stay in the health report', () => {
  let storage: Awaited<ReturnType<typeof startPrivateAzurite>>;
  let proxy: FaultProxy;
  let stopped = false;
  let restoreSettings = () => {};

  beforeAll(async () => {
    const ports = { blob: await freePort(), queue: await freePort(), table: await freePort() };
    storage = await startPrivateAzurite(ports, mkdtempSync(path.join(os.tmpdir(), 'faults-azurite-')));
    proxy = await startFaultProxy({ host: '127.0.0.1', port: ports.table });
    restoreSettings = overrideSettings({
      AzureWebJobsStorage: storage.connectionString.replace(`127.0.0.1:${ports.table}`, `127.0.0.1:${proxy.port}`),
    });
    resetTableService();
  });
  const host = useTestHost();
  afterAll(async () => {
    restoreSettings();
    resetTableService();
    await proxy.close();
    if (!stopped) await storage.release();
  });

  const health = () => healthOf(host);

  /** What a user does while storage is away: read the inbox, write and read settings. */
  async function userTrafficWorks(user: string): Promise<void> {
    const headers = await bearer(user);
    expect((await host.request('GET', '/api/notifications', { headers })).status).toBe(200);
    const written = await host.request('PATCH', '/api/user/settings', { headers, json: { timeZone: 'Europe/Berlin' } });
    expect(written.status).toBe(200);
    const read = await readJson(await host.request('GET', '/api/user/settings', { headers }));
    expect(read['timeZone']).toBe('Europe/Berlin');
  }

  it('unreachable storage: /healthz 503 names storage only, user routes answer as usual, and health recovers', async () => {
    const down = await healthAfterCut(host, proxy);
    expect(down.status).toBe(503);
    expect(down.body.failing).toEqual(['storage']);
    await userTrafficWorks('storage-user-1');
    proxy.accept();
    const up = await health();
    expect(up.status).toBe(200);
  });

  it('the storage process stopped: the same, the database still answers', async () => {
    await storage.release();
    stopped = true;
    const down = await health();
    expect(down.status).toBe(503);
    expect(down.body.failing).toEqual(['storage']);
    expect((down.body['components'] as Record<string, { status: string }>)['database']?.status).toBe('up');
    await userTrafficWorks('storage-user-2');
  });
});
