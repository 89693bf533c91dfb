import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { LocalEventHubs } from '../../scripts/local/eventHubs/localEventHubs';
import { getSql } from '../../shared/db/client';
import { eventually, GROUP, hitEvents, hitValues, HUB, publish, startHub, uniqueClub, uniqueTag } from './support';

const root = path.resolve(__dirname, '..', '..');

/**
 * The worker as the staging container runs it: dist/ingest-worker.js from `npm run build`, started
 * with plain `node` away from node_modules, stopped with SIGTERM.
 */
describe('the ingest worker bundle', () => {
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'ingest-worker-bundle-'));
  const children: ChildProcess[] = [];
  let hub: LocalEventHubs;

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, ['scripts/build.mjs', '--outdir', outdir], { cwd: root });
    hub = await startHub();
  }, 60_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await hub.close();
    rmSync(outdir, { recursive: true, force: true });
  });

  function startBundle(env: Record<string, string>) {
    const child = spawn(process.execPath, [path.join(outdir, 'ingest-worker.js')], {
      cwd: outdir,
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, output: () => output, exited };
  }

  it('applies events with node alone, and on SIGTERM checkpoints, marks its row stopped and exits 0', async () => {
    const club = uniqueClub();
    await publish(hub, hitEvents(club, 30));
    const worker = startBundle({
      DATABASE_URL: process.env['DATABASE_URL'] ?? '',
      AzureWebJobsStorage: process.env['AzureWebJobsStorage'] ?? '',
      INGEST_EVENTHUB_CONNECTION: hub.connectionString(),
      INGEST_EVENTHUB_NAME: HUB,
      INGEST_EVENTHUB_CONSUMER_GROUP: GROUP,
      INGEST_CHECKPOINT_TABLE: `ckpt${uniqueTag()}`,
      INGEST_WORKER_LAG_SAMPLE_SECONDS: '1',
      LOG_LEVEL: 'warn',
    });
    await eventually(async () => (await hitValues(getSql(), club)).size === 30);
    const runnerId = `worker:${os.hostname()}`;
    // The first lag sample after everything was applied: nothing left, live.
    await eventually(async () => {
      const [row]: [{ totalLag: number | null }?] = await getSql()`
        select total_lag as "totalLag" from ingest_runner_status where runner_id = ${runnerId}`;
      return row?.totalLag === 0;
    });

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(worker.output()).toContain('Ingest worker: worker:');
    expect(worker.output()).toContain('SIGTERM: stopping');
    const [row]: [{ workerState: string; runnerKind: string; catchUpState: string }?] = await getSql()`
      select worker_state as "workerState", runner_kind as "runnerKind", catch_up_state as "catchUpState"
      from ingest_runner_status where runner_id = ${runnerId}`;
    expect(row).toEqual({ workerState: 'stopped', runnerKind: 'worker', catchUpState: 'live' });
  }, 60_000);

  it('refuses to start without the Event Hubs connection, naming the setting', async () => {
    const worker = startBundle({
      DATABASE_URL: process.env['DATABASE_URL'] ?? '',
      AzureWebJobsStorage: process.env['AzureWebJobsStorage'] ?? '',
    });
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toContain('Start-up failed: INGEST_EVENTHUB_CONNECTION is required');
  }, 30_000);
});
