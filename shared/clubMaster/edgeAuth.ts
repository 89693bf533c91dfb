import { getSql } from '../db/client';
import { bearerToken, type Guard } from '../http/guards';
import { unauthorized } from '../http/problem';
import { findEdgeTokenByHash, hashEdgeToken, looksLikeEdgeToken, touchEdgeToken } from './edgeTokens';

/** An on-site box, identified by its edge API token; clubId is the service club the token is bound to. */
export interface EdgeCaller {
  kind: 'edge';
  clubId: string;
  tokenId: string;
}

const REJECTED = 'The edge API token is missing, unknown or revoked.';

/**
 * `Authorization: Bearer <edge token>`. The club a report belongs to comes from here, never from
 * the payload. Every accepted call records the token's last use (throttled in SQL).
 */
export const edgeBox: Guard<EdgeCaller> = {
  description: 'an on-site box with its edge API token',
  security: 'edgeToken',
  async authorize(request) {
    const token = bearerToken(request);
    if (!looksLikeEdgeToken(token)) throw unauthorized(REJECTED);
    // Hashing before the lookup is the protection: the database compares SHA-256 digests, so the
    // secret itself never meets a variable-time comparison, and timing can at most reveal a prefix
    // of a digest, which says nothing about a token (32 random bytes) that hashes to it. A
    // constant-time compare after a lookup by the same digest would compare a value with itself.
    const row = await findEdgeTokenByHash(getSql(), hashEdgeToken(token));
    if (!row || row.revokedAt) throw unauthorized(REJECTED);
    await touchEdgeToken(getSql(), row.id);
    return { kind: 'edge', clubId: row.clubId, tokenId: row.id };
  },
};
