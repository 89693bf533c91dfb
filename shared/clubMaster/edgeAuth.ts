import { timingSafeEqual } from 'node:crypto';
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
    const presented = hashEdgeToken(token);
    const row = await findEdgeTokenByHash(getSql(), presented);
    // The lookup is by hash; comparing again in constant time keeps the check itself timing-neutral.
    if (!row || !timingSafeEqual(Buffer.from(row.tokenHash, 'hex'), Buffer.from(presented, 'hex'))) {
      throw unauthorized(REJECTED);
    }
    if (row.revokedAt) throw unauthorized(REJECTED);
    await touchEdgeToken(getSql(), row.id);
    return { kind: 'edge', clubId: row.clubId, tokenId: row.id };
  },
};
