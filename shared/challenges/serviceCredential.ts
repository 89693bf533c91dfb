import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Every credential of the personalization service starts with this, so a leaked one is recognisable. */
export const SERVICE_TOKEN_PREFIX = 'chsvc_';
const SERVICE_TOKEN_PATTERN = /^chsvc_[A-Za-z0-9_-]{43}$/;

export function generateServiceToken(): string {
  return SERVICE_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export function hashServiceToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Whether the token hashes to one of the configured digests. The digests are compared with
 * timingSafeEqual, every configured one every time, so neither the position of a first
 * differing byte nor which digest matched shows in the timing.
 */
export function serviceTokenMatches(token: string, configured: string | undefined): boolean {
  if (!configured || !SERVICE_TOKEN_PATTERN.test(token)) return false;
  const presented = Buffer.from(hashServiceToken(token), 'hex');
  let matched = false;
  for (const digest of configured.split(',')) {
    const expected = Buffer.from(digest, 'hex');
    if (expected.length === presented.length && timingSafeEqual(expected, presented)) matched = true;
  }
  return matched;
}
