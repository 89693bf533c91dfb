import * as v from 'valibot';

/** The deadLetters block of the diagnostics summary; without I/O imports, so the portal can take its types. */
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
