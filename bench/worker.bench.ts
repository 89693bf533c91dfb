import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { EventHubProducerClient } from '@azure/event-hubs';
import type { Comparison, Measured } from './harness';
import type { BenchContext } from './context';
import { runSubject as runCore } from './ingest.bench';
import { asCoreMessages, hitEvents } from './hitEvents';
import { sendChangeEvents } from '../development/ingest/sendChangeEvents';
import { startPrivateAzurite } from '../development/local/azurite';
import { startLocalEventHubs } from '../development/local/eventHubs/localEventHubs';
import { freePort } from '../development/local/net';
import { DEFAULT_CATCH_UP_RULES } from '../shared/ingest/catchUp';
import { TableCheckpointStore } from '../shared/ingest/checkpointStore';
import { EMPTY_OUTCOME } from '../shared/ingest/apply';
import { runEventBatch } from '../shared/ingest/eventRunner';
import { startIngestWorker } from '../shared/ingest/worker';
import { createLogger } from '../shared/log/logger';
import { createTableClient } from '../shared/storage/tables';

const EVENTS = 10_000;
const CLUBS = 20;
const ITERATIONS = 3;
const WARMUP = 1;
const HUB = 'club-data';
/** INGEST_WORKER_MAX_BATCH_SIZE's default. */
const WORKER_BATCH = 500;
/** Throughput at least half the core's: the worker's time at most twice the core's. */
const TARGET_TIME_RATIO = 2;

/**
 * The staging worker's throughput against the apply core alone (bench/ingest.bench.ts), in the
 * same run. Subject: 10,000 hit events (20 clubs, so all four partitions get work) already in a
 * fresh local hub when a fresh worker starts; timed from its first batch until it applied and
 * checkpointed all of them through the real EventHubConsumerClient and the table checkpoint
 * store (draining a backlog, as after a restart; the start-up before the first batch is printed
 * apart). A second case runs the same worker applying nothing: the local transport's share. Baseline: applyIngestBatch on the same events, decoded as a runner
 * hands them over, in batches of 500. Publishing is not timed: it is the producer's cost, not the
 * worker's. Both sides write clubs of their own, so both insert 10,000 new rows every run.
 */
export default async function workerBench({ sql }: BenchContext): Promise<Comparison[]> {
  const storageDir = mkdtempSync(path.join(os.tmpdir(), 'worker-bench-azurite-'));
  const storage = await startPrivateAzurite({ blob: await freePort(), queue: await freePort(), table: await freePort() }, storageDir);
  let nextClub = 9000;
  const freshClubs = () => (nextClub += CLUBS);
  let round = 0;

  const startUps: number[] = [];
  const baselineTimes: number[] = [];
  const subjectTimes: number[] = [];
  const transportTimes: number[] = [];
  const runBaseline = async () => {
    const messages = asCoreMessages(hitEvents(EVENTS, freshClubs(), CLUBS));
    const started = performance.now();
    await runCore(sql, messages, 900 + round);
    return performance.now() - started;
  };
  const runWorker = async (applyNothing: boolean) => {
    round += 1;
    const hub = await startLocalEventHubs({ port: 0, eventHubs: { [HUB]: { partitionCount: 4 } }, retention: { maxEvents: 1_000_000 } });
    const producer = new EventHubProducerClient(hub.connectionString(), HUB);
    await sendChangeEvents(producer, hitEvents(EVENTS, freshClubs(), CLUBS));
    await producer.close();
    const store = new TableCheckpointStore(
      createTableClient({ kind: 'connectionString', connectionString: storage.connectionString }, `benchckpt${round}`),
    );
    await store.ensureTable();
    const started = performance.now();
    let firstBatchAt: number | undefined;
    const worker = await startIngestWorker({
      sql,
      connection: { kind: 'connectionString', connectionString: hub.connectionString() },
      eventHubName: HUB,
      consumerGroup: '$Default',
      checkpointStore: store,
      apply: {
        runner: { id: `worker:bench-${round}`, kind: 'worker' },
        statusEnabled: true,
        thresholds: { rejectingThreshold: 2, quarantineThreshold: 5, windowSeconds: 300, driftQuietSeconds: 900 },
        rejectLogMax: 1000,
      },
      log: createLogger({ minLevel: 'error' }),
      maxBatchSize: WORKER_BATCH,
      maxWaitTimeInSeconds: 1,
      lagSampleIntervalMs: 3_600_000,
      catchUpRules: DEFAULT_CATCH_UP_RULES,
      loadBalancing: { updateIntervalInMs: 200, partitionOwnershipExpirationIntervalInMs: 5000 },
      applyBatch: (...args) => {
        firstBatchAt ??= performance.now();
        return applyNothing ? Promise.resolve(EMPTY_OUTCOME) : runEventBatch(...args);
      },
    });
    // Applied and checkpointed: polled, the worker has no completion of its own.
    while (worker.applied < EVENTS) await new Promise((resolve) => setTimeout(resolve, 5));
    const finished = performance.now();
    if (!applyNothing) startUps.push((firstBatchAt ?? finished) - started);
    await worker.stop();
    await hub.close();
    return finished - (firstBatchAt ?? started);
  };

  try {
    for (let i = 0; i < WARMUP; i += 1) {
      await runBaseline();
      await runWorker(false);
    }
    for (let i = 0; i < ITERATIONS; i += 1) {
      // Alternate the order so neither side always runs on a warmer cache.
      if (i % 2 === 0) {
        baselineTimes.push(await runBaseline());
        subjectTimes.push(await runWorker(false));
        transportTimes.push(await runWorker(true));
      } else {
        transportTimes.push(await runWorker(true));
        subjectTimes.push(await runWorker(false));
        baselineTimes.push(await runBaseline());
      }
    }
  } finally {
    await storage.release();
    rmSync(storageDir, { recursive: true, force: true });
  }
  const baseline = measured('applyIngestBatch, batches of 500 (bench/ingest.bench.ts)', baselineTimes);
  const subject = measured(
    `worker draining a backlog: local hub → EventHubConsumerClient (batches of up to ${WORKER_BATCH}) → core → table checkpoints`,
    subjectTimes,
  );
  const transport = measured('the same worker applying nothing (hub, SDK, checkpoints only)', transportTimes);
  const perSecond = (ms: number) => Math.round((EVENTS / ms) * 1000).toLocaleString('en');
  const ratio = subject.medianMs / baseline.medianMs;
  console.log(
    `  events/s  worker ${perSecond(subject.medianMs)}, core alone ${perSecond(baseline.medianMs)}, worker applying nothing ${perSecond(transport.medianMs)} (medians)` +
      `\n  worker / core = ${(1 / ratio).toFixed(2)} (target ≥ ${1 / TARGET_TIME_RATIO}); start-up until the first batch ${measured('', startUps).medianMs.toFixed(0)} ms (median, not in the figure)`,
  );
  const title = `${EVENTS.toLocaleString('en')} hit events into PostgreSQL: the staging worker through the local hub`;
  return [
    { title: `${title} vs the apply core alone`, baseline, subject, ratio, target: TARGET_TIME_RATIO },
    {
      title: `${title}: applying nothing vs the apply core alone (the local transport's share)`,
      baseline,
      subject: transport,
      ratio: transport.medianMs / baseline.medianMs,
    },
  ];
}

function measured(name: string, times: number[]): Measured {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { name, medianMs: at(0.5), p90Ms: at(0.9), samples: sorted.length };
}
