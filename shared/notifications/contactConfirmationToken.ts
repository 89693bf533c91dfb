import { createHash, timingSafeEqual } from 'node:crypto';
import * as v from 'valibot';
import { cursorCodec } from '../paging/cursor';

/**
 * The token of a contact email's confirmation link: the confirmation's id, HMAC-signed with the
 * service's cursor key (shared/paging), so the email channel can write the link again at send time
 * from the id alone and no copy of the token waits in the outbox. The database keeps only the
 * token's SHA-256; a leaked table opens no link.
 */
const tokens = cursorCodec('notifications.contact-confirmation', v.strictObject({ i: v.pipe(v.string(), v.uuid()) }));

export function confirmationToken(confirmationId: string): string {
  return tokens.encode({ i: confirmationId });
}

/** The confirmation a token names; undefined for a token this service did not issue (checked in constant time). */
export function confirmationIdOf(token: string): string | undefined {
  return tokens.decode(token)?.i;
}

/** What is stored of a token. */
export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Whether `token` is the one whose hash was stored, compared in constant time. */
export function matchesStoredHash(token: string, stored: Uint8Array): boolean {
  const hash = tokenHash(token);
  return stored.length === hash.length && timingSafeEqual(hash, stored);
}

/** The member app's page that confirms the address: `base` is the service's public URL. */
export function confirmationUrl(base: string, confirmationId: string): string {
  return `${base.replace(/\/+$/, '')}/app/#/confirm-email?token=${encodeURIComponent(confirmationToken(confirmationId))}`;
}
