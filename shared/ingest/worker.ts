import os from 'node:os';
import { earliestEventPosition, type PartitionContext, type ReceivedEventData, type Subscription } from '@azure/event-hubs';
import type { Sql } from '../db/client';
import type { Logger } from '../log/logger';
import { telemetry } from '../telemetry/telemetry';
import type { ApplyOptions, ApplyOutcome } from './apply';
import {
  evaluateCatchUp,
  pushSample,
  summariseLag,
  type CatchUpRules,
  type CatchUpState,
  type LagSummary,
  type PartitionSample,
} from './catchUp';
import type { TableCheckpointStore } from './checkpointStore';
import type { IncomingMessage } from './contract';
import { runEventBatch, runHeartbeat } from './eventRunner';
import { sampleGroupLag } from './lag';
import { messagesFromEvents } from './receivedMessages';
import type { RunnerIdentity } from './statusRepository';
import { recordLagSample, recordWorkerStarted, recordWorkerStopped } from './workerStatus';
import { createConsumerClient, type EventHubConnection } from './eventHubConnection';

/**
 * The staging ingest worker (docs/ingest-worker.md): an EventHubConsumerClient over the
 * consumer group, its state in the table checkpoint store shared by every replica, each batch
 * applied through the apply core and checkpointed only after the core committed it. A batch
 * that throws is not checkpointed: the SDK stops that partition's pump and the next
 * load-balancing round starts it again from the checkpoint, so the batch is delivered again.
 * A timer samples lag and catchUpState into the status row and beats the heartbeat.
 */
export interface IngestWorkerOptions {
  sql: Sql;
  /** The Event Hubs namespace: a connection string or the identity-based form (eventHubConnection.ts). */
  connection: EventHubConnection;
  eventHubName: string;
  consumerGroup: string;
  checkpointStore: TableCheckpointStore;
  apply: ApplyOptions;
  log: Logger;
  maxBatchSize: number;
  maxWaitTimeInSeconds: number;
  lagSampleIntervalMs: number;
  catchUpRules: CatchUpRules;
  /** How often replicas renew and balance ownership, and when an unrenewed claim counts as free. */
  loadBalancing?: { updateIntervalInMs: number; partitionOwnershipExpirationIntervalInMs: number };
  /** The apply step; tests wrap it to make a batch fail. */
  applyBatch?: (sql: Sql, messages: readonly IncomingMessage[], options: ApplyOptions, log: Logger) => Promise<ApplyOutcome>;
  now?: () => Date;
}

export interface LagSnapshot {
  sampledAt: Date;
  summary: LagSummary | null;
  catchUpState: CatchUpState;
  error: string | null;
}

export interface IngestWorker {
  runner: RunnerIdentity;
  /** Events applied (committed and checkpointed) by this replica. */
  readonly applied: number;
  /** Partitions this replica is reading now. */
  ownedPartitions(): string[];
  /** Takes one lag sample now and writes it (the timer does the same). */
  sampleLag(): Promise<LagSnapshot>;
  /** Finishes the batches in hand, checkpoints them, closes the client and marks the row stopped. */
  stop(): Promise<void>;
}

/** One status row per replica: containers get distinct host names. */
export function workerRunnerIdentity(name: string = os.hostname()): RunnerIdentity {
  return { id: `worker:${name}`, kind: 'worker' };
}

/** An error without `retryable`: the SDK would otherwise go on past the failed batch. */
class BatchFailedError extends Error {
  constructor(cause: unknown) {
    super(`batch not applied: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'BatchFailedError';
  }
}

/** catchUpState as a gauge an alert can compare: 0 live, 1 catching up, 2 stalled. */
const CATCH_UP_LEVEL: Record<CatchUpState, number> = { live: 0, catching_up: 1, stalled: 2 };

export async function startIngestWorker(options: IngestWorkerOptions): Promise<IngestWorker> {
  const now = options.now ?? (() => new Date());
  const { sql, log, checkpointStore } = options;
  const runner = options.apply.runner;
  const applyBatch = options.applyBatch ?? runEventBatch;
  await checkpointStore.ensureTable();
  await recordWorkerStarted(sql, runner, now());

  const client = createConsumerClient(options.connection, options.consumerGroup, options.eventHubName, checkpointStore, {
    loadBalancingOptions: { strategy: 'greedy', ...options.loadBalancing },
  });
  const inFlight = new Set<Promise<void>>();
  const owned = new Set<string>();
  const windows = new Map<string, PartitionSample[]>();
  let stopping = false;
  let applied = 0;

  /**
   * Per partition, the checkpoint write of the last applied batch: it runs while the next batch
   * applies (the receive and the apply do not wait for the table), and resolves to its error, if
   * any. Writes of one partition never overlap, so they land in order.
   */
  const checkpointWrites = new Map<string, Promise<Error | undefined>>();

  async function processBatch(events: ReceivedEventData[], context: PartitionContext): Promise<void> {
    const messages = messagesFromEvents(events, context.partitionId);
    const last = events.at(-1);
    if (!last) return;
    const previousWrite = checkpointWrites.get(context.partitionId);
    try {
      const [, previousFailure] = await Promise.all([applyBatch(sql, messages, options.apply, log), previousWrite]);
      // The previous batch is applied but its position did not reach the table: this batch is not
      // checkpointed either, and the partition starts again from the last position that did.
      if (previousFailure !== undefined) throw previousFailure;
    } catch (error) {
      // The partition starts again from the table; a write still in flight only keeps its place in line.
      if (previousWrite)
        checkpointWrites.set(
          context.partitionId,
          previousWrite.then(() => undefined),
        );
      log.warn('ingest_worker_batch_failed', {
        partitionId: context.partitionId,
        firstSequenceNumber: events[0]?.sequenceNumber,
        size: events.length,
        error,
      });
      throw new BatchFailedError(error);
    }
    // Only after the core committed: a crash in between redelivers, and the core is idempotent.
    const write = context.updateCheckpoint(last).then(
      (): undefined => {
        applied += events.length;
        return undefined;
      },
      (error: unknown): Error => {
        log.warn('ingest_worker_checkpoint_failed', { partitionId: context.partitionId, sequenceNumber: last.sequenceNumber, error });
        return error instanceof Error ? error : new Error(`checkpoint write failed: ${String(error)}`);
      },
    );
    checkpointWrites.set(context.partitionId, write);
  }

  /**
   * The SDK hands an idle partition empty batches (every maxWaitTimeInSeconds). When the last
   * write of its checkpoint failed, no later batch will replace it: the partition starts again
   * from the table, as after a failed batch, and the events are delivered and checkpointed again.
   */
  async function failIfLastWriteFailed(partitionId: string): Promise<void> {
    const failure = await checkpointWrites.get(partitionId);
    if (!failure) return;
    checkpointWrites.delete(partitionId);
    throw new BatchFailedError(failure);
  }

  const subscription: Subscription = client.subscribe(
    {
      processInitialize: async (context) => {
        owned.add(context.partitionId);
        // A write left from an earlier claim of this partition: the new pump reads from the table,
        // so only its order matters, not whether it failed.
        const earlier = checkpointWrites.get(context.partitionId);
        if (earlier)
          checkpointWrites.set(
            context.partitionId,
            earlier.then(() => undefined),
          );
        await Promise.resolve();
      },
      processClose: async (_reason, context) => {
        owned.delete(context.partitionId);
        await Promise.resolve();
      },
      processEvents: async (events, context) => {
        // After a stop began nothing new starts; unapplied events stay behind the checkpoint.
        if (stopping) return;
        if (events.length === 0) return failIfLastWriteFailed(context.partitionId);
        const batch = processBatch(events, context);
        inFlight.add(batch);
        try {
          await batch;
        } finally {
          inFlight.delete(batch);
        }
      },
      processError: async (error, context) => {
        if (stopping) return;
        log.warn('ingest_worker_receive_error', { partitionId: context.partitionId || null, error });
        await Promise.resolve();
      },
    },
    {
      startPosition: earliestEventPosition,
      maxBatchSize: options.maxBatchSize,
      maxWaitTimeInSeconds: options.maxWaitTimeInSeconds,
      skipParsingBodyAsJson: true,
    },
  );

  async function sampleLag(): Promise<LagSnapshot> {
    const sampledAt = now();
    try {
      const samples = await sampleGroupLag(client, checkpointStore, options.consumerGroup, sampledAt);
      for (const sample of samples) pushSample(windows, sample, options.catchUpRules.windowSize);
      const summary = summariseLag(samples, options.catchUpRules.allowedLag);
      const catchUpState = evaluateCatchUp(windows.values(), options.catchUpRules);
      await recordLagSample(sql, runner, sampledAt, { ok: true, summary, catchUpState });
      const backend = telemetry();
      backend?.gauge('ingest.lag.events', summary.totalLag, { runner: runner.kind });
      backend?.gauge('ingest.catch_up', CATCH_UP_LEVEL[catchUpState], { runner: runner.kind, state: catchUpState });
      return { sampledAt, summary, catchUpState, error: null };
    } catch (error) {
      const text = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 500);
      log.warn('ingest_worker_lag_sample_failed', { error });
      await recordLagSample(sql, runner, sampledAt, { ok: false, error: text }).catch(() => undefined);
      return { sampledAt, summary: null, catchUpState: evaluateCatchUp(windows.values(), options.catchUpRules), error: text };
    }
  }

  let tick: Promise<unknown> = sampleLag();
  const timer = setInterval(() => {
    tick = Promise.all([
      sampleLag(),
      runHeartbeat(sql, options.apply).catch((error: unknown) => log.warn('ingest_worker_heartbeat_failed', { error })),
    ]);
  }, options.lagSampleIntervalMs);
  timer.unref();

  return {
    runner,
    get applied() {
      return applied;
    },
    ownedPartitions: () => [...owned].sort(),
    sampleLag,
    stop: async () => {
      if (stopping) return;
      stopping = true;
      clearInterval(timer);
      // The receivers stop first, so nothing new arrives; the SDK does not wait for a batch in
      // hand, this does: it is applied and checkpointed before the connection closes.
      const batches = [...inFlight];
      await subscription.close();
      await Promise.allSettled(batches);
      // The last applied batch of each partition reaches the table before the connection closes.
      await Promise.all(checkpointWrites.values());
      await tick.catch(() => undefined);
      await client.close();
      await recordWorkerStopped(sql, runner, now());
    },
  };
}
