import { identifyEdgeToken } from '../clubMaster/edgeTokens';
import { getSql } from '../db/client';
import { bearerToken, type Guard } from './guards';
import { unauthorized } from './problem';

/** An on-site box, identified by its edge API token; clubId is the service club the token is bound to. */
export interface EdgeCaller {
  kind: 'edge';
  clubId: string;
  tokenId: string;
}

const REJECTED = 'The edge API token is missing, unknown or revoked.';

/**
 * `Authorization: Bearer <edge token>`. The club a report belongs to comes from here, never from
 * the payload. The token lookup is club master's (identifyEdgeToken).
 */
export const edgeBox: Guard<EdgeCaller> = {
  description: 'an on-site box with its edge API token',
  security: 'edgeToken',
  async authorize(request) {
    const identity = await identifyEdgeToken(getSql(), bearerToken(request));
    if (!identity) throw unauthorized(REJECTED);
    return { kind: 'edge', ...identity };
  },
};
