import type { Queryable } from '../db/client';
import type { DeadLetterBlock } from './deadLetterSchema';
import { countPendingDeadLetters, listDeadLetters } from './deadLetterRepository';

/** Dead letters the diagnostics summary lists at most (newest first); the command pages further. */
export const DEAD_LETTERS_LISTED = 20;

export { DeadLetterBlockSchema, type DeadLetterBlock } from './deadLetterSchema';

/** The diagnostics summary's deadLetters block: the count still waiting and the newest records. */
export async function deadLetterBlock(sql: Queryable): Promise<DeadLetterBlock> {
  const [pending, recent] = await Promise.all([countPendingDeadLetters(sql), listDeadLetters(sql, { limit: DEAD_LETTERS_LISTED })]);
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
