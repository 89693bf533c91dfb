import type { Sql } from '../../db/client';
import type { Logger } from '../../log/logger';
import { recordOutcomes } from './deliveryOutcomes';
import { claimDue } from './outboxClaims';
import type { OutboxChannel } from './outboxChannel';
import { CLAIM_LEASE_MS } from './retryPolicy';

export interface DrainOptions {
  now?: () => Date;
  /** Rows claimed per round. */
  batch?: number;
  /** Rounds per run, so one invocation ends even while producers keep the outbox full. */
  maxRounds?: number;
  log?: Logger;
}

/** What one run did: messages attempted, and the rows recorded per outcome. */
export interface DrainRun {
  messages: number;
  sent: number;
  retrying: number;
  failed: number;
  skipped: number;
}

/**
 * Sends the due rows of one channel: claims a batch, lets the channel send it, records every
 * outcome of the batch in one statement, and repeats until nothing is due or maxRounds is
 * reached. Several instances may run at once: a row is claimed by one of them only, and an
 * outcome is recorded only while its row still holds this attempt's claim.
 */
export async function drainOutbox(sql: Sql, channel: OutboxChannel, options: DrainOptions): Promise<DrainRun> {
  const now = options.now ?? (() => new Date());
  const run: DrainRun = { messages: 0, sent: 0, retrying: 0, failed: 0, skipped: 0 };
  for (let round = 0; round < (options.maxRounds ?? 20); round++) {
    const rows = await claimDue(sql, channel.name, now(), options.batch ?? 200, CLAIM_LEASE_MS);
    if (rows.length === 0) break;
    const attempts = await channel.deliver(sql, rows, now);
    const recorded = await recordOutcomes(sql, attempts);
    for (const [index, { rows, outcome }] of attempts.entries()) {
      run.messages++;
      run[outcome.kind] += recorded[index] ?? 0;
      if (outcome.kind !== 'sent')
        options.log?.warn(`notification_${channel.name}_not_sent`, { outcome: outcome.kind, reason: outcome.reason, rows: rows.length });
    }
  }
  return run;
}
