import type { Queryable } from '../db/client';
import type { Logger } from '../log/logger';
import { findStaleBoxes, type BoxActivity } from './staleBoxes';

export interface CleanupSettings {
  retentionDays: number;
  staleAfterHours: number;
}

export interface CleanupOutcome {
  purged: number;
  staleBoxes: number;
}

/**
 * Keeps the channel tidy: deletes known-club rows that have been sourceDeleted for longer than
 * the retention, and warns about boxes that stopped reporting (a box whose tokens are all
 * revoked was decommissioned on purpose and is not reported).
 */
export async function runClubMasterCleanup(sql: Queryable, settings: CleanupSettings, log: Logger): Promise<CleanupOutcome> {
  const purged = await purgeDeletedKnownClubs(sql, settings.retentionDays);
  const [clock] = await sql<{ now: Date }[]>`select now() as now`;
  const stale = findStaleBoxes(await listReportingBoxes(sql), clock!.now, settings.staleAfterHours);
  if (stale.length > 0) {
    log.warn('club_master_boxes_stale', { staleAfterHours: settings.staleAfterHours, boxes: stale });
  }
  return { purged, staleBoxes: stale.length };
}

/** Deletes rows that have been sourceDeleted for more than `retentionDays`; returns how many. */
export async function purgeDeletedKnownClubs(sql: Queryable, retentionDays: number): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    with purged as (
      delete from "ClubDataKnownClub"
      where "sourceDeleted" and "sourceDeletedAt" < now() - make_interval(days => ${retentionDays}::int)
      returning 1
    )
    select count(*)::int as count from purged`;
  return row?.count ?? 0;
}

/** Boxes that have reported at least once and still hold an unrevoked token. */
export async function listReportingBoxes(sql: Queryable): Promise<BoxActivity[]> {
  return sql<BoxActivity[]>`
    select r.club_id as "clubId", r.last_reported_at as "lastReportedAt", max(t.last_used_at) as "edgeTokenLastUsedAt"
    from club_master_report r
    join edge_token t on t.club_id = r.club_id and t.revoked_at is null
    group by r.club_id, r.last_reported_at`;
}
