import type { Sql } from '../db/client';
import { ConflictError } from '../errors/domainErrors';
import { closeOpenSeason, insertSeason, lockSeasons, openSeason, type Season } from './xpLedgerRepository';

/**
 * Closes the open season (if any) at `at` and opens a new one from `at`: the seasonal ladder
 * restarts at 0, earlier seasons and the lifetime totals stay as they were.
 */
export async function startSeason(sql: Sql, name: string, at: Date): Promise<Season> {
  return sql.begin(async (tx) => {
    await lockSeasons(tx);
    const open = await openSeason(tx);
    if (open && open.startsAt.getTime() >= at.getTime()) {
      throw new ConflictError('The open season starts later than the new one would.', { code: 'season_overlap' });
    }
    await closeOpenSeason(tx, at);
    return insertSeason(tx, name, at);
  });
}
