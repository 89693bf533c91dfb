import type { BoxFreshness } from './boxFreshness';
import { pushRoutes } from './pushRoutes';
import type { BoxRoute } from './boxRoute';
import type { StarterlistPushAgent } from './starterlistPush';

export const STARTERLIST_RUN_PATH = '/api/starterlist-sync/run';
export const STARTERLIST_STATUS_PATH = '/api/starterlist-sync/status';
export const FRESHNESS_STATUS_PATH = '/api/freshness/status';
export const FRESHNESS_RUN_PATH = '/api/freshness/run';

/**
 * The box interface's freshness routes, in the style of the club master ones: run answers 200
 * done, 409 disabled, 502 failed (body with the reason); status answers the state.
 */
export function freshnessRoutes(push: StarterlistPushAgent, check: BoxFreshness): Record<string, BoxRoute> {
  return {
    ...pushRoutes(push, { run: STARTERLIST_RUN_PATH, status: STARTERLIST_STATUS_PATH }, 'push_disabled'),
    [FRESHNESS_STATUS_PATH]: { method: 'GET', handle: () => Promise.resolve({ status: 200, body: check.status() }) },
    [FRESHNESS_RUN_PATH]: {
      method: 'POST',
      async handle() {
        const outcome = await check.runOnce();
        return { status: 'error' in outcome ? 502 : 200, body: check.status() };
      },
    },
  };
}
