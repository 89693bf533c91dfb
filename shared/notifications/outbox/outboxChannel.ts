import type { Sql } from '../../db/client';
import type { Attempt } from './deliveryOutcomes';
import type { ClaimedRow } from './outboxClaims';

/** The outbox's `channel` column: the channels a delivery is queued for. */
export type OutboxChannelName = 'email' | 'push';

/**
 * A channel as the outbox drives it (drainOutbox.ts): given a claimed batch of its rows, it sends
 * them (grouped into messages as it sees fit) and answers one attempt per message. A failure of
 * one message is that attempt's outcome, never a rejection: the others' outcomes must be recorded.
 */
export interface OutboxChannel {
  readonly name: OutboxChannelName;
  deliver(sql: Sql, rows: readonly ClaimedRow[], now: () => Date): Promise<Attempt[]>;
}
