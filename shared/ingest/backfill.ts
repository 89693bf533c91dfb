import { earliestEventPosition, type PartitionContext, type ReceivedEventData } from '@azure/event-hubs';
import type { Queryable, Sql } from '../db/client';
import { createLogger, type Logger } from '../log/logger';
import type { QuarantineContext } from './admission';
import { applyIngestBatch, type ApplyOptions } from './apply';
import { writeBackfillStatus, type BackfillState, type BackfillStatusRow } from './backfillStatusRepository';
import type { TableCheckpointStore } from './checkpointStore';
import { classifyMessage, type IncomingMessage } from './contract';
import { messagesFromEvents } from './receivedMessages';
import { listAdmission, type RunnerIdentity } from './statusRepository';
import { createConsumerClient, type EventHubConnection } from './eventHubConnection';

/**
 * Backfill and replay (docs/ingest-worker.md, "Backfill and replay"): reads the hub with a
 * consumer group of its own, from that group's checkpoints (a stable group: a rerun continues,
 * and its lag can be sampled like the worker's) or, `fresh`, from the earliest retained event
 * after dropping the group's checkpoints. Only the selected records go through the apply core;
 * every other event is read and skipped. It ends once every partition reached the last event it
 * held when the backfill started. The core's position guards make a replay idempotent.
 * Its own status row (ingest_backfill_status, per consumer group) says how far it is: the ingest
 * health's `backfills`.
 */
export type BackfillSelection =
  { kind: 'records'; records: readonly { clubId: string; recordId: string }[] } | { kind: 'shooters'; clubIds: readonly string[] };

export interface BackfillProgress {
  /** Events read from the hub. */
  read: number;
  /** Selected changes handed to the apply core. */
  applied: number;
  /** Rows the core changed (a row already at that position or newer stays). */
  written: number;
  /** Events read but not selected (other records, tombstones, contract rejects). */
  skipped: number;
  /** Events left until every partition reaches the position it had at the start. */
  lagLeft: number;
}

export interface BackfillSummary extends BackfillProgress {
  consumerGroup: string;
  /** The open quarantine a forced run went past. */
  forcedPast: QuarantineContext | null;
  fresh: boolean;
  partitions: number;
  durationMs: number;
}

export interface BackfillOptions {
  sql: Sql;
  /** The Event Hubs namespace: a connection string or the identity-based form (eventHubConnection.ts). */
  connection: EventHubConnection;
  eventHubName: string;
  consumerGroup: string;
  fresh: boolean;
  force: boolean;
  checkpointStore: TableCheckpointStore;
  selection: BackfillSelection;
  /** Thresholds and reject-log size of the core; the backfill never writes status or admission. */
  apply: Omit<ApplyOptions, 'runner' | 'statusEnabled'>;
  maxBatchSize: number;
  progressIntervalMs: number;
  onProgress: (progress: BackfillProgress) => void;
  loadBalancing?: { updateIntervalInMs: number; partitionOwnershipExpirationIntervalInMs: number };
  now?: () => Date;
  /** Where a failed status write is reported (it never fails the backfill). */
  log?: Logger;
}

/** An open quarantine covers the scope: incident rule 2, no replay while the scope error is open. */
export class BackfillRefusedError extends Error {
  constructor(readonly quarantine: QuarantineContext) {
    super(
      `A quarantine is open for ${quarantine.topic ?? 'an unknown topic'} (club ${quarantine.clubId ?? 'unknown'}, ` +
        `entity ${quarantine.entity ?? 'unknown'}, reason ${quarantine.reason}) since ${quarantine.since}: ` +
        'correct the producer path first, or pass --force.',
    );
    this.name = 'BackfillRefusedError';
  }
}

export class BackfillFailedError extends Error {
  constructor(
    message: string,
    readonly progress: BackfillProgress,
  ) {
    super(message);
    this.name = 'BackfillFailedError';
  }
}

export function selectionClubIds(selection: BackfillSelection): string[] {
  return [...new Set(selection.kind === 'shooters' ? selection.clubIds : selection.records.map((record) => record.clubId))];
}

/** The open quarantine (of either runner kind) whose scope overlaps the selection, if any. */
export async function openQuarantineFor(sql: Queryable, selection: BackfillSelection): Promise<QuarantineContext | null> {
  const clubs = new Set(selectionClubIds(selection));
  for (const state of (await listAdmission(sql)).values()) {
    const quarantine = state.admissionState === 'quarantined' ? state.quarantine : null;
    if (!quarantine) continue;
    // An unknown club or entity could be any: it counts as the same scope.
    const clubMatches = quarantine.clubId === null || clubs.has(quarantine.clubId);
    const entityMatches = selection.kind === 'records' || quarantine.entity === null || quarantine.entity === 'shooters';
    if (clubMatches && entityMatches) return quarantine;
  }
  return null;
}

/** Whether a message is one of the selected records (decided by the contract's own reading). */
export function selects(selection: BackfillSelection): (message: IncomingMessage) => boolean {
  if (selection.kind === 'shooters') {
    const clubs = new Set(selection.clubIds);
    return (message) => {
      const item = classifyMessage(message);
      return item.kind === 'change' && item.change.entity === 'shooters' && clubs.has(item.change.clubId);
    };
  }
  const keys = new Set(selection.records.map((record) => `${record.clubId}\u0000${record.recordId}`));
  return (message) => {
    const item = classifyMessage(message);
    return item.kind === 'change' && keys.has(`${item.change.clubId}\u0000${item.change.recordId}`);
  };
}

/**
 * Keeps the backfill's status row: the whole row is written at the start, on progress ticks (never
 * two writes at once, so none lands after the end) and at the end. A failed write is logged as a
 * warning and the backfill goes on, like the worker's lag sample.
 */
function statusWriter(options: BackfillOptions) {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? createLogger();
  const { selection } = options;
  const at = now();
  const row: BackfillStatusRow = {
    consumerGroup: options.consumerGroup,
    kind: selection.kind,
    scope: selection.kind === 'shooters' ? { clubIds: [...selection.clubIds] } : { records: selection.records.map((r) => ({ ...r })) },
    fresh: options.fresh,
    state: 'running',
    eventsRead: 0,
    eventsApplied: 0,
    eventsSkipped: 0,
    rowsWritten: 0,
    lagLeft: null,
    progressIntervalMs: Math.max(1, Math.round(options.progressIntervalMs)),
    startedAt: at,
    updatedAt: at,
    finishedAt: null,
    errorMessage: null,
  };
  let pending: Promise<void> | null = null;
  const write = (snapshot: BackfillStatusRow) =>
    writeBackfillStatus(options.sql, snapshot).catch((error: unknown) =>
      log.warn('ingest_backfill_status_write_failed', { consumerGroup: snapshot.consumerGroup, state: snapshot.state, error }),
    );
  const take = (progress: BackfillProgress | null) => {
    if (progress) {
      row.eventsRead = progress.read;
      row.eventsApplied = progress.applied;
      row.eventsSkipped = progress.skipped;
      row.rowsWritten = progress.written;
      row.lagLeft = progress.lagLeft;
    }
    row.updatedAt = now();
  };
  return {
    /** A progress tick: skipped while the previous write is still in flight. */
    progress(progress: BackfillProgress): void {
      if (pending) return;
      take(progress);
      pending = write({ ...row }).finally(() => (pending = null));
    },
    async start(): Promise<void> {
      await write({ ...row });
    },
    async end(state: Exclude<BackfillState, 'running'>, progress: BackfillProgress | null, errorMessage: string | null): Promise<void> {
      await pending;
      take(progress);
      row.state = state;
      row.finishedAt = row.updatedAt;
      row.errorMessage = errorMessage;
      await write({ ...row });
    },
  };
}

export async function runBackfill(options: BackfillOptions): Promise<BackfillSummary> {
  // Read even when forced: the summary names the quarantine it went past. (It is also the pool's
  // first query: postgres.js 3.4 serialises an untyped sql.array wrongly before its types are fetched.)
  const quarantine = await openQuarantineFor(options.sql, options.selection);
  const status = statusWriter(options);
  if (quarantine && !options.force) {
    const refused = new BackfillRefusedError(quarantine);
    await status.end('refused', null, refused.message);
    throw refused;
  }
  await status.start();
  try {
    const summary = await replay(options, quarantine, (progress) => status.progress(progress));
    await status.end('done', summary, null);
    return summary;
  } catch (error) {
    const progress = error instanceof BackfillFailedError ? error.progress : null;
    await status.end('failed', progress, error instanceof Error ? error.message : String(error));
    throw error;
  }
}

async function replay(
  options: BackfillOptions,
  quarantine: QuarantineContext | null,
  onStatus: (progress: BackfillProgress) => void,
): Promise<BackfillSummary> {
  const started = Date.now();
  const { checkpointStore, consumerGroup } = options;
  await checkpointStore.ensureTable();
  const client = createConsumerClient(options.connection, consumerGroup, options.eventHubName, checkpointStore, {
    loadBalancingOptions: { strategy: 'greedy', ...options.loadBalancing },
  });
  const runner: RunnerIdentity = { id: `backfill:${consumerGroup}`, kind: 'worker' };
  const apply: ApplyOptions = { ...options.apply, runner, statusEnabled: false };
  const selected = selects(options.selection);
  const progress: BackfillProgress = { read: 0, applied: 0, written: 0, skipped: 0, lagLeft: 0 };
  try {
    const namespace = client.fullyQualifiedNamespace;
    if (options.fresh) await checkpointStore.clear(namespace, options.eventHubName, consumerGroup);
    // Where each partition stands now: the backfill is through once it reached these.
    const partitionIds = await client.getPartitionIds();
    const heads = await Promise.all(partitionIds.map((id) => client.getPartitionProperties(id)));
    const checkpoints = await checkpointStore.listCheckpoints(namespace, options.eventHubName, consumerGroup);
    const position = new Map<string, number>();
    const target = new Map<string, number>();
    for (const head of heads) {
      const checkpoint = checkpoints.find((entry) => entry.partitionId === head.partitionId);
      target.set(head.partitionId, head.isEmpty ? -1 : head.lastEnqueuedSequenceNumber);
      position.set(head.partitionId, checkpoint?.sequenceNumber ?? (head.isEmpty ? -1 : head.beginningSequenceNumber - 1));
    }
    const lagLeft = () => [...target].reduce((sum, [id, last]) => sum + Math.max(0, last - (position.get(id) ?? -1)), 0);
    progress.lagLeft = lagLeft();
    onStatus({ ...progress });
    const summary = () => ({
      ...progress,
      consumerGroup,
      forcedPast: quarantine,
      fresh: options.fresh,
      partitions: heads.length,
      durationMs: Date.now() - started,
    });
    if (progress.lagLeft === 0) return summary();

    let finish: () => void = () => undefined;
    let fail: (error: Error) => void = () => undefined;
    const finished = new Promise<void>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    let stopped = false;

    async function processBatch(events: ReceivedEventData[], context: PartitionContext): Promise<void> {
      const messages = messagesFromEvents(events, context.partitionId);
      const chosen = messages.filter(selected);
      if (chosen.length) {
        const outcome = await applyIngestBatch(options.sql, chosen, apply);
        progress.written += outcome.hits + outcome.shooters;
      }
      const last = events.at(-1);
      if (!last) return;
      await context.updateCheckpoint(last);
      progress.read += events.length;
      progress.applied += chosen.length;
      progress.skipped += events.length - chosen.length;
      position.set(context.partitionId, last.sequenceNumber);
      progress.lagLeft = lagLeft();
      if (progress.lagLeft === 0) finish();
    }

    const subscription = client.subscribe(
      {
        processEvents: async (events, context) => {
          if (events.length === 0 || stopped) return;
          try {
            await processBatch(events, context);
          } catch (error) {
            // Not checkpointed: a rerun with the same group reads this batch again.
            fail(
              new BackfillFailedError(
                `partition ${context.partitionId}: ${error instanceof Error ? error.message : String(error)}`,
                progress,
              ),
            );
            throw new Error('batch not applied');
          }
        },
        processError: async () => Promise.resolve(),
      },
      { startPosition: earliestEventPosition, maxBatchSize: options.maxBatchSize, maxWaitTimeInSeconds: 1, skipParsingBodyAsJson: true },
    );
    const timer = setInterval(() => {
      options.onProgress({ ...progress });
      onStatus({ ...progress });
    }, options.progressIntervalMs);
    try {
      await finished;
    } finally {
      stopped = true;
      clearInterval(timer);
      await subscription.close();
    }
    return summary();
  } finally {
    await client.close();
  }
}
