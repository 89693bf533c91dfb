/** First retry delay after a failed run; doubled per further failure, never beyond the interval. */
export const FIRST_RETRY_SECONDS = 60;

/**
 * Seconds until the next run: the push interval after a success, otherwise a delay that doubles
 * with each consecutive failure (60, 120, 240, ...) and is capped at the interval.
 */
export function nextRunDelaySeconds(intervalSeconds: number, consecutiveFailures: number): number {
  if (consecutiveFailures <= 0) return intervalSeconds;
  const exponent = Math.min(consecutiveFailures - 1, 30);
  return Math.min(intervalSeconds, FIRST_RETRY_SECONDS * 2 ** exponent);
}
