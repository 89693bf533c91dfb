/**
 * A provider's throttling answer read as a wait. Pure (the clock is passed in). The value is the
 * provider's and unclamped; afterFailure (retryPolicy.ts) bounds it.
 */

/** Statuses whose Retry-After means "throttled, come back then" (RFC 9110 §10.2.3; RFC 6585 §4). */
export const THROTTLING_STATUSES: readonly number[] = [429, 503];

/** Milliseconds headers some Azure services send beside Retry-After; read first, as the Azure SDKs do. */
const MILLISECOND_HEADERS = ['retry-after-ms', 'x-ms-retry-after-ms'];

/**
 * The wait in milliseconds that the headers ask for, or undefined when they ask for none or say
 * nothing readable. `Retry-After` is delay-seconds or an HTTP-date; a date is measured against the
 * response's own `Date` when it has one (the provider's clock, so a skewed local clock does not
 * shift the wait), else against `now`.
 */
export function retryAfterMs(header: (name: string) => string | null | undefined, now: Date): number | undefined {
  for (const name of MILLISECOND_HEADERS) {
    const value = header(name)?.trim();
    if (value && /^\d+(\.\d+)?$/.test(value)) return Number(value);
  }
  const value = header('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP-date names a weekday and a month; a bare number or a sign is not one (Date.parse reads "-5" as a year).
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (!Number.isFinite(at)) return undefined;
  const providerNow = Date.parse(header('date') ?? '');
  return Math.max(0, at - (Number.isFinite(providerNow) ? providerNow : now.getTime()));
}

/** Node's lower-cased header object (`IncomingHttpHeaders`, web-push's WebPushError.headers) as a lookup. */
export function headerLookup(headers: Record<string, string | string[] | undefined> | undefined) {
  return (name: string): string | undefined => {
    const value = headers?.[name];
    return Array.isArray(value) ? value[0] : value;
  };
}
