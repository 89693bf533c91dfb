import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SharedAccessKey {
  name: string;
  key: string;
}

export type TokenCheck = { ok: true; audience: string } | { ok: false; reason: string };

/**
 * Checks a `SharedAccessSignature sr=..&sig=..&se=..&skn=..` token the way Event Hubs does:
 * the key name must match, the token must not have expired and the signature must be the
 * HMAC-SHA256 of the URL-encoded resource and the expiry under the shared key.
 */
export function checkSasToken(token: unknown, key: SharedAccessKey, nowMs: number): TokenCheck {
  if (typeof token !== 'string' || !token.startsWith('SharedAccessSignature '))
    return { ok: false, reason: 'not a shared access signature' };
  const fields = new URLSearchParams(token.slice('SharedAccessSignature '.length));
  const resource = fields.get('sr');
  const signature = fields.get('sig');
  const expiry = Number(fields.get('se'));
  if (!resource || !signature || !Number.isFinite(expiry)) return { ok: false, reason: 'incomplete shared access signature' };
  if (fields.get('skn') !== key.name) return { ok: false, reason: 'unknown key name' };
  if (expiry * 1000 <= nowMs) return { ok: false, reason: 'expired token' };
  const expected = createHmac('sha256', key.key)
    .update(`${encodeURIComponent(resource)}\n${fields.get('se') ?? ''}`)
    .digest();
  const given = Buffer.from(signature, 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature does not match' };
  return { ok: true, audience: resource };
}

/** The entity path a claim covers: `sb://host:port/hub/ConsumerGroups/...` → `hub/ConsumerGroups/...`. */
export function claimPath(audience: string): string {
  try {
    return decodeURIComponent(new URL(audience).pathname)
      .replace(/^\/+|\/+$/g, '')
      .toLowerCase();
  } catch {
    return audience.toLowerCase();
  }
}

/** Whether a claim on `path` allows using `entity` (a namespace claim covers everything). */
export function claimCovers(path: string, entity: string): boolean {
  const target = entity.toLowerCase();
  return path === '' || target === path || target.startsWith(`${path}/`) || path.startsWith(`${target}/`);
}
