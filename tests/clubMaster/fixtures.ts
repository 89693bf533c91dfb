import type { Queryable, Sql } from '../../shared/db/client';
import { KNOWN_CLUB_LOCK_CLASS } from '../../shared/clubMaster/knownClubSync';
import type { ReportedClub } from '../../shared/clubMaster/schemas';

/** The club master channel's views of what boxes reported; clubs and boxes come from ../support/fixtures. */

export interface KnownRow {
  vereinsId: string;
  name: string;
  sourceDeleted: boolean;
  sourceDeletedAt: Date | null;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

/** The box's rows, ordered by club number. */
export async function knownRows(sql: Queryable, clubId: string): Promise<KnownRow[]> {
  return sql<KnownRow[]>`
    select "vereinsId", "name", "sourceDeleted", "sourceDeletedAt", "firstSeenAt", "lastSeenAt"
    from "ClubDataKnownClub" where "reportedByClubId" = ${clubId} order by "vereinsId"`;
}

/** The club numbers the box currently reports (not sourceDeleted), sorted. */
export async function activeVereinsIds(sql: Queryable, clubId: string): Promise<string[]> {
  return (await knownRows(sql, clubId)).filter((row) => !row.sourceDeleted).map((row) => row.vereinsId);
}

/** `count` clubs numbered `${prefix}-0..`, named after their number. */
export function clubList(prefix: string, count: number, from = 0): ReportedClub[] {
  return Array.from({ length: count }, (_, i) => ({ vereinsId: `${prefix}-${from + i}`, name: `Club ${prefix} ${from + i}` }));
}

/**
 * Holds the box's sync lock (as a running report does) in a transaction of its own until
 * `release` is called; resolves once the lock is held. `release` resolves once it is let go.
 */
export async function holdBoxSyncLock(sql: Sql, clubId: string): Promise<{ release: () => Promise<void> }> {
  let letGo!: () => void;
  const released = new Promise<void>((resolve) => (letGo = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holder = sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${KNOWN_CLUB_LOCK_CLASS}, hashtext(${clubId}))`;
    locked();
    await released;
  });
  await Promise.race([isLocked, holder]);
  return {
    release: async () => {
      letGo();
      await holder;
    },
  };
}
