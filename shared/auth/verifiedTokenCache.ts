import { hash } from 'node:crypto';

/**
 * Tokens that passed verification, by the SHA-256 of the token (never the token itself), until
 * their own expiry: a user's client sends the same bearer token on every call for its lifetime,
 * and verifying it again (parsing, signature, claims) was a tenth of the request path's own work
 * under load. Bounded: the least recently used entry goes first once `capacity` is reached, so a
 * caller sending endless distinct valid tokens cannot grow it. Refusals are never cached.
 */
export class VerifiedTokenCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAtMs: number }>();
  /** The key last inserted, the end of the recency order. */
  private newest: string | undefined;

  constructor(private readonly capacity: number) {}

  get(token: string): T | undefined {
    const key = keyOf(token);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAtMs <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // Re-inserted so that Map order is recency order; the most recent entry (a user's next call
    // in a row) is already in place.
    if (key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.newest = key;
    }
    return entry.value;
  }

  set(token: string, value: T, expiresAtMs: number): void {
    if (this.capacity <= 0 || expiresAtMs <= Date.now()) return;
    const key = keyOf(token);
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAtMs });
    this.newest = key;
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

// The one-shot digest: a Hash object per request cost more than the digest of a short token.
function keyOf(token: string): string {
  return hash('sha256', token, 'base64');
}
