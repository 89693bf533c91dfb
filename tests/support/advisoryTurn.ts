import { connect, type Sql } from '../../shared/db/client';
import { getSettings } from '../../shared/config/settings';

/**
 * Test files that act on every row of a table (a check over all clubs, a health block over all
 * runners) take turns: each holds the advisory lock `lockId` on a connection of its own, outside
 * the shared pool, for its whole run.
 */
export function useAdvisoryTurn(lockId: number): void {
  let holder: Sql | undefined;
  beforeAll(async () => {
    holder = connect({ url: getSettings().DATABASE_URL ?? '', max: 1 });
    await holder`select pg_advisory_lock(${lockId})`;
  }, 120_000);
  afterAll(async () => {
    // Ending the session releases the lock.
    await holder?.end({ timeout: 5 });
  });
}
