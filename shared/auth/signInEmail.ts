import type { JWTPayload } from 'jose';

/** At most what any mailbox address may be (RFC 5321's path limit), as user_contact holds. */
const MAX_EMAIL_LENGTH = 254;
// One @ with text on both sides, no white space or control characters: the address is offered
// to the member as is and may become their contact address without a confirmation email.
const ADDRESS = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u;

/**
 * The address the identity provider vouches for: the token's `email` claim when its
 * `email_verified` claim is true, else undefined (a claimed but unverified address proves nothing).
 */
export function verifiedEmailOf(payload: JWTPayload): string | undefined {
  const email = payload['email'];
  if (payload['email_verified'] !== true || typeof email !== 'string') return undefined;
  return email.length <= MAX_EMAIL_LENGTH && ADDRESS.test(email) ? email : undefined;
}
