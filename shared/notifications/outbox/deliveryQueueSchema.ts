import * as v from 'valibot';

/** The delivery block of the diagnostics summary (deliveryQueueSummary): queue depth, oldest due row, failures by reason. */
export const DeliveryQueueSummarySchema = v.object({
  /** Pending rows due now, every channel. */
  due: v.number(),
  /** Every pending row, due or held (summaries, quiet hours, retries). */
  pending: v.number(),
  /** The oldest pending row already due: a value far in the past means the delivery timer is not draining. */
  oldestDueAt: v.nullable(v.string()),
  /** The same per outbox channel (`email`, `push`) that has pending rows, by channel name. */
  byChannel: v.array(
    v.object({
      channel: v.string(),
      pending: v.number(),
      due: v.number(),
      oldestDueAt: v.nullable(v.string()),
    }),
  ),
  /** Failed deliveries of the last 24 hours by reason, most frequent first (at most 20 reasons). */
  failuresByReason: v.array(v.object({ reason: v.string(), count: v.number() })),
  /** Every attempt of the last 24 hours by channel, outcome (sent, retrying, failed, skipped) and reason. */
  outcomes: v.array(
    v.object({
      channel: v.string(),
      outcome: v.picklist(['sent', 'retrying', 'failed', 'skipped']),
      reason: v.nullable(v.string()),
      count: v.number(),
    }),
  ),
});
export type DeliveryQueueBlock = v.InferOutput<typeof DeliveryQueueSummarySchema>;
