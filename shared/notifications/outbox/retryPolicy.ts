/**
 * How often and when a delivery is tried again. Pure. A transient failure (throttling, a 5xx, a
 * network error, the provider unreachable) is retried with exponential backoff, or later when the
 * provider said when (Retry-After); a permanent one (the provider refused the message itself)
 * fails the row at once.
 */

/** Attempts before a row is given up as `failed` with the provider's last reason. */
export const MAX_ATTEMPTS = 5;

/** First wait after a transient failure; doubled per attempt, capped at MAX_BACKOFF_MS. */
export const BASE_BACKOFF_MS = 60_000;
export const MAX_BACKOFF_MS = 6 * 60 * 60_000;

/** How long a claimed row stays invisible to other instances while it is being sent. */
export const CLAIM_LEASE_MS = 10 * 60_000;

export type FailureKind = 'transient' | 'permanent';

/** Why a send did not succeed: `reason` is the provider's code and message, never a secret. */
export class DeliveryFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly reason: string,
    /** The provider's own wait before the next try (a throttling answer's Retry-After), unclamped. */
    readonly retryAfterMs?: number,
  ) {
    super(reason);
    this.name = 'DeliveryFailure';
  }
}

/** The wait before attempt `attempts + 1`, after `attempts` failed ones (1-based). */
export function backoffMs(attempts: number): number {
  const exponent = Math.max(0, Math.min(attempts - 1, 20));
  return Math.min(BASE_BACKOFF_MS * 2 ** exponent, MAX_BACKOFF_MS);
}

export type RetryDecision = { outcome: 'retrying'; retryAt: Date } | { outcome: 'failed' };

/**
 * The wait before the next attempt: the backoff, or the provider's Retry-After when that is
 * longer. Clamped both ways, because the value comes from outside: never shorter than the backoff
 * (a `0`, a past date or a negative number would retry at once and keep a throttled provider
 * busy) and never longer than MAX_BACKOFF_MS (a year-long Retry-After would park the row for good).
 */
export function retryWaitMs(attempts: number, retryAfterMs?: number): number {
  const backoff = backoffMs(attempts);
  if (retryAfterMs === undefined || Number.isNaN(retryAfterMs)) return backoff;
  return Math.min(MAX_BACKOFF_MS, Math.max(backoff, Math.ceil(retryAfterMs)));
}

/** What becomes of a row whose attempt number `attempts` failed; `retryAfterMs` is the provider's hint. */
export function afterFailure(kind: FailureKind, attempts: number, now: Date, retryAfterMs?: number): RetryDecision {
  if (kind === 'permanent' || attempts >= MAX_ATTEMPTS) return { outcome: 'failed' };
  return { outcome: 'retrying', retryAt: new Date(now.getTime() + retryWaitMs(attempts, retryAfterMs)) };
}

/** A reason short enough for the log and the user's delivery list. */
export function boundedReason(reason: string): string {
  const oneLine = reason.replace(/\s+/g, ' ').trim();
  return oneLine.length > 300 ? `${oneLine.slice(0, 297)}...` : oneLine || 'unknown';
}
