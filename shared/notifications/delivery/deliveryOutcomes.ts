import type { Queryable } from '../../db/client';
import type { ClaimedRow } from './outboxClaims';

export type Outcome =
  | { kind: 'sent'; providerId: string }
  | { kind: 'retrying'; reason: string; retryAt: Date }
  | { kind: 'failed'; reason: string }
  | { kind: 'skipped'; reason: string };

const STATUS_AFTER = { sent: 'sent', failed: 'failed', skipped: 'cancelled' } as const;

/**
 * Records the outcome of one attempt for rows sent together (one email), in one transaction:
 * the outbox rows move on, and the delivery log gains one line per row. Only rows still holding
 * this attempt's claim are touched, so an instance whose lease ran out cannot overwrite the
 * outcome of the instance that claimed the rows after it.
 */
export async function recordOutcome(sql: Queryable, rows: readonly ClaimedRow[], outcome: Outcome): Promise<number> {
  if (rows.length === 0) return 0;
  const ids = rows.map((row) => row.id);
  const attempts = rows.map((row) => row.attempts);
  const reason = outcome.kind === 'sent' ? null : outcome.reason;
  const providerId = outcome.kind === 'sent' ? outcome.providerId : null;
  const moved: { id: string }[] =
    outcome.kind === 'retrying'
      ? await sql`
          update notification_outbox as o set deliver_after = ${outcome.retryAt}, last_error = ${reason}, updated_at = now()
          from unnest(${ids}::bigint[], ${attempts}::int[]) as held(id, attempts)
          where o.id = held.id and o.attempts = held.attempts and o.status = 'pending'
          returning o.id::text as id`
      : await sql`
          update notification_outbox as o
          set status = ${STATUS_AFTER[outcome.kind]}, last_error = ${reason},
              sent_at = ${outcome.kind === 'sent' ? sql`now()` : null}, updated_at = now()
          from unnest(${ids}::bigint[], ${attempts}::int[]) as held(id, attempts)
          where o.id = held.id and o.attempts = held.attempts and o.status = 'pending'
          returning o.id::text as id`;
  const recorded = new Set(moved.map((row) => row.id));
  const lines = rows
    .filter((row) => recorded.has(row.id))
    .map((row) => ({
      outbox_id: row.id,
      notification_id: row.notificationId,
      user_id: row.userId,
      channel: row.channel,
      attempt: row.attempts,
      outcome: outcome.kind,
      reason,
      provider_id: providerId,
    }));
  if (lines.length > 0) {
    // The inbox entry may have been deleted since the claim; the log line then keeps no link to it.
    await sql`
      insert into notification_delivery_log (outbox_id, notification_id, user_id, channel, attempt, outcome, reason, provider_id)
      select l.outbox_id::bigint, n.id, l.user_id, l.channel, l.attempt, l.outcome, l.reason, l.provider_id
      from jsonb_to_recordset(${sql.json(lines)}) as l(outbox_id text, notification_id text, user_id text, channel text, attempt int,
                                                       outcome text, reason text, provider_id text)
      left join notification n on n.id = l.notification_id`;
  }
  return lines.length;
}
