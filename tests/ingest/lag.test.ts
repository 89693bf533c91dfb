import type { LocalEventHubs } from '../../development/local/eventHubs/localEventHubs';
import { getSql } from '../../shared/db/client';
import { runEventBatch } from '../../shared/ingest/eventRunner';
import { summariseIngestHealth } from '../../shared/ingest/health';
import { listRunnerStatus } from '../../shared/ingest/statusRepository';
import type { IngestWorker, IngestWorkerOptions } from '../../shared/ingest/worker';
import type { TableCheckpointStore } from '../../shared/ingest/checkpointStore';
import { useIngestTablesExclusively } from './exclusive';
import { checkpointStore, eventually, GROUP, hitEvents, HUB, publish, startHub, startTestWorker, uniqueClub } from './workerSupport';

/**
 * Lag and catchUpState from real sequence numbers: events published to the local hub, a worker
 * that applies only as many batches as the test allows, lag sampled in between.
 */
describe('worker lag and catchUpState', () => {
  // Other files empty the status table between their tests: this one takes its turn too.
  useIngestTablesExclusively();
  let hub: LocalEventHubs;
  let store: TableCheckpointStore;
  let worker: IngestWorker;
  let allowed = 0;
  const waiting: (() => void)[] = [];
  const allow = (batches: number) => {
    allowed += batches;
    waiting.splice(0).forEach((wake) => wake());
  };
  const applyBatch: IngestWorkerOptions['applyBatch'] = async (sql, messages, options, log) => {
    while (allowed <= 0) await new Promise<void>((resolve) => waiting.push(resolve));
    allowed -= 1;
    return runEventBatch(sql, messages, options, log);
  };

  beforeAll(async () => {
    hub = await startHub(2);
    store = checkpointStore();
  });

  afterAll(async () => {
    allow(1000);
    await worker?.stop();
    await hub.close();
  });

  const highestCheckpoint = async () =>
    Math.max(-1, ...(await store.listCheckpoints(hub.host, HUB, GROUP)).map((checkpoint) => checkpoint.sequenceNumber));

  const myHealth = async () => {
    const rows = (await listRunnerStatus(getSql())).filter((row) => row.runnerId === worker.runner.id);
    return summariseIngestHealth(rows, new Map(), [], true, new Date());
  };

  it('reports the backlog per topic, stalled while the checkpoint stands still, catching_up as it falls, live at zero', async () => {
    await publish(hub, hitEvents(uniqueClub(), 50));
    // A window of three samples: three without checkpoint progress make a stall.
    worker = await startTestWorker(getSql(), hub, store, {
      applyBatch,
      maxBatchSize: 10,
      catchUpRules: { allowedLag: 0, windowSize: 3, minSamples: 3 },
    });
    allow(2);
    await eventually(async () => (await highestCheckpoint()) === 19);

    const first = await worker.sampleLag();
    expect(first.summary).toMatchObject({ totalLag: 30, maxTopicLag: 30 });
    // One club's events share a partition: the topic's lag sits on that one.
    expect(first.summary?.lagTopics).toHaveLength(1);
    expect(first.summary?.lagTopics[0]).toMatchObject({ topic: HUB, lag: 30 });
    expect(Object.values(first.summary?.lagTopics[0]?.partitions ?? {})).toEqual([30]);
    // Since the start-up sample (no checkpoint yet) the checkpoint moved and the lag fell.
    expect(first.catchUpState).toBe('catching_up');

    await worker.sampleLag();
    const third = await worker.sampleLag();
    expect(third.catchUpState).toBe('stalled');
    expect(await myHealth()).toMatchObject({
      runnerKind: 'worker',
      catchUpState: 'stalled',
      totalLag: 30,
      maxTopicLag: 30,
      lagErrorMessage: null,
    });

    allow(1);
    await eventually(async () => (await highestCheckpoint()) === 29);
    const moving = await worker.sampleLag();
    expect(moving).toMatchObject({ catchUpState: 'catching_up', summary: { totalLag: 20 } });

    allow(1000);
    await eventually(async () => (await highestCheckpoint()) === 49);
    const caughtUp = await worker.sampleLag();
    expect(caughtUp).toMatchObject({ catchUpState: 'live', summary: { totalLag: 0, maxTopicLag: 0, lagTopics: [] } });
    const health = await myHealth();
    expect(health).toMatchObject({ catchUpState: 'live', totalLag: 0, lagTopics: [] });
    expect(health.lagSampledAt).toBe(caughtUp.sampledAt.toISOString());
  });

  it('writes a failed sample as lagErrorMessage and keeps running', async () => {
    // The last good sample (the backlog drained above): a failed one keeps its figures.
    expect((await worker.sampleLag()).summary).toMatchObject({ totalLag: 0 });
    const listCheckpoints = store.listCheckpoints.bind(store);
    store.listCheckpoints = () => Promise.reject(new Error('table service unreachable'));
    try {
      const failed = await worker.sampleLag();
      expect(failed.error).toContain('table service unreachable');
      expect(await myHealth()).toMatchObject({ lagErrorMessage: 'Error: table service unreachable', totalLag: 0 });
    } finally {
      store.listCheckpoints = listCheckpoints;
    }
    const next = await worker.sampleLag();
    expect(next.error).toBeNull();
    expect((await myHealth()).lagErrorMessage).toBeNull();
  });
});
