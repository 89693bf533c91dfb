import type { Queryable } from '../db/client';

export interface EdgeTokenRow {
  id: string;
  clubId: string;
  tokenHash: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** Stores a token hash for the club; answers the new token's id. */
export async function insertEdgeToken(sql: Queryable, clubId: string, tokenHash: string): Promise<string> {
  const [row]: [{ id: string }?] = await sql`
    insert into edge_token (club_id, token_hash) values (${clubId}, ${tokenHash}) returning id`;
  if (!row) throw new Error('edge_token insert returned no row');
  return row.id;
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
