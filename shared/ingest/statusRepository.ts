import type { Queryable } from '../db/client';
import { INITIAL_ADMISSION, type AdmissionState } from './admission';
import type { ContractReject } from './contract';

/** Which runner writes: the production function per app instance, or a long-running worker. */
export interface RunnerIdentity {
  id: string;
  kind: 'event' | 'worker';
}

export interface RunnerStatusRow {
  runnerId: string;
  runnerKind: 'event' | 'worker';
  workerState: string;
  catchUpState: 'live' | 'catching_up' | 'stalled';
  heartbeatAt: Date | null;
  lastProcessedAt: Date | null;
  lastSourceEventAt: Date | null;
  lastErrorMessage: string | null;
  lagSampledAt: Date | null;
  lagErrorMessage: string | null;
  totalLag: number | null;
  maxTopicLag: number | null;
  lagTopics: unknown;
  lastErrorAt: Date | null;
  updatedAt: Date;
}

/** Stored admission documents written by an older release may lack newer fields. */
export function admissionFrom(value: unknown): AdmissionState {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? { ...INITIAL_ADMISSION, ...(value as Partial<AdmissionState>) }
    : INITIAL_ADMISSION;
}

export function listRunnerStatus(sql: Queryable): Promise<RunnerStatusRow[]> {
  return sql<RunnerStatusRow[]>`
    select runner_id as "runnerId", runner_kind as "runnerKind", worker_state as "workerState",
           catch_up_state as "catchUpState", heartbeat_at as "heartbeatAt", last_processed_at as "lastProcessedAt",
           last_source_event_at as "lastSourceEventAt", last_error_message as "lastErrorMessage",
           lag_sampled_at as "lagSampledAt", lag_error_message as "lagErrorMessage", total_lag as "totalLag",
           max_topic_lag as "maxTopicLag", lag_topics as "lagTopics", last_error_at as "lastErrorAt", updated_at as "updatedAt"
    from ingest_runner_status order by heartbeat_at desc nulls last, runner_id`;
}

/** The admission state of every runner kind that has one. */
export async function listAdmission(sql: Queryable): Promise<Map<RunnerIdentity['kind'], AdmissionState>> {
  const rows = await sql<{ kind: RunnerIdentity['kind']; state: unknown }[]>`select runner_kind as kind, state from ingest_admission`;
  return new Map(rows.map((row) => [row.kind, admissionFrom(row.state)]));
}

/** The admission state shared by a runner kind; `lock` holds it until the transaction ends. */
export async function readAdmission(sql: Queryable, kind: RunnerIdentity['kind'], lock: boolean): Promise<AdmissionState> {
  const [row]: [{ state: unknown }?] = lock
    ? await sql`select state from ingest_admission where runner_kind = ${kind} for update`
    : await sql`select state from ingest_admission where runner_kind = ${kind}`;
  return admissionFrom(row?.state);
}

/** Writes a runner kind's admission state (after `readAdmission(..., lock: true)` in the same transaction). */
export async function writeAdmission(sql: Queryable, kind: RunnerIdentity['kind'], now: Date, state: AdmissionState): Promise<void> {
  await sql`
    insert into ingest_admission (runner_kind, state, updated_at) values (${kind}, ${sql.json(state as never)}, ${now.toISOString()}::timestamptz)
    on conflict (runner_kind) do update set state = excluded.state, updated_at = excluded.updated_at`;
}

/**
 * Progress of a batch that changed no admission state, as a statement (it also runs inside the
 * quiet batch's single statement). Throttled in SQL: it only writes when lastProcessedAt is 30 s
 * old or more, or the runner was marked as failing. Unless `evenIfOpen`, only while the kind's
 * admission state is quiet (otherwise the caller takes the locked path and writes there).
 *
 * The throttle is checked twice. ON CONFLICT DO UPDATE locks the conflicting row before it
 * evaluates its WHERE, so an upsert attempted in every batch would hold the runner's one row
 * until commit and queue every concurrent batch of the instance behind it. The first check, a
 * plain read of the statement's snapshot, attempts the upsert only when the record is due (or
 * missing); the upsert's own WHERE then decides on the newest version of the row, so of two
 * batches due at once only the first writes and the second, after waiting for it, writes nothing.
 */
export function progressThrottledStatement(
  sql: Queryable,
  runner: RunnerIdentity,
  now: Date,
  lastSourceEventAt: Date | null,
  { evenIfOpen = false, enabled = true }: { evenIfOpen?: boolean; enabled?: boolean } = {},
) {
  const at = now.toISOString();
  const source = lastSourceEventAt?.toISOString() ?? null;
  return sql`
    insert into ingest_runner_status as t (runner_id, runner_kind, heartbeat_at, last_processed_at, last_source_event_at, updated_at)
    select ${runner.id}, ${runner.kind}, ${at}::timestamptz, ${at}::timestamptz, ${source}::timestamptz, ${at}::timestamptz
    where ${enabled}::boolean
      and not exists (
        select 1 from ingest_runner_status r
        where r.runner_id = ${runner.id} and r.worker_state = 'running'
          and r.last_processed_at > ${at}::timestamptz - interval '30 seconds')
      and (${evenIfOpen}::boolean or not exists (
      select 1 from ingest_admission a
      where a.runner_kind = ${runner.kind}
        and (a.state->>'admissionState' <> 'none' or a.state->>'sourceDriftState' <> 'none'
             or jsonb_array_length(coalesce(a.state->'recentRejects', '[]'::jsonb)) > 0)))
    on conflict (runner_id) do update set
      last_processed_at = excluded.last_processed_at,
      last_source_event_at = greatest(t.last_source_event_at, excluded.last_source_event_at),
      worker_state = 'running', last_error_message = null, updated_at = excluded.updated_at
    where t.last_processed_at is null
       or t.last_processed_at <= excluded.last_processed_at - interval '30 seconds'
       or t.worker_state <> 'running'
    returning 1`;
}

export async function recordProgressThrottled(
  sql: Queryable,
  runner: RunnerIdentity,
  now: Date,
  lastSourceEventAt: Date | null,
  options: { evenIfOpen?: boolean } = {},
): Promise<boolean> {
  const rows = await progressThrottledStatement(sql, runner, now, lastSourceEventAt, options);
  return rows.count > 0;
}

/** Progress written at once (the batch changed the admission state; that must not wait for the throttle). */
export async function recordProgress(
  sql: Queryable,
  runner: RunnerIdentity,
  now: Date,
  lastSourceEventAt: Date | null,
  processed: boolean,
): Promise<void> {
  const at = now.toISOString();
  const processedAt = processed ? at : null;
  const source = lastSourceEventAt?.toISOString() ?? null;
  await sql`
    insert into ingest_runner_status as t (runner_id, runner_kind, heartbeat_at, last_processed_at, last_source_event_at, updated_at)
    values (${runner.id}, ${runner.kind}, ${at}::timestamptz, ${processedAt}::timestamptz, ${source}::timestamptz, ${at}::timestamptz)
    on conflict (runner_id) do update set
      last_processed_at = coalesce(excluded.last_processed_at, t.last_processed_at),
      last_source_event_at = greatest(t.last_source_event_at, excluded.last_source_event_at),
      worker_state = 'running', last_error_message = null, updated_at = excluded.updated_at`;
}

/** The heartbeat: proves the app runs and reaches the database. */
export async function recordHeartbeat(sql: Queryable, runner: RunnerIdentity, now: Date): Promise<void> {
  const at = now.toISOString();
  await sql`
    insert into ingest_runner_status as t (runner_id, runner_kind, heartbeat_at, updated_at)
    values (${runner.id}, ${runner.kind}, ${at}::timestamptz, ${at}::timestamptz)
    on conflict (runner_id) do update set heartbeat_at = excluded.heartbeat_at, updated_at = excluded.updated_at`;
}

/** A batch failed on infrastructure; best effort, the database may be the thing that is down. */
export async function recordRunnerError(sql: Queryable, runner: RunnerIdentity, now: Date, message: string): Promise<void> {
  const at = now.toISOString();
  await sql`
    insert into ingest_runner_status as t (runner_id, runner_kind, heartbeat_at, worker_state, last_error_message, last_error_at, updated_at)
    values (${runner.id}, ${runner.kind}, ${at}::timestamptz, 'retrying', ${message}, ${at}::timestamptz, ${at}::timestamptz)
    on conflict (runner_id) do update set
      worker_state = 'retrying', last_error_message = excluded.last_error_message, last_error_at = excluded.last_error_at, updated_at = excluded.updated_at`;
}

/** Appends rejects to the log and trims it to the newest `keep` rows younger than `maxAgeDays`. */
export async function logRejects(
  sql: Queryable,
  runner: RunnerIdentity,
  now: Date,
  rejects: readonly (ContractReject & { partitionId: string | null })[],
  { keep, maxAgeDays }: { keep: number; maxAgeDays: number },
): Promise<void> {
  if (!rejects.length) return;
  const at = now.toISOString();
  await sql`
    insert into ingest_contract_reject (rejected_at, runner_id, topic, club_id, entity, reason, detail, partition_id, sequence_number)
    select ${at}::timestamptz, ${runner.id}, u.topic, u.club, u.entity, u.reason, u.detail, u.partition, u.seq
    from unnest(
      ${sql.array(rejects.map((r) => r.topic))}::text[], ${sql.array(rejects.map((r) => r.clubId))}::text[],
      ${sql.array(rejects.map((r) => r.entity))}::text[], ${sql.array(rejects.map((r) => r.reason))}::text[],
      ${sql.array(rejects.map((r) => r.detail))}::text[], ${sql.array(rejects.map((r) => r.partitionId))}::text[],
      ${sql.array(rejects.map((r) => (r.sequence === null ? null : String(r.sequence))))}::int8[]
    ) as u(topic, club, entity, reason, detail, partition, seq)`;
  await sql`
    delete from ingest_contract_reject
    where rejected_at < ${at}::timestamptz - make_interval(days => ${maxAgeDays})
       or id < (select id from ingest_contract_reject order by id desc offset ${keep - 1} limit 1)`;
}

export interface RejectLogEntry {
  rejectedAt: Date;
  topic: string | null;
  clubId: string | null;
  entity: string | null;
  reason: string;
  detail: string;
  partitionId: string | null;
  sequenceNumber: number | null;
}

/** The newest contract rejects; with `vereinsId`, those of that club or on its topics. */
export function listRecentRejects(sql: Queryable, limit: number, vereinsId?: string): Promise<RejectLogEntry[]> {
  const prefix = `club.${vereinsId}.`;
  return sql<RejectLogEntry[]>`
    select rejected_at as "rejectedAt", topic, club_id as "clubId", entity, reason, detail,
           partition_id as "partitionId", sequence_number as "sequenceNumber"
    from ingest_contract_reject
    ${vereinsId === undefined ? sql`` : sql`where club_id = ${vereinsId} or left(topic, ${prefix.length}) = ${prefix}`}
    order by id desc limit ${limit}`;
}
