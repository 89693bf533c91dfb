import type { Queryable, Sql, TransactionSql } from '../db/client';
import { isTransient } from '../db/errors';
import {
  advanceAdmission,
  admissionChanged,
  type AdmissionState,
  type AdmissionStateName,
  type AdmissionThresholds,
  type Observation,
} from './admission';
import {
  classifyMessage,
  pathKey,
  type Change,
  type ContractReject,
  type HitChange,
  type IncomingMessage,
  type RejectReason,
  type ShooterChange,
} from './contract';
import {
  admissionFrom,
  logRejects,
  progressThrottledStatement,
  readAdmission,
  recordProgress,
  recordProgressThrottled,
  writeAdmission,
  type RunnerIdentity,
} from './statusRepository';
import { recordDeadLetters, type DeadLetterRetention } from './deadLetterRepository';
import { deadLetterOf } from './deadLetters';
import { applyConsent } from './consentRefusal';

/**
 * The one apply core every runner calls (the Event Hubs function, the staging worker and the
 * backfill): classify, refuse score rows without consent (one lookup per batch), drop contract rejects, deduplicate, then one transaction with set-based
 * upserts guarded by source position. Throws only for transient failures (`isTransient`: the
 * caller's retry reruns the whole batch); a contract reject never throws, and a batch the
 * database refuses for any other reason is split until the refused events are found: they become
 * dead letters, the rest is applied (docs/ingest.md, "Poison isolation").
 */
export interface ApplyOptions {
  runner: RunnerIdentity;
  /** SVC_INGEST_STATUS_ENABLED: without it neither the status record nor the reject log is written (dead letters are). */
  statusEnabled: boolean;
  thresholds: AdmissionThresholds;
  rejectLogMax: number;
  /** Days a reject stays in the log at most; 30 when not given. */
  rejectLogMaxAgeDays?: number;
  /** Bounds of the dead-letter record; 1000 rows and 30 days when not given. */
  deadLetters?: DeadLetterRetention;
  now?: () => Date;
}

const DEFAULT_REJECT_LOG_MAX_AGE_DAYS = 30;
const DEFAULT_DEAD_LETTERS: DeadLetterRetention = { keep: 1000, maxAgeDays: 30 };

export interface ApplyOutcome {
  received: number;
  hits: number;
  shooters: number;
  /** Changes whose row already held this or a newer position (redelivery, reordering). */
  stale: number;
  tombstones: number;
  rejected: number;
  rejectReasons: Partial<Record<RejectReason, number>>;
  admissionState: AdmissionStateName | null;
  statusWritten: boolean;
  /** Events the database refused for good: recorded as dead letters, the rest of the batch applied. */
  deadLettered: number;
}

type Classified = ReturnType<typeof classifyMessage>;

export async function applyIngestBatch(sql: Sql, messages: readonly IncomingMessage[], options: ApplyOptions): Promise<ApplyOutcome> {
  try {
    return await applyOrThrow(sql, messages, options);
  } catch (error) {
    if (isTransient(error)) throw error;
    return isolatePoison(sql, messages, options, error);
  }
}

/**
 * Halves a refused batch until each refused event stands alone: ⌈log2 n⌉ levels per poison
 * event, each half applied (and so kept) as soon as it goes through. A transient failure on the
 * way is rethrown: the redelivered batch finds the applied halves already in place (upserts are
 * guarded by position). A clean batch never gets here.
 */
async function isolatePoison(sql: Sql, messages: readonly IncomingMessage[], options: ApplyOptions, error: unknown): Promise<ApplyOutcome> {
  const [single] = messages;
  if (messages.length === 1 && single) return deadLetter(sql, single, options, error);
  const middle = Math.ceil(messages.length / 2);
  const outcomes: ApplyOutcome[] = [];
  for (const half of [messages.slice(0, middle), messages.slice(middle)]) {
    try {
      outcomes.push(await applyOrThrow(sql, half, options));
    } catch (halfError) {
      if (isTransient(halfError)) throw halfError;
      outcomes.push(await isolatePoison(sql, half, options, halfError));
    }
  }
  return outcomes.reduce(combineOutcomes);
}

/**
 * Records one refused event. With the status record on it counts toward admission like a reject
 * (reason apply_failed), in the same transaction; should that state be what fails, the dead letter
 * is written alone. Only a failure of that last write is rethrown.
 */
async function deadLetter(sql: Sql, message: IncomingMessage, options: ApplyOptions, error: unknown): Promise<ApplyOutcome> {
  const now = (options.now ?? (() => new Date()))();
  const letter = deadLetterOf(message, error);
  const retention = options.deadLetters ?? DEFAULT_DEAD_LETTERS;
  let admissionState: AdmissionStateName | null = null;
  let statusWritten = false;
  try {
    admissionState = await sql.begin(async (tx) => {
      await recordDeadLetters(tx, options.runner, now, [letter], retention);
      if (!options.statusEnabled) return null;
      const previous = await readAdmission(tx, options.runner.kind, true);
      const path = pathKey(letter.topic, letter.clubId, letter.entity);
      const reject = {
        reason: 'apply_failed' as const,
        topic: letter.topic,
        clubId: letter.clubId,
        entity: letter.entity,
        detail: letter.detail,
      };
      const next = advanceAdmission(previous, [{ kind: 'reject', path, reject }], now, options.thresholds);
      await writeAdmission(tx, options.runner.kind, now, next);
      statusWritten = true;
      return next.admissionState;
    });
  } catch (writeError) {
    if (isTransient(writeError)) throw writeError;
    await recordDeadLetters(sql, options.runner, now, [letter], retention);
  }
  return { ...EMPTY_OUTCOME, received: 1, deadLettered: 1, admissionState, statusWritten };
}

/** The outcome of a batch that applied nothing. */
export const EMPTY_OUTCOME: ApplyOutcome = {
  received: 0,
  hits: 0,
  shooters: 0,
  stale: 0,
  tombstones: 0,
  rejected: 0,
  rejectReasons: {},
  admissionState: null,
  statusWritten: false,
  deadLettered: 0,
};

function combineOutcomes(a: ApplyOutcome, b: ApplyOutcome): ApplyOutcome {
  const rejectReasons = { ...a.rejectReasons };
  for (const [reason, count] of Object.entries(b.rejectReasons) as [RejectReason, number][])
    rejectReasons[reason] = (rejectReasons[reason] ?? 0) + count;
  return {
    received: a.received + b.received,
    hits: a.hits + b.hits,
    shooters: a.shooters + b.shooters,
    stale: a.stale + b.stale,
    tombstones: a.tombstones + b.tombstones,
    rejected: a.rejected + b.rejected,
    rejectReasons,
    admissionState: b.admissionState ?? a.admissionState,
    statusWritten: a.statusWritten || b.statusWritten,
    deadLettered: a.deadLettered + b.deadLettered,
  };
}

/** The batch in one go; throws whatever the database or the status writes throw. Replays call it directly. */
export async function applyOrThrow(sql: Sql, messages: readonly IncomingMessage[], options: ApplyOptions): Promise<ApplyOutcome> {
  const classified = await applyConsent(sql, messages.map(classifyMessage));
  const changes = classified.flatMap((item) => (item.kind === 'change' ? [item.change] : []));
  const rejects = classified.flatMap((item, index) =>
    item.kind === 'reject' ? [{ ...item.reject, partitionId: messages[index]?.partitionId ?? null }] : [],
  );
  const hits = mergePerKey(changes.filter((change): change is HitChange => change.entity === 'hits'));
  const shooters = mergePerKey(changes.filter((change): change is ShooterChange => change.entity === 'shooters'));
  const now = (options.now ?? (() => new Date()))();

  const written = rejects.length
    ? await applyWithRejects(sql, options, now, classified, changes, rejects, hits, shooters)
    : await applyQuiet(sql, options, now, classified, changes, hits, shooters);

  const rejectReasons: Partial<Record<RejectReason, number>> = {};
  for (const reject of rejects) rejectReasons[reject.reason] = (rejectReasons[reject.reason] ?? 0) + 1;
  return {
    received: messages.length,
    hits: written.hitCount,
    shooters: written.shooterCount,
    stale: changes.length - written.hitCount - written.shooterCount,
    tombstones: classified.filter((item) => item.kind === 'tombstone').length,
    rejected: rejects.length,
    rejectReasons,
    admissionState: written.status.admissionState,
    statusWritten: written.status.written,
    deadLettered: 0,
  };
}

/** One row's merged changes of a batch: the newest change decides deletion, the newest create/update the values. */
export type Merged<C extends Change> = C & { dataLsn: number | null; dataSequence: number | null };

/**
 * One entry per key (a key twice in one INSERT ... ON CONFLICT raises 21000): the newest change
 * by position, carrying the values and position of the newest create/update among them, so a
 * batch holding a create and its delete ends exactly as the two applied one by one. Sorting by
 * key gives concurrent batches the same lock order.
 */
export function mergePerKey<C extends Change>(changes: readonly C[]): Merged<C>[] {
  const newest = new Map<string, C>();
  const newestData = new Map<string, C>();
  for (const change of changes) {
    const key = `${change.clubId}\u0000${change.recordId}`;
    const kept = newest.get(key);
    if (!kept || isNewer(change, kept)) newest.set(key, change);
    const keptData = newestData.get(key);
    if (change.row !== null && (!keptData || isNewer(change, keptData))) newestData.set(key, change);
  }
  return [...newest.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, change]) => {
      const data = newestData.get(key);
      // Without a create/update in the batch every change was a delete: the newest has no row either.
      const merged: Merged<C> = Object.assign({}, change, { dataLsn: data?.lsn ?? null, dataSequence: data?.sequence ?? null });
      if (data) merged.row = data.row;
      return merged;
    });
}

function isNewer(a: Change, b: Change): boolean {
  return a.lsn !== b.lsn ? a.lsn > b.lsn : a.sequence > b.sequence;
}

const texts = <T>(items: readonly T[], pick: (item: T) => string | number | boolean | Date | null | undefined) =>
  items.map((item) => {
    const value = pick(item);
    if (value === null || value === undefined) return null;
    return value instanceof Date ? value.toISOString() : String(value);
  });

/*
 * Both upserts keep two positions per row (migration 007): the newest change of any kind decides
 * whether the row is deleted, the newest create/update decides its values. ingest_position_newer
 * (migration 007) compares positions; a change newer in neither leaves the row alone. `incoming`
 * names the row the change brings (`excluded` of an upsert, the batch's row of an update).
 */
const newerData = (incoming: string) =>
  `ingest_position_newer(t.data_lsn, t.data_sequence, ${incoming}.data_lsn, ${incoming}.data_sequence)`;
const newerSource = (incoming: string) =>
  `ingest_position_newer(t.source_lsn, t.source_sequence, ${incoming}.source_lsn, ${incoming}.source_sequence)`;
const newerInEither = (incoming: string) => `${newerSource(incoming)} or ${newerData(incoming)}`;

/** Each column takes the incoming value where the change is newer by `newer`, else keeps its own. */
const takeNewer = (incoming: string, newer: string, columns: readonly string[]) =>
  columns.map((column) => `${column} = case when ${newer} then ${incoming}.${column} else t.${column} end`);

const HIT_UPDATES = [
  ...takeNewer('i', newerData('i'), ['shooter_id', 'discipline', 'series', 'shot_no', 'value', 'shot_at', 'data_lsn', 'data_sequence']),
  `deleted_at = case when not ${newerSource('i')} then t.deleted_at when i.deleted_at is not null then coalesce(t.deleted_at, i.deleted_at) end`,
  ...takeNewer('i', newerSource('i'), ['source_lsn', 'source_sequence']),
  'updated_at = i.updated_at',
].join(',\n');

const SHOOTER_UPDATES = [
  ...takeNewer('excluded', newerData('excluded'), ['display_name', 'birth_year', 'data_lsn', 'data_sequence']),
  ...takeNewer('excluded', newerSource('excluded'), ['deleted', 'source_lsn', 'source_sequence']),
  'updated_at = excluded.updated_at',
].join(',\n');

/*
 * Hits. club_data_hit is partitioned by arrival month (migration 031), so no unique key can hold
 * (club, record) alone and ON CONFLICT cannot find a record's row: ingest keeps the key unique
 * itself. The batch first takes a transaction-scoped advisory lock per key (in one order, so two
 * batches never deadlock), then, in a statement whose snapshot follows those locks, updates the
 * keys that have a row and inserts the others. A concurrent batch with a shared key waits for the
 * lock and then sees this one's row (docs/decisions/016-hit-partitions.md).
 */
const HIT_KEY_LOCK_CLASS = 41_032_001;

/** The advisory locks of the batch's keys; run in the transaction of the write, before it. */
export function lockHitKeys(tx: Queryable, hits: readonly Merged<HitChange>[]) {
  return tx`
    select pg_advisory_xact_lock(${HIT_KEY_LOCK_CLASS}, k)
    from (select distinct hashtext(u.club || '/' || u.record) as k
          from unnest(${tx.array(texts(hits, (h) => h.clubId))}::text[], ${tx.array(texts(hits, (h) => h.recordId))}::text[]) as u(club, record)
          order by 1) as keys`;
}

/** The batch's hits as rows of club_data_hit's columns, for the CTE `hit_in`. Deletes are soft (deleted_at, the cloud time the delete arrived). */
function hitRowsIn(sql: Queryable, hits: readonly Merged<HitChange>[]) {
  return sql`
    select u.club as source_club_id, u.record as source_record_id, u.shooter as shooter_id, u.discipline, u.series, u.shot_no,
           u.value, u.shot_at, case when u.deleted then now() end as deleted_at, u.lsn as source_lsn, u.seq as source_sequence,
           u.data_lsn, u.data_seq as data_sequence, now() as updated_at
    from unnest(
      ${sql.array(texts(hits, (h) => h.clubId))}::text[], ${sql.array(texts(hits, (h) => h.recordId))}::text[],
      ${sql.array(texts(hits, (h) => h.row?.shooter_id))}::text[], ${sql.array(texts(hits, (h) => h.row?.discipline))}::text[],
      ${sql.array(texts(hits, (h) => h.row?.series))}::int4[], ${sql.array(texts(hits, (h) => h.row?.shot_no))}::int4[],
      ${sql.array(texts(hits, (h) => h.row?.value))}::numeric[], ${sql.array(texts(hits, (h) => h.row?.shot_at))}::timestamptz[],
      ${sql.array(texts(hits, (h) => h.deleted))}::bool[], ${sql.array(texts(hits, (h) => h.lsn))}::int8[], ${sql.array(texts(hits, (h) => h.sequence))}::int8[],
      ${sql.array(texts(hits, (h) => h.dataLsn))}::int8[], ${sql.array(texts(hits, (h) => h.dataSequence))}::int8[]
    ) as u(club, record, shooter, discipline, series, shot_no, value, shot_at, deleted, lsn, seq, data_lsn, data_seq)`;
}

const HIT_COLUMNS = `source_club_id, source_record_id, shooter_id, discipline, series, shot_no, value, shot_at,
  deleted_at, source_lsn, source_sequence, data_lsn, data_sequence, updated_at`;

/**
 * The CTEs writing the batch's hits (after lockHitKeys): hit_updated and hit_inserted each return a
 * row per written hit; hit_touched queues their shooters for the progress evaluation after the
 * apply (migration 032), in the same transaction, so a stale redelivery queues nothing new.
 * hit_arrival keeps each club's newest arrival for the freshness check (migration 036): only an
 * inserted hit arrives (an update keeps its created_at), and only a newer arrival moves it, so a
 * redelivered or reordered batch leaves it alone. Its only writer is this statement.
 */
function hitWrites(sql: Queryable, hits: readonly Merged<HitChange>[]) {
  return sql`
    hit_in as (${hitRowsIn(sql, hits)}),
    hit_updated as (
      update club_data_hit t set ${sql.unsafe(HIT_UPDATES)}
      from hit_in i
      where t.source_club_id = i.source_club_id and t.source_record_id = i.source_record_id and (${sql.unsafe(newerInEither('i'))})
      returning t.source_club_id, t.shooter_id),
    hit_inserted as (
      insert into club_data_hit (${sql.unsafe(HIT_COLUMNS)})
      select ${sql.unsafe(HIT_COLUMNS)} from hit_in i
      where not exists (select 1 from club_data_hit e where e.source_club_id = i.source_club_id and e.source_record_id = i.source_record_id)
      returning source_club_id, shooter_id, created_at),
    hit_touched as (
      insert into challenge_progress_touched (source_club_id, shooter_id)
      select distinct source_club_id, shooter_id
      from (select source_club_id, shooter_id from hit_updated union all select source_club_id, shooter_id from hit_inserted) as written
      where shooter_id is not null
      order by 1, 2
      on conflict do nothing),
    hit_arrival as (
      insert into club_last_arrival as t (source_club_id, last_arrival_at)
      select source_club_id, max(created_at) from hit_inserted group by source_club_id order by 1
      on conflict (source_club_id) do update set last_arrival_at = excluded.last_arrival_at
      where excluded.last_arrival_at > t.last_arrival_at)`;
}

/** The hits alone, in the caller's transaction: how many were written. */
async function writeHits(tx: TransactionSql, hits: readonly Merged<HitChange>[]): Promise<number> {
  if (hits.length === 0) return 0;
  await lockHitKeys(tx, hits);
  const [row]: [{ hits: number }?] = await tx`
    with ${hitWrites(tx, hits)}
    select ((select count(*) from hit_updated) + (select count(*) from hit_inserted))::int as hits`;
  return row?.hits ?? 0;
}

/** Shooters: `deleted` is the mirror's own flag, or true after a delete. */
function shootersUpsert(sql: Queryable, shooters: readonly Merged<ShooterChange>[]) {
  return sql`
    insert into club_data_shooter as t (source_club_id, source_record_id, display_name, birth_year, deleted,
                                        source_lsn, source_sequence, data_lsn, data_sequence, updated_at)
    select u.club, u.record, u.display_name, u.birth_year, u.deleted, u.lsn, u.seq, u.data_lsn, u.data_seq, now()
    from unnest(
      ${sql.array(texts(shooters, (s) => s.clubId))}::text[], ${sql.array(texts(shooters, (s) => s.recordId))}::text[],
      ${sql.array(texts(shooters, (s) => s.row?.display_name))}::text[], ${sql.array(texts(shooters, (s) => s.row?.birth_year))}::int4[],
      ${sql.array(texts(shooters, (s) => s.deleted))}::bool[], ${sql.array(texts(shooters, (s) => s.lsn))}::int8[],
      ${sql.array(texts(shooters, (s) => s.sequence))}::int8[], ${sql.array(texts(shooters, (s) => s.dataLsn))}::int8[],
      ${sql.array(texts(shooters, (s) => s.dataSequence))}::int8[]
    ) as u(club, record, display_name, birth_year, deleted, lsn, seq, data_lsn, data_seq)
    on conflict (source_club_id, source_record_id) do update set ${sql.unsafe(SHOOTER_UPDATES)}
    where ${sql.unsafe(newerInEither('excluded'))}
    returning 1`;
}

/** The admission observations of a batch in arrival order; runs of accepted events on one path fold into one. */
export function observationsOf(classified: readonly Classified[]): Observation[] {
  const observations: Observation[] = [];
  for (const item of classified) {
    if (item.kind === 'reject') {
      const { reason, topic, clubId, entity, detail } = item.reject;
      observations.push({ kind: 'reject', path: pathKey(topic, clubId, entity), reject: { reason, topic, clubId, entity, detail } });
    } else if (item.kind === 'change') {
      const path = pathKey(item.change.topic, item.change.clubId, item.change.entity);
      const last = observations.at(-1);
      if (!(last?.kind === 'accepted' && last.path === path)) observations.push({ kind: 'accepted', path });
    }
  }
  return observations;
}

type Written = { hitCount: number; shooterCount: number; status: { admissionState: AdmissionStateName | null; written: boolean } };

const latestSourceAt = (changes: readonly Change[]) =>
  changes.reduce<Date | null>((latest, change) => (!latest || change.sourceAt > latest ? change.sourceAt : latest), null);

/**
 * The common batch: no contract rejects. One statement (its data-modifying parts are atomic
 * together): the hits' update and insert with the queue of their shooters, the shooters' upsert,
 * the throttled progress write while the admission state is quiet, and a read of that state. With
 * hits it runs in a transaction after the keys' advisory locks (hitWrites); a batch of shooters
 * alone is the one statement. Only when the state is open (a rejecting path may just have been
 * accepted again) a second transaction advances it.
 */
async function applyQuiet(
  sql: Sql,
  options: ApplyOptions,
  now: Date,
  classified: readonly Classified[],
  changes: readonly Change[],
  hits: readonly Merged<HitChange>[],
  shooters: readonly Merged<ShooterChange>[],
): Promise<Written> {
  type Row = { hits: number; shooters: number; progress: number; admission: unknown };
  const write = (tx: Queryable) => tx<Row[]>`
    with ${hitWrites(tx, hits)},
         s as (${shootersUpsert(tx, shooters)}),
         p as (${progressThrottledStatement(tx, options.runner, now, latestSourceAt(changes), { enabled: options.statusEnabled })})
    select (select count(*) from hit_updated) + (select count(*) from hit_inserted) as hits, (select count(*) from s) as shooters,
           (select count(*) from p) as progress,
           (select state from ingest_admission where runner_kind = ${options.runner.kind}) as admission`;
  // Hits need their keys' locks first (hitWrites); a batch of shooters alone stays one statement.
  const [row] = hits.length
    ? await sql.begin(async (tx) => {
        await lockHitKeys(tx, hits);
        return write(tx);
      })
    : await write(sql);
  const hitCount = row?.hits ?? 0;
  const shooterCount = row?.shooters ?? 0;
  if (!options.statusEnabled) return { hitCount, shooterCount, status: { admissionState: null, written: false } };
  const glance = admissionFrom(row?.admission);
  if (isQuiet(glance))
    return { hitCount, shooterCount, status: { admissionState: glance.admissionState, written: (row?.progress ?? 0) > 0 } };
  const status = await sql.begin((tx) => advanceOpenState(tx, options, now, classified, changes));
  return { hitCount, shooterCount, status };
}

/** A batch with contract rejects: data, reject log and admission state in one transaction. */
async function applyWithRejects(
  sql: Sql,
  options: ApplyOptions,
  now: Date,
  classified: readonly Classified[],
  changes: readonly Change[],
  rejects: readonly (ContractReject & { partitionId: string | null })[],
  hits: readonly Merged<HitChange>[],
  shooters: readonly Merged<ShooterChange>[],
): Promise<Written> {
  return sql.begin(async (tx) => {
    // Issued together: postgres.js pipelines them on the transaction's connection.
    const [hitCount, shooterRows] = await Promise.all([writeHits(tx, hits), shootersUpsert(tx, shooters)]);
    if (!options.statusEnabled) return { hitCount, shooterCount: shooterRows.count, status: { admissionState: null, written: false } };
    await logRejects(tx, options.runner, now, rejects, {
      keep: options.rejectLogMax,
      maxAgeDays: options.rejectLogMaxAgeDays ?? DEFAULT_REJECT_LOG_MAX_AGE_DAYS,
    });
    const status = await advanceOpenState(tx, options, now, classified, changes);
    return { hitCount, shooterCount: shooterRows.count, status };
  });
}

function isQuiet(state: AdmissionState): boolean {
  return state.admissionState === 'none' && state.sourceDriftState === 'none' && state.recentRejects.length === 0;
}

/** The locked path: advance the kind's shared admission state with this batch's observations. */
async function advanceOpenState(
  tx: TransactionSql,
  options: ApplyOptions,
  now: Date,
  classified: readonly Classified[],
  changes: readonly Change[],
): Promise<{ admissionState: AdmissionStateName; written: boolean }> {
  const lastSourceEventAt = latestSourceAt(changes);
  const previous = await readAdmission(tx, options.runner.kind, true);
  const next = advanceAdmission(previous, observationsOf(classified), now, options.thresholds);
  if (!admissionChanged(previous, next)) {
    const written = await recordProgressThrottled(tx, options.runner, now, lastSourceEventAt, { evenIfOpen: true });
    return { admissionState: next.admissionState, written };
  }
  await writeAdmission(tx, options.runner.kind, now, next);
  await recordProgress(tx, options.runner, now, lastSourceEventAt, changes.length > 0);
  return { admissionState: next.admissionState, written: true };
}
