import type { Queryable } from '../db/client';
import type { IncomingMessage } from './contract';
import type { RunnerIdentity } from './statusRepository';

/**
 * The dead-letter record (migration 016): events the database refused for a reason a retry cannot
 * fix. Written by the apply core, listed by the diagnostics and replayed by
 * `npm run ingest:replay-dead-letters`. Every text is cut before it gets here (deadLetters.ts).
 */
/** What the database said and where the event came from: written with a dead letter and listed with it. */
export interface DeadLetterOrigin {
  sqlState: string | null;
  detail: string;
  topic: string | null;
  clubId: string | null;
  entity: string | null;
  partitionId: string | null;
  sequenceNumber: number | null;
}

export interface DeadLetterInput extends DeadLetterOrigin {
  enqueuedAt: Date | null;
  message: Buffer | null;
}

export interface DeadLetterRetention {
  keep: number;
  maxAgeDays: number;
}

export interface DeadLetterEntry extends DeadLetterOrigin {
  id: number;
  deadAt: Date;
  reason: 'apply_failed';
  replayAttempts: number;
  lastReplayError: string | null;
  replayedAt: Date | null;
}

/** Appends dead letters, then trims the record to its newest `keep` rows younger than `maxAgeDays`. */
export async function recordDeadLetters(
  sql: Queryable,
  runner: RunnerIdentity,
  now: Date,
  letters: readonly DeadLetterInput[],
  retention: DeadLetterRetention,
): Promise<void> {
  if (!letters.length) return;
  const at = now.toISOString();
  for (const letter of letters) {
    await sql`
      insert into ingest_dead_letter (dead_at, runner_id, reason, sql_state, detail, topic, club_id, entity, partition_id,
                                      sequence_number, enqueued_at, message)
      values (${at}::timestamptz, ${runner.id}, 'apply_failed', ${letter.sqlState}, ${letter.detail}, ${letter.topic}, ${letter.clubId},
              ${letter.entity}, ${letter.partitionId}, ${letter.sequenceNumber === null ? null : String(letter.sequenceNumber)}::int8,
              ${letter.enqueuedAt?.toISOString() ?? null}::timestamptz, ${letter.message})`;
  }
  await sql`
    delete from ingest_dead_letter
    where dead_at < ${at}::timestamptz - make_interval(days => ${retention.maxAgeDays})
       or id < (select id from ingest_dead_letter order by id desc offset ${retention.keep - 1} limit 1)`;
}

/** One page of dead letters, newest first; `clubId` narrows to one club's. */
export function listDeadLetters(
  sql: Queryable,
  page: { limit: number; beforeId?: number | null; clubId?: string | null; pendingOnly?: boolean },
): Promise<DeadLetterEntry[]> {
  const beforeId = page.beforeId ?? null;
  const clubId = page.clubId ?? null;
  return sql<DeadLetterEntry[]>`
    select id::int as id, dead_at as "deadAt", reason, sql_state as "sqlState", detail, topic, club_id as "clubId", entity,
           partition_id as "partitionId", sequence_number as "sequenceNumber", replay_attempts as "replayAttempts",
           last_replay_error as "lastReplayError", replayed_at as "replayedAt"
    from ingest_dead_letter
    where (${beforeId}::int8 is null or id < ${beforeId}::int8)
      and (${clubId}::text is null or club_id = ${clubId}::text)
      and (not ${page.pendingOnly ?? false}::boolean or replayed_at is null)
    order by id desc limit ${page.limit}`;
}

/** Dead letters not replayed yet; with `clubId`, those of that club. */
export async function countPendingDeadLetters(sql: Queryable, clubId?: string): Promise<number> {
  const [row]: [{ count: number }?] = await sql`
    select count(*)::int as count from ingest_dead_letter
    where replayed_at is null ${clubId === undefined ? sql`` : sql`and club_id = ${clubId}`}`;
  return row?.count ?? 0;
}

/** Pending dead letters in the order they died, with the stored event, for a replay. */
export function pendingDeadLetterMessages(
  sql: Queryable,
  page: { limit: number; afterId: number; id?: number | null },
): Promise<{ id: number; message: Buffer | null; partitionId: string | null; sequenceNumber: number | null; enqueuedAt: Date | null }[]> {
  const only = page.id ?? null;
  return sql`
    select id::int as id, message, partition_id as "partitionId", sequence_number as "sequenceNumber", enqueued_at as "enqueuedAt"
    from ingest_dead_letter
    where replayed_at is null and id > ${page.afterId} and (${only}::int8 is null or id = ${only}::int8)
    order by id limit ${page.limit}`;
}

export async function markReplayed(sql: Queryable, id: number, now: Date): Promise<void> {
  await sql`
    update ingest_dead_letter set replayed_at = ${now.toISOString()}::timestamptz, last_replay_at = ${now.toISOString()}::timestamptz,
           replay_attempts = replay_attempts + 1, last_replay_error = null
    where id = ${id}`;
}

export async function markReplayFailed(sql: Queryable, id: number, now: Date, error: string): Promise<void> {
  await sql`
    update ingest_dead_letter set last_replay_at = ${now.toISOString()}::timestamptz, replay_attempts = replay_attempts + 1,
           last_replay_error = ${error}
    where id = ${id}`;
}

/** IncomingMessage fields the record keeps beside the stored event. */
export type DeadMessagePosition = Pick<IncomingMessage, 'partitionId' | 'sequenceNumber' | 'enqueuedAt'>;
