/**
 * How often and when a delivery is tried again. Pure. A transient failure (throttling, a 5xx, a
 * network error, the provider unreachable) is retried with exponential backoff; a permanent one
 * (the provider refused the message itself) fails the row at once.
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

/** What becomes of a row whose attempt number `attempts` failed. */
export function afterFailure(kind: FailureKind, attempts: number, now: Date): RetryDecision {
  if (kind === 'permanent' || attempts >= MAX_ATTEMPTS) return { outcome: 'failed' };
  return { outcome: 'retrying', retryAt: new Date(now.getTime() + backoffMs(attempts)) };
}

/** A reason short enough for the log and the user's delivery list. */
export function boundedReason(reason: string): string {
  const oneLine = reason.replace(/\s+/g, ' ').trim();
  return oneLine.length > 300 ? `${oneLine.slice(0, 297)}...` : oneLine || 'unknown';
}
