import type { Duration, RetryOptions } from '@azure/functions';

/**
 * The wait before retry number `retry` (1 for the first retry) under a function's retry
 * policy, or undefined when the policy allows no more tries (`maxRetryCount` -1: no limit).
 * Exponential backoff doubles from the minimum interval up to the maximum, as the host does
 * (without its random spread, so local runs are repeatable).
 */
export function retryDelayMs(policy: RetryOptions, retry: number): number | undefined {
  if (policy.maxRetryCount !== -1 && retry > policy.maxRetryCount) return undefined;
  if (policy.strategy === 'fixedDelay') return durationMs(policy.delayInterval);
  const minimum = durationMs(policy.minimumInterval);
  const maximum = durationMs(policy.maximumInterval);
  return Math.min(maximum, minimum * 2 ** Math.min(retry - 1, 30));
}

export function durationMs(duration: Duration | number): number {
  if (typeof duration === 'number') return duration;
  return ((duration.hours ?? 0) * 3600 + (duration.minutes ?? 0) * 60 + (duration.seconds ?? 0)) * 1000 + (duration.milliseconds ?? 0);
}
