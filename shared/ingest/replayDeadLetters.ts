import type { Sql } from '../db/client';
import { isTransient } from '../db/errors';
import { applyOrThrow, type ApplyOptions } from './apply';
import { markReplayed, markReplayFailed, pendingDeadLetterMessages } from './deadLetterRepository';
import { decodeDeadMessage, errorDetail } from './deadLetters';

/**
 * Replays pending dead letters through the apply core once their cause is fixed
 * (docs/runbook-ingest.md, "Dead letters"), oldest first, one event at a time: an applied event is
 * marked replayed; one the database still refuses, or the contract now rejects, stays pending with
 * the error of this attempt. Replays are safe to repeat: the upserts are guarded by position, so an
 * event older than what its row holds changes nothing. A transient failure stops the run.
 */
export interface ReplayOptions {
  apply: ApplyOptions;
  /** Only this dead letter. */
  id?: number | null;
  /** At most this many dead letters in one run. */
  limit: number;
  now?: () => Date;
}

export interface ReplaySummary {
  replayed: number;
  failed: number;
  /** Recorded without the event's content (larger than the cap): replay those from the hub by position. */
  withoutContent: number;
}

const PAGE = 100;

export async function replayDeadLetters(sql: Sql, options: ReplayOptions): Promise<ReplaySummary> {
  const now = options.now ?? (() => new Date());
  const summary: ReplaySummary = { replayed: 0, failed: 0, withoutContent: 0 };
  let afterId = 0;
  let left = options.limit;
  while (left > 0) {
    const page = await pendingDeadLetterMessages(sql, { limit: Math.min(PAGE, left), afterId, id: options.id ?? null });
    if (!page.length) break;
    for (const letter of page) {
      afterId = letter.id;
      left -= 1;
      if (!letter.message) {
        summary.withoutContent += 1;
        await markReplayFailed(
          sql,
          letter.id,
          now(),
          'event content not kept (over 64 KiB): replay it from the hub by partition and sequence number',
        );
        continue;
      }
      try {
        const message = decodeDeadMessage(letter.message, {
          partitionId: letter.partitionId,
          sequenceNumber: letter.sequenceNumber === null ? null : Number(letter.sequenceNumber),
          enqueuedAt: letter.enqueuedAt,
        });
        const outcome = await applyOrThrow(sql, [message], options.apply);
        const [reason] = Object.keys(outcome.rejectReasons);
        if (reason) {
          summary.failed += 1;
          await markReplayFailed(sql, letter.id, now(), `refused by the contract: ${reason}`);
        } else {
          summary.replayed += 1;
          await markReplayed(sql, letter.id, now());
        }
      } catch (error) {
        if (isTransient(error)) throw error;
        summary.failed += 1;
        await markReplayFailed(sql, letter.id, now(), errorDetail(error));
      }
    }
  }
  return summary;
}
