import type { Queryable } from '../../db/client';
import type { ClaimedRow } from './outboxClaims';

export type Outcome =
  | { kind: 'sent'; providerId: string }
  | { kind: 'retrying'; reason: string; retryAt: Date }
  | { kind: 'failed'; reason: string }
  | { kind: 'skipped'; reason: string };

/** The outcome of one attempt for rows sent together (one email, one push). */
export interface Attempt {
  rows: readonly ClaimedRow[];
  outcome: Outcome;
}

const STATUS_AFTER = { sent: 'sent', retrying: 'pending', failed: 'failed', skipped: 'cancelled' } as const;

/**
 * Records the outcomes of a batch's attempts in one statement: the outbox rows move on, and the
 * delivery log gains one line per row. One UPDATE … FROM unnest and its INSERT per batch rather
 * than two statements per message: the per-message round trips were most of what the worker's
 * database side cost. Only rows still holding this attempt's claim are touched (same id, same
 * attempt number, still pending), so an instance whose lease ran out cannot overwrite the outcome
 * of the instance that claimed the rows after it. Answers, per attempt, how many rows it recorded.
 */
export async function recordOutcomes(sql: Queryable, attempts: readonly Attempt[]): Promise<number[]> {
  const rows = attempts.flatMap(({ rows, outcome }) => rows.map((row) => ({ row, outcome })));
  if (rows.length === 0) return attempts.map(() => 0);
  const column = <T>(pick: (entry: (typeof rows)[number]) => T) => rows.map(pick);
  const recorded: { id: string }[] = await sql`
    with held as (
      select * from unnest(
        ${column(({ row }) => row.id)}::bigint[],
        ${column(({ row }) => row.attempts)}::int[],
        ${column(({ outcome }) => outcome.kind)}::text[],
        ${column(({ outcome }) => STATUS_AFTER[outcome.kind])}::text[],
        ${column(({ outcome }) => (outcome.kind === 'sent' ? null : outcome.reason))}::text[],
        ${column(({ outcome }) => (outcome.kind === 'sent' ? outcome.providerId : null))}::text[],
        ${column(({ outcome }) => (outcome.kind === 'retrying' ? outcome.retryAt.toISOString() : null))}::timestamptz[]
      ) as h(id, attempts, outcome, status, reason, provider_id, retry_at)
    ),
    moved as (
      update notification_outbox as o
      set status = h.status, last_error = h.reason,
          deliver_after = coalesce(h.retry_at, o.deliver_after),
          sent_at = case h.status when 'sent' then now() when 'pending' then o.sent_at end,
          updated_at = now()
      from held h
      where o.id = h.id and o.attempts = h.attempts and o.status = 'pending'
      returning o.id, o.notification_id, o.user_id, o.channel, h.attempts, h.outcome, h.reason, h.provider_id
    )
    -- The inbox entry may have been deleted since the claim; the log line then keeps no link to it.
    insert into notification_delivery_log (outbox_id, notification_id, user_id, channel, attempt, outcome, reason, provider_id)
    select m.id, n.id, m.user_id, m.channel, m.attempts, m.outcome, m.reason, m.provider_id
    from moved m left join notification n on n.id = m.notification_id
    returning outbox_id::text as id`;
  const done = new Set(recorded.map((row) => row.id));
  return attempts.map(({ rows }) => rows.filter((row) => done.has(row.id)).length);
}
