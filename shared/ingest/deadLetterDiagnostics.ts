import type { Queryable } from '../db/client';
import { countPendingDeadLetters, listDeadLetters } from './deadLetterRepository';
import type { DeadLetterBlock } from './deadLetterSchema';

/** Dead letters the diagnostics summary lists at most (newest first); the command pages further. */
export const DEAD_LETTERS_LISTED = 20;

/**
 * The deadLetters block of the diagnostics summary (and, with `clubId`, of the club's ingest view):
 * the count still waiting and the newest `limit` records.
 */
export async function deadLetterBlock(sql: Queryable, clubId?: string, limit = DEAD_LETTERS_LISTED): Promise<DeadLetterBlock> {
  const [pending, recent] = await Promise.all([
    countPendingDeadLetters(sql, clubId),
    listDeadLetters(sql, { limit, clubId: clubId ?? null }),
  ]);
  return {
    pending,
    recent: recent.map((entry) => ({
      ...entry,
      sequenceNumber: entry.sequenceNumber === null ? null : Number(entry.sequenceNumber),
      deadAt: entry.deadAt.toISOString(),
      replayedAt: entry.replayedAt?.toISOString() ?? null,
    })),
  };
}
