import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/client';

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

export interface EdgeTokenRow {
  id: string;
  clubId: string;
  tokenHash: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** Stores a new token for the club and returns its id with the token itself (shown once). */
export async function createEdgeToken(sql: Queryable, clubId: string): Promise<{ id: string; token: string }> {
  const token = generateEdgeToken();
  const [row] = await sql<{ id: string }[]>`
    insert into edge_token (club_id, token_hash) values (${clubId}, ${hashEdgeToken(token)}) returning id`;
  return { id: row!.id, token };
}

/** The token row with this hash, revoked or not. */
export async function findEdgeTokenByHash(sql: Queryable, tokenHash: string): Promise<EdgeTokenRow | undefined> {
  const [row]: [EdgeTokenRow?] = await sql`
    select id, club_id as "clubId", token_hash as "tokenHash", created_at as "createdAt",
           revoked_at as "revokedAt", last_used_at as "lastUsedAt"
    from edge_token where token_hash = ${tokenHash}`;
  return row;
}

/**
 * Records that the token was used. Writes at most once a minute per token, so a busy box does
 * not turn every request into a row update.
 */
export async function touchEdgeToken(sql: Queryable, tokenId: string): Promise<void> {
  await sql`
    update edge_token set last_used_at = now()
    where id = ${tokenId} and (last_used_at is null or last_used_at < now() - interval '1 minute')`;
}

/** Revokes a token; returns false when there is no such unrevoked token. */
export async function revokeEdgeToken(sql: Queryable, tokenId: string): Promise<boolean> {
  const rows = await sql`update edge_token set revoked_at = now() where id = ${tokenId} and revoked_at is null returning id`;
  return rows.length === 1;
}

export interface EdgeTokenSummary {
  id: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** The club's tokens without any secret material, newest first. */
export async function listEdgeTokens(sql: Queryable, clubId: string): Promise<EdgeTokenSummary[]> {
  return sql<EdgeTokenSummary[]>`
    select id, created_at as "createdAt", revoked_at as "revokedAt", last_used_at as "lastUsedAt"
    from edge_token where club_id = ${clubId} order by created_at desc, id`;
}
