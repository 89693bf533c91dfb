import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Invitation codes: 80 random bits in Crockford base32, shown as `XXXX-XXXX-XXXX-XXXX` so a
 * member can read one aloud or type it on a phone. Crockford's alphabet has no I, L, O or U;
 * typing them is forgiven (I and L read as 1, O as 0), as are lower case, dashes and spaces.
 * Only the SHA-256 of the normalised code is stored.
 */

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 16;
const CODE_BYTES = 10;

export function generateInvitationCode(): string {
  const bytes = randomBytes(CODE_BYTES);
  let bits = 0;
  let value = 0;
  let code = '';
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      code += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return code.match(/.{4}/g)?.join('-') ?? code;
}

/** The code as stored (upper case, no separators, Crockford's look-alikes mapped), or undefined when it cannot be a code. */
export function normaliseInvitationCode(input: string): string | undefined {
  const compact = input.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  if (compact.length !== CODE_LENGTH) return undefined;
  for (const char of compact) if (!ALPHABET.includes(char)) return undefined;
  return compact;
}

export function hashInvitationCode(normalised: string): Buffer {
  return createHash('sha256').update(normalised, 'utf8').digest();
}

/** Compares two digests in constant time, so the answer's timing says nothing about how close a guess was. */
export function digestsMatch(stored: Buffer, presented: Buffer): boolean {
  return stored.length === presented.length && timingSafeEqual(stored, presented);
}
