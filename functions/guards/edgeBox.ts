import { identifyEdgeToken } from '../../shared/clubMaster/edgeTokens';
import { getSql } from '../../shared/db/client';
import { bearerCredentialGuard } from '../../shared/http/guards';

/** An on-site box, identified by its edge API token; clubId is the service club the token is bound to. */
export interface EdgeCaller {
  kind: 'edge';
  clubId: string;
  tokenId: string;
}

/**
 * `Authorization: Bearer <edge token>`. The club a report belongs to comes from here, never from
 * the payload. The token lookup is club master's (identifyEdgeToken).
 */
export const edgeBox = bearerCredentialGuard<EdgeCaller>({
  description: 'an on-site box with its edge API token',
  security: 'edgeToken',
  rejected: 'The edge API token is missing, unknown or revoked.',
  async identify(token) {
    const identity = await identifyEdgeToken(getSql(), token);
    return identity ? { kind: 'edge', ...identity } : undefined;
  },
});
