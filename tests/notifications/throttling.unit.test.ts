import { retryAfterMs } from '../../shared/notifications/channels/retryAfter';
import { afterFailure, backoffMs, MAX_ATTEMPTS, MAX_BACKOFF_MS } from '../../shared/notifications/outbox/retryPolicy';

const NOW = new Date('2026-03-10T09:00:00.000Z');
const headers = (values: Record<string, string | undefined>) => (name: string) => values[name];

describe('reading a throttling answer (Retry-After and the Azure millisecond headers)', () => {
  it.each([
    { name: 'delay-seconds', given: { 'retry-after': '120' }, wait: 120_000 },
    { name: 'zero seconds', given: { 'retry-after': '0' }, wait: 0 },
    { name: 'spaces around', given: { 'retry-after': ' 30 ' }, wait: 30_000 },
    {
      name: 'an HTTP-date, against the response Date',
      given: { 'retry-after': 'Tue, 10 Mar 2026 09:05:00 GMT', date: 'Tue, 10 Mar 2026 09:04:00 GMT' },
      wait: 60_000,
    },
    { name: 'an HTTP-date without a Date header, against now', given: { 'retry-after': 'Tue, 10 Mar 2026 09:02:30 GMT' }, wait: 150_000 },
    { name: 'an HTTP-date in the past', given: { 'retry-after': 'Tue, 10 Mar 2026 08:00:00 GMT' }, wait: 0 },
    { name: 'retry-after-ms first', given: { 'retry-after-ms': '1500', 'retry-after': '60' }, wait: 1500 },
    { name: 'x-ms-retry-after-ms', given: { 'x-ms-retry-after-ms': '250' }, wait: 250 },
    {
      name: 'an unreadable millisecond header falls back to Retry-After',
      given: { 'retry-after-ms': 'soon', 'retry-after': '5' },
      wait: 5000,
    },
    { name: 'an absurd number is read as it is (clamped later)', given: { 'retry-after': '99999999999' }, wait: 99_999_999_999_000 },
    { name: 'none', given: {}, wait: undefined },
    { name: 'a negative number', given: { 'retry-after': '-5' }, wait: undefined },
    { name: 'a fraction of seconds', given: { 'retry-after': '1.5' }, wait: undefined },
    { name: 'words', given: { 'retry-after': 'later, please' }, wait: undefined },
    { name: 'empty', given: { 'retry-after': '' }, wait: undefined },
  ])('$name', ({ given, wait }) => {
    expect(retryAfterMs(headers(given), NOW)).toBe(wait);
  });
});

describe('the retry decision with the provider hint (pure)', () => {
  const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
  it.each([
    { name: 'no hint: the backoff', kind: 'transient' as const, attempts: 1, hint: undefined, retryAt: at(backoffMs(1)) },
    { name: 'a hint longer than the backoff wins', kind: 'transient' as const, attempts: 1, hint: 300_000, retryAt: at(300_000) },
    {
      name: 'a hint shorter than the backoff: the backoff',
      kind: 'transient' as const,
      attempts: 3,
      hint: 5_000,
      retryAt: at(backoffMs(3)),
    },
    { name: 'zero does not retry at once', kind: 'transient' as const, attempts: 1, hint: 0, retryAt: at(backoffMs(1)) },
    {
      name: 'a negative hint does not retry at once',
      kind: 'transient' as const,
      attempts: 2,
      hint: -86_400_000,
      retryAt: at(backoffMs(2)),
    },
    {
      name: 'days are clamped to the longest backoff',
      kind: 'transient' as const,
      attempts: 1,
      hint: 30 * 86_400_000,
      retryAt: at(MAX_BACKOFF_MS),
    },
    { name: 'infinity is clamped', kind: 'transient' as const, attempts: 1, hint: Infinity, retryAt: at(MAX_BACKOFF_MS) },
    { name: 'NaN is ignored', kind: 'transient' as const, attempts: 1, hint: NaN, retryAt: at(backoffMs(1)) },
    { name: 'a fraction of a millisecond rounds up', kind: 'transient' as const, attempts: 1, hint: 60_000.2, retryAt: at(60_001) },
    { name: 'the last attempt fails whatever the hint', kind: 'transient' as const, attempts: MAX_ATTEMPTS, hint: 1000, retryAt: null },
    { name: 'a permanent failure fails whatever the hint', kind: 'permanent' as const, attempts: 1, hint: 1000, retryAt: null },
  ])('$name', ({ kind, attempts, hint, retryAt }) => {
    const decision = afterFailure(kind, attempts, NOW, hint);
    if (retryAt === null) expect(decision).toEqual({ outcome: 'failed' });
    else expect(decision).toEqual({ outcome: 'retrying', retryAt: new Date(retryAt) });
  });
});
