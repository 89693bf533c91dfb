import type { Queryable, Sql } from '../../db/client';
import type { Digest } from '../deliveryDecision';
import type { TextParameters } from '../../i18n/catalogue';
import type { Category, Tone } from '../record';

/** One outbox row a worker instance holds while it sends it. */
export interface ClaimedRow {
  id: string;
  notificationId: string | null;
  userId: string;
  channel: 'email' | 'push';
  title: string;
  body: string | null;
  /** The catalogue message, rendered in the recipient's language at send time (null: title and body as stored). */
  messageKey: string | null;
  messageParams: TextParameters | null;
  tone: Tone;
  category: Category | null;
  digest: Digest | null;
  /** When the row was due (its deliver_after before the claim); digest rows of one summary share it. */
  dueAt: Date;
  /** Set for the email with a contact confirmation link (outboxRepository.ts, enqueueConfirmationEmail). */
  contactConfirmationId: string | null;
  /** This attempt's number, 1-based. */
  attempts: number;
}

type RowFields = Omit<ClaimedRow, 'attempts'>;

const FIELDS = (sql: Queryable) => sql`
  id::text as id, notification_id as "notificationId", user_id as "userId", channel, title, body,
  message_key as "messageKey", message_params as "messageParams", tone, category, digest,
  deliver_after as "dueAt", contact_confirmation_id as "contactConfirmationId"`;

/** Claims due email rows; see claimDue. */
export function claimDueEmails(sql: Sql, now: Date, batch: number, leaseMs: number): Promise<ClaimedRow[]> {
  return claimDue(sql, 'email', now, batch, leaseMs);
}

/**
 * Claims up to `batch` due rows of one channel, oldest first, and the rest of every summary they
 * belong to (a summary is one email however the batch cut it). Rows another instance holds are skipped
 * (`for update skip locked`); a claimed row's deliver_after moves `leaseMs` ahead, so no other
 * instance sees it as due until this one records the outcome or crashes and the lease runs out.
 */
export async function claimDue(sql: Sql, channel: 'email' | 'push', now: Date, batch: number, leaseMs: number): Promise<ClaimedRow[]> {
  return sql.begin(async (tx) => {
    const due: RowFields[] = await dueRowsStatement(tx, channel, now, batch);
    if (due.length === 0) return [];
    const summaries = new Map<string, RowFields>();
    for (const row of due) if (row.digest) summaries.set(summaryKey(row), row);
    let siblings: RowFields[] = [];
    if (summaries.size > 0) {
      const groups = [...summaries.values()];
      siblings = await tx`
        select ${FIELDS(sql)} from notification_outbox
        where status = 'pending' and channel = ${channel}
          and (user_id, digest, deliver_after) in (
            select * from unnest(${groups.map((row) => row.userId)}::text[], ${groups.map((row) => row.digest)}::text[],
                                 ${groups.map((row) => row.dueAt.toISOString())}::timestamptz[]))
          and id <> all(${due.map((row) => row.id)}::bigint[])
        for update skip locked`;
    }
    // Oldest first, whichever query claimed a row: a summary's sibling can be one the first query
    // skipped while another transaction held it, and a summary lists its rows in the order they were queued.
    const rows = [...due, ...siblings].sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || Number(a.id) - Number(b.id));
    const claimed: { id: string; attempts: number }[] = await tx`
      update notification_outbox
      set attempts = attempts + 1, deliver_after = ${new Date(now.getTime() + leaseMs)}, updated_at = now()
      where id = any(${rows.map((row) => row.id)}::bigint[])
      returning id::text as id, attempts`;
    const attemptsOf = new Map(claimed.map((row) => [row.id, row.attempts]));
    return rows.map((row) => ({ ...row, attempts: attemptsOf.get(row.id) ?? 1 }));
  });
}

/**
 * The claim's first statement: the channel's due rows, oldest first, in the order of
 * notification_outbox_due_channel_idx. A statement of its own so that the delivery bench can
 * EXPLAIN exactly what the worker runs (bench/delivery.bench.ts).
 */
export function dueRowsStatement(sql: Queryable, channel: 'email' | 'push', now: Date, batch: number) {
  // The order names the table's columns: a bare `id` in ORDER BY is the output column `id::text`,
  // an order no index gives, so every claim sorted all due rows (and put id 1000 before id 402).
  return sql<RowFields[]>`
    select ${FIELDS(sql)} from notification_outbox
    where status = 'pending' and channel = ${channel} and deliver_after <= ${now}
    order by notification_outbox.deliver_after, notification_outbox.id
    limit ${batch}
    for update skip locked`;
}

/** Rows sent as one email: a summary's rows together, every other row alone. */
export function summaryKey(row: Pick<ClaimedRow, 'userId' | 'digest' | 'dueAt'>): string {
  return `${row.userId}\n${row.digest}\n${row.dueAt.toISOString()}`;
}
