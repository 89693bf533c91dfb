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
import { parseSomeSettings } from '../shared/config/settings';
import { DEFAULT_CATCH_UP_RULES } from '../shared/ingest/catchUp';
import { TableCheckpointStore } from '../shared/ingest/checkpointStore';
import { EMPTY_OUTCOME } from '../shared/ingest/apply';
import { runEventBatch } from '../shared/ingest/eventRunner';
import { startIngestWorker } from '../shared/ingest/worker';
import { createLogger } from '../shared/log/logger';
import { createTableClient } from '../shared/storage/tables';

const EVENTS = 10_000;
const CLUBS = 20;
/** Rounds of the three sides; more on a busy machine: BENCH_WORKER_ROUNDS. */
const ROUNDS = Number(process.env['BENCH_WORKER_ROUNDS'] ?? 7);
const WARMUP = 1;
const HUB = 'club-data';
/** Throughput at least half the core's: the worker's time at most twice the core's. */
const TARGET_TIME_RATIO = 2;

interface Sample {
  ms: number;
  /** CPU time of this process (user + system) over the same interval. */
  cpuMs: number;
}

/**
 * The staging worker's throughput against the apply core alone (bench/ingest.bench.ts), in the
 * same run. Subject: 10,000 hit events (20 clubs, so all four partitions get work) already in a
 * fresh local hub when a fresh worker starts; timed from its first batch until it applied and
 * checkpointed all of them through the real EventHubConsumerClient and the table checkpoint
 * store (draining a backlog, as after a restart; the start-up before the first batch is printed
 * apart), with the worker's default settings. A second case runs the same worker applying
 * nothing: the local transport's share. Baseline: applyIngestBatch on the same events, decoded
 * as a runner hands them over, in batches of 500. Publishing is not timed: it is the producer's
 * cost, not the worker's. Every side writes clubs of its own, so each inserts 10,000 new rows.
 *
 * A shared machine moves the core's own figure by 2× between minutes, so one figure per side is
 * not a comparison: each round runs the three sides back to back (the order turning every round)
 * and gives a ratio of its own; the figure is the median of those ratios. CPU time per event of
 * this process is printed beside the wall clock: it moves far less with the load. It holds the
 * worker and the local hub together (the hub serves from this process); PostgreSQL's and
 * Azurite's CPU are their own processes'.
 */
export default async function workerBench({ sql }: BenchContext): Promise<Comparison[]> {
  // The worker's default, or the environment's value to try another.
  const settings = parseSomeSettings(['INGEST_WORKER_MAX_BATCH_SIZE'], {
    INGEST_WORKER_MAX_BATCH_SIZE: process.env['INGEST_WORKER_MAX_BATCH_SIZE'],
  });
  const storageDir = mkdtempSync(path.join(os.tmpdir(), 'worker-bench-azurite-'));
  const storage = await startPrivateAzurite({ blob: await freePort(), queue: await freePort(), table: await freePort() }, storageDir);
  let nextClub = 9000;
  const freshClubs = () => (nextClub += CLUBS);
  let round = 0;
  const loadBefore = os.loadavg();

  const startUps: number[] = [];
  const runBaseline = async (): Promise<Sample> => {
    const messages = asCoreMessages(hitEvents(EVENTS, freshClubs(), CLUBS));
    const cpu = process.cpuUsage();
    const started = performance.now();
    await runCore(sql, messages, 900 + round);
    return { ms: performance.now() - started, cpuMs: cpuMsSince(cpu) };
  };
  const runWorker = async (applyNothing: boolean): Promise<Sample> => {
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
    let first: { at: number; cpu: NodeJS.CpuUsage } | undefined;
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
      maxBatchSize: settings.INGEST_WORKER_MAX_BATCH_SIZE,
      maxWaitTimeInSeconds: 1,
      lagSampleIntervalMs: 3_600_000,
      catchUpRules: DEFAULT_CATCH_UP_RULES,
      loadBalancing: { updateIntervalInMs: 200, partitionOwnershipExpirationIntervalInMs: 5000 },
      applyBatch: (...args) => {
        first ??= { at: performance.now(), cpu: process.cpuUsage() };
        return applyNothing ? Promise.resolve(EMPTY_OUTCOME) : runEventBatch(...args);
      },
    });
    // Applied and checkpointed: polled, the worker has no completion of its own.
    while (worker.applied < EVENTS) await new Promise((resolve) => setTimeout(resolve, 5));
    const finished = performance.now();
    const sample = { ms: finished - (first?.at ?? started), cpuMs: first ? cpuMsSince(first.cpu) : 0 };
    if (!applyNothing) startUps.push((first?.at ?? finished) - started);
    await worker.stop();
    await hub.close();
    return sample;
  };

  const rounds: { core: Sample; worker: Sample; transport: Sample }[] = [];
  try {
    for (let i = 0; i < WARMUP; i += 1) {
      await runBaseline();
      await runWorker(false);
      await runWorker(true);
    }
    for (let i = 0; i < ROUNDS; i += 1) {
      // The order turns every round, so no side always runs first, last or on a warmer cache.
      const sides: Record<'core' | 'worker' | 'transport', () => Promise<Sample>> = {
        core: runBaseline,
        worker: () => runWorker(false),
        transport: () => runWorker(true),
      };
      const order = (['core', 'worker', 'transport'] as const).map((_, k, all) => all[(k + i) % all.length]!);
      const result: Partial<Record<keyof typeof sides, Sample>> = {};
      for (const side of i % 2 ? [...order].reverse() : order) result[side] = await sides[side]();
      rounds.push(result as { core: Sample; worker: Sample; transport: Sample });
    }
  } finally {
    await storage.release();
    rmSync(storageDir, { recursive: true, force: true });
  }
  const loadAfter = os.loadavg();

  const perSecond = (ms: number) => Math.round((EVENTS / ms) * 1000);
  const usPerEvent = (cpuMs: number) => ((cpuMs * 1000) / EVENTS).toFixed(1);
  const workerShares = rounds.map((r) => r.core.ms / r.worker.ms);
  const transportShares = rounds.map((r) => r.core.ms / r.transport.ms);
  const share = median(workerShares);
  const detail = [
    `load average ${loadText(loadBefore)} before, ${loadText(loadAfter)} after (1, 5, 15 min; ${os.cpus().length} CPUs)`,
    `worker batches of up to ${settings.INGEST_WORKER_MAX_BATCH_SIZE} (INGEST_WORKER_MAX_BATCH_SIZE); core batches of 500`,
    'round  core ms (µs CPU/event)   worker ms (µs CPU/event)   nothing ms (µs CPU/event)   worker/core events/s',
    ...rounds.map(
      (r, i) =>
        `${String(i + 1).padStart(5)}  ${r.core.ms.toFixed(0).padStart(7)} (${usPerEvent(r.core.cpuMs).padStart(5)})` +
        `         ${r.worker.ms.toFixed(0).padStart(7)} (${usPerEvent(r.worker.cpuMs).padStart(5)})` +
        `           ${r.transport.ms.toFixed(0).padStart(7)} (${usPerEvent(r.transport.cpuMs).padStart(5)})` +
        `            ${workerShares[i]!.toFixed(2)}`,
    ),
    `median per-round worker/core throughput ${share.toFixed(2)} (target ≥ ${1 / TARGET_TIME_RATIO}; rounds ${Math.min(...workerShares).toFixed(2)}–${Math.max(...workerShares).toFixed(2)}), applying nothing/core ${median(transportShares).toFixed(2)}`,
    `median events/s: worker ${perSecond(median(rounds.map((r) => r.worker.ms))).toLocaleString('en')}, core ${perSecond(median(rounds.map((r) => r.core.ms))).toLocaleString('en')}, applying nothing ${perSecond(median(rounds.map((r) => r.transport.ms))).toLocaleString('en')}`,
    `median CPU of this process per event: worker ${usPerEvent(median(rounds.map((r) => r.worker.cpuMs)))} µs (with the in-process hub), core ${usPerEvent(median(rounds.map((r) => r.core.cpuMs)))} µs, applying nothing ${usPerEvent(median(rounds.map((r) => r.transport.cpuMs)))} µs`,
    `start-up until the first batch ${median(startUps).toFixed(0)} ms (median, not in the figure)`,
  ];
  console.log(detail.map((line) => `  ${line}`).join('\n'));
  const title = `${EVENTS.toLocaleString('en')} hit events into PostgreSQL: the staging worker through the local hub`;
  const baseline = measured(
    'applyIngestBatch, batches of 500 (bench/ingest.bench.ts)',
    rounds.map((r) => r.core.ms),
  );
  return [
    {
      title: `${title} vs the apply core alone (ratio: median of the per-round time ratios)`,
      baseline,
      subject: measured(
        `worker draining a backlog: local hub → EventHubConsumerClient → core → table checkpoints`,
        rounds.map((r) => r.worker.ms),
      ),
      ratio: median(rounds.map((r) => r.worker.ms / r.core.ms)),
      target: TARGET_TIME_RATIO,
    },
    {
      title: `${title}: applying nothing vs the apply core alone (the local transport's share)`,
      baseline,
      subject: measured(
        'the same worker applying nothing (hub, SDK, checkpoints only)',
        rounds.map((r) => r.transport.ms),
      ),
      ratio: median(rounds.map((r) => r.transport.ms / r.core.ms)),
    },
  ];
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

function loadText(load: number[]): string {
  return load.map((value) => value.toFixed(1)).join(' ');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function measured(name: string, times: number[]): Measured {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { name, medianMs: median(times), p90Ms: at(0.9), samples: sorted.length };
}
