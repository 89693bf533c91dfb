import * as v from 'valibot';
import type { Queryable } from '../db/client';
import { countPendingDeadLetters, listDeadLetters } from './deadLetterRepository';

/** Dead letters the diagnostics summary lists at most (newest first); the command pages further. */
export const DEAD_LETTERS_LISTED = 20;

const timestamp = v.nullable(v.pipe(v.string(), v.isoTimestamp()));
const text = v.nullable(v.string());

export const DeadLetterBlockSchema = v.object({
  /** Dead letters not replayed yet (the record keeps INGEST_DEAD_LETTER_MAX rows at most). */
  pending: v.number(),
  recent: v.array(
    v.object({
      id: v.number(),
      deadAt: v.pipe(v.string(), v.isoTimestamp()),
      reason: v.literal('apply_failed'),
      sqlState: text,
      detail: v.string(),
      topic: text,
      clubId: text,
      entity: text,
      partitionId: text,
      sequenceNumber: v.nullable(v.number()),
      replayAttempts: v.number(),
      lastReplayError: text,
      replayedAt: timestamp,
    }),
  ),
});
export type DeadLetterBlock = v.InferOutput<typeof DeadLetterBlockSchema>;

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
