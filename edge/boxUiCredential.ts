import { randomBytes, scrypt, timingSafeEqual, type BinaryLike, type ScryptOptions } from 'node:crypto';

/**
 * The box UI's password, kept on the box only as a salted scrypt hash
 * (`scrypt$<N>$<r>$<p>$<salt>$<hash>`, base64url) in SVC_BOX_UI_PASSWORD_HASH: the .env never
 * holds the password, and a stolen .env does not give it away cheaply.
 */
const PARAMETERS = { N: 16_384, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
/** The shortest password the hash command accepts: the UI can change the club's data sharing. */
export const MIN_PASSWORD_LENGTH = 12;
const FORMAT = /^scrypt\$(\d{1,7})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{43})$/;

export interface PasswordHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

/** Reads a stored hash; undefined when it is not one this module wrote (or its cost is out of range). */
export function parsePasswordHash(text: string): PasswordHash | undefined {
  const match = FORMAT.exec(text.trim());
  if (!match) return undefined;
  const [, cost, blocks, parallel, salt = '', key = ''] = match;
  const [N, r, p] = [Number(cost), Number(blocks), Number(parallel)];
  // A power of two within what a small box computes in well under a second.
  if (N < 1024 || N > 1_048_576 || (N & (N - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 4) return undefined;
  return { N, r, p, salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') };
}

export async function hashPassword(password: string): Promise<string> {
  if (password.length < MIN_PASSWORD_LENGTH) throw new Error(`The password must have at least ${MIN_PASSWORD_LENGTH} characters.`);
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMETERS);
  return ['scrypt', PARAMETERS.N, PARAMETERS.r, PARAMETERS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches the hash; the comparison takes the same time wherever they differ. */
export async function verifyPassword(hash: PasswordHash, password: string): Promise<boolean> {
  // Bounded work: an attacker cannot make scrypt hash megabytes.
  if (password.length === 0 || password.length > 1024) return false;
  const key = await derive(password, hash.salt, hash);
  return key.length === hash.key.length && timingSafeEqual(key, hash.key);
}

function derive(password: BinaryLike, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}
