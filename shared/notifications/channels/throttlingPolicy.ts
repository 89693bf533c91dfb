import type { PipelinePolicy } from '@azure/core-rest-pipeline';
import { retryAfterMs, THROTTLING_STATUSES } from './retryAfter';

/** A throttling answer of an Azure service, with the wait it asked for. */
export class ProviderThrottled extends Error {
  override readonly name = 'ProviderThrottled';
  constructor(
    readonly statusCode: number,
    readonly retryAfterMs: number,
    /** The service's error code (ACS `TooManyRequests`), when its body names one. */
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A per-retry pipeline policy for the delivery clients (Communication Services Email, Notification
 * Hubs). The Azure SDKs' default retry policy waits out a 429 or 503 for as long as its
 * Retry-After says, unbounded, up to three times: a provider asking for an hour would hold the
 * delivery batch (and its claim lease) for hours. This policy sits inside the retry policy and
 * turns such an answer into a ProviderThrottled error, which the retry policy passes on at once
 * (it retries RestErrors only), so the row is parked until the provider's time and the batch goes
 * on. Microsoft recommends the same for the email SDK ("throw an exception when the email sending
 * tier limit is reached"). A 429/503 without any retry header, 5xx and network errors keep the
 * SDK's own short exponential retries.
 */
export function failFastOnThrottling(): PipelinePolicy {
  return {
    name: 'deliveryFailFastOnThrottling',
    async sendRequest(request, next) {
      const response = await next(request);
      if (!THROTTLING_STATUSES.includes(response.status)) return response;
      const wait = retryAfterMs((name) => response.headers.get(name), new Date());
      if (wait === undefined) return response;
      const { code, message } = describe(response.bodyAsText);
      throw new ProviderThrottled(response.status, wait, code, message);
    },
  };
}

/** The service's code and message: ACS answers `{ error: { code, message } }`, Notification Hubs `<Error><Code/><Detail/></Error>`. */
function describe(body: string | null | undefined): { code?: string; message: string } {
  const text = body ?? '';
  try {
    const { error } = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (error && typeof error.code === 'string')
      return { code: error.code, message: typeof error.message === 'string' ? error.message : '' };
  } catch {
    // Not JSON: the hub's XML, or nothing.
  }
  const detail = /<Detail>([^<]*)<\/Detail>/.exec(text)?.[1];
  return { message: detail ?? 'throttled' };
}

/**
 * The wait a failed SDK call's provider asked for: from ProviderThrottled, or from a throttling
 * RestError's response headers (a client built without the policy above, or a retry header the
 * policy let through and the SDK gave up on).
 */
export function throttleHintOf(error: unknown): number | undefined {
  if (error instanceof ProviderThrottled) return error.retryAfterMs;
  const { statusCode, response } = error as { statusCode?: number; response?: { headers?: { get?(name: string): string | undefined } } };
  const headers = response?.headers;
  if (statusCode === undefined || !THROTTLING_STATUSES.includes(statusCode) || typeof headers?.get !== 'function') return undefined;
  return retryAfterMs((name) => headers.get?.(name), new Date());
}

/** The client option that puts the policy in place (EmailClient, NotificationHubsClient). */
export const deliveryClientPolicies = () => ({
  additionalPolicies: [{ policy: failFastOnThrottling(), position: 'perRetry' as const }],
});
