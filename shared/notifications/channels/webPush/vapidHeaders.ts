/** The sender's VAPID identity (RFC 8292). */
export interface VapidKeys {
  /** `mailto:` or `https:` contact the push services may reach the sender at (RFC 8292). */
  subject: string;
  publicKey: string;
  privateKey: string;
}

/** Lifetime of a signed VAPID token; RFC 8292 allows at most 24 hours. */
export const VAPID_TOKEN_SECONDS = 12 * 3600;
/** A token this close to its expiry is signed anew, so that none expires on its way to the push service. */
export const VAPID_RENEW_BEFORE_SECONDS = 3600;

type Sign = (audience: string, vapid: VapidKeys, expiration: number) => string;

/**
 * The `Authorization` header of Web Push requests, one signed token per push service origin (the
 * token's audience) reused until it nears its expiry, as long-running senders do: the ES256
 * signature was a third of what a push cost the sender when made per message. The token names
 * only the origin, the sender's contact and the expiry, so reusing it reveals nothing more.
 */
export function vapidHeaderCache(vapid: VapidKeys, sign: Sign, now: () => number = Date.now) {
  const byAudience = new Map<string, { header: string; expiresAt: number }>();
  return (endpoint: string): string => {
    const audience = new URL(endpoint).origin;
    const seconds = Math.floor(now() / 1000);
    const cached = byAudience.get(audience);
    if (cached && cached.expiresAt - seconds > VAPID_RENEW_BEFORE_SECONDS) return cached.header;
    const expiresAt = seconds + VAPID_TOKEN_SECONDS;
    const header = sign(audience, vapid, expiresAt);
    byAudience.set(audience, { header, expiresAt });
    return header;
  };
}
