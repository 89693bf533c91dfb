import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/client';
import { findEdgeTokenByHash, insertEdgeToken, touchEdgeToken } from './edgeTokenRepository';

/** Every edge API token starts with this, so a leaked one is recognisable in scans. */
export const EDGE_TOKEN_PREFIX = 'edge_';
const EDGE_TOKEN_PATTERN = /^edge_[A-Za-z0-9_-]{43}$/;

/** A new edge API token: the prefix and 32 random bytes in base64url. */
export function generateEdgeToken(): string {
  return EDGE_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** True when the value has the shape of an edge API token (cheap check before any lookup). */
export function looksLikeEdgeToken(value: string): boolean {
  return EDGE_TOKEN_PATTERN.test(value);
}

/** SHA-256 of the token as hex: the only form in which a token is stored. */
export function hashEdgeToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Stores a new token for the club and returns its id with the token itself (shown once). */
export async function createEdgeToken(sql: Queryable, clubId: string): Promise<{ id: string; token: string }> {
  const token = generateEdgeToken();
  const id = await insertEdgeToken(sql, clubId, hashEdgeToken(token));
  return { id, token };
}

/** The box a valid edge token belongs to: the service club it is bound to and the token's id. */
export interface EdgeIdentity {
  clubId: string;
  tokenId: string;
}

/**
 * The identity behind an unrevoked edge token, or undefined for anything else. Every accepted
 * token records its last use (throttled in SQL).
 *
 * Hashing before the lookup is the protection: the database compares SHA-256 digests, so the
 * secret itself never meets a variable-time comparison, and timing can at most reveal a prefix of
 * a digest, which says nothing about a token (32 random bytes) that hashes to it. A constant-time
 * compare after a lookup by the same digest would compare a value with itself.
 */
export async function identifyEdgeToken(sql: Queryable, token: string): Promise<EdgeIdentity | undefined> {
  if (!looksLikeEdgeToken(token)) return undefined;
  const row = await findEdgeTokenByHash(sql, hashEdgeToken(token));
  if (!row || row.revokedAt) return undefined;
  await touchEdgeToken(sql, row.id);
  return { clubId: row.clubId, tokenId: row.id };
}
