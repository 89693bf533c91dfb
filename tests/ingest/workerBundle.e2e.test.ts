import os from 'node:os';
import { startFakeAppInsights } from '../../development/appInsightsFake/server';
import { readFakeTls } from '../../development/costsFake/certificate';
import { getSql } from '../../shared/db/client';
import { useAround } from '../support/around';
import { useBundles } from '../support/bundles';
import { eventually, GROUP, hitEvents, hitValues, HUB, publish, startHub, uniqueClub, uniqueTag } from './workerSupport';
import { useIngestTablesInTurn } from './exclusive';

/**
 * The worker as the staging container runs it: dist/ingest-worker.js from `npm run build`, started
 * with plain `node` away from node_modules, stopped with SIGTERM.
 */
describe('the ingest worker bundle', () => {
  useIngestTablesInTurn();
  const bundles = useBundles('ingest-worker-bundle');
  const hub = useAround('the hub', startHub, (started) => started.close());

  const startBundle = (env: Record<string, string>) => bundles.start('ingest-worker', env);
  /** The settings of a worker on the test hub, with a checkpoint table of its own. */
  const workerSettings = (more: Record<string, string>) => ({
    DATABASE_URL: process.env['DATABASE_URL'] ?? '',
    AzureWebJobsStorage: process.env['AzureWebJobsStorage'] ?? '',
    INGEST_EVENTHUB_CONNECTION: hub().connectionString(),
    INGEST_EVENTHUB_NAME: HUB,
    INGEST_EVENTHUB_CONSUMER_GROUP: GROUP,
    INGEST_CHECKPOINT_TABLE: `ckpt${uniqueTag()}`,
    LOG_LEVEL: 'warn',
    ...more,
  });

  it('applies events with node alone, and on SIGTERM checkpoints, marks its row stopped and exits 0', async () => {
    const club = uniqueClub();
    await publish(hub(), hitEvents(club, 30));
    const worker = startBundle(workerSettings({ INGEST_WORKER_LAG_SAMPLE_SECONDS: '1' }));
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

  it('with APPLICATIONINSIGHTS_CONNECTION_STRING, sends its batch spans and ingest metrics, flushed when it stops', async () => {
    const caFile = process.env['NODE_EXTRA_CA_CERTS'] ?? '';
    const ingestion = await startFakeAppInsights({ tls: readFakeTls(caFile) });
    try {
      const club = uniqueClub();
      await publish(hub(), hitEvents(club, 12));
      const worker = startBundle(
        workerSettings({
          APPLICATIONINSIGHTS_CONNECTION_STRING: ingestion.connectionString,
          NODE_EXTRA_CA_CERTS: caFile,
          // Every trace kept: the default keeps 5 per second, starting from none, and this run is short.
          OTEL_TRACES_SAMPLER: 'always_on',
        }),
      );
      await eventually(async () => (await hitValues(getSql(), club)).size === 12);
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
      expect(worker.output()).toContain('telemetry to Application Insights');
      const batches = ingestion.envelopes.filter((envelope) => envelope.data?.baseData?.['name'] === 'ingest batch');
      const applied = batches.reduce(
        (sum, envelope) => sum + Number((envelope.data?.baseData?.['properties'] as Record<string, string>)['app.ingest.applied'] ?? 0),
        0,
      );
      expect(applied).toBeGreaterThanOrEqual(12);
      expect(batches[0]?.tags?.['ai.cloud.role']).toBe('shooting-club-ingest-worker');
      const metrics = ingestion.envelopes.filter((envelope) => envelope.data?.baseType === 'MetricData');
      expect(JSON.stringify(metrics)).toContain('ingest.events.applied');
    } finally {
      await ingestion.close();
    }
  }, 60_000);

  it('refuses to start without the Event Hubs connection, naming the setting', async () => {
    const worker = startBundle({
      DATABASE_URL: process.env['DATABASE_URL'] ?? '',
      AzureWebJobsStorage: process.env['AzureWebJobsStorage'] ?? '',
    });
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toContain(
      'Start-up failed: Neither INGEST_EVENTHUB_CONNECTION nor INGEST_EVENTHUB_CONNECTION__fullyQualifiedNamespace is set',
    );
  }, 30_000);
});
