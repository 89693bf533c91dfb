import type { Queryable } from '../db/client';
import type { BoxActivity } from './staleBoxes';

/** Boxes that have reported at least once and still hold an unrevoked token. */
export async function listReportingBoxes(sql: Queryable): Promise<BoxActivity[]> {
  return sql<BoxActivity[]>`
    select r.club_id as "clubId", r.last_reported_at as "lastReportedAt", max(t.last_used_at) as "edgeTokenLastUsedAt"
    from club_master_report r
    join edge_token t on t.club_id = r.club_id and t.revoked_at is null
    group by r.club_id, r.last_reported_at`;
}

/** The database's clock: report times are written with it, so staleness is judged against it too. */
export async function databaseNow(sql: Queryable): Promise<Date> {
  const [row]: [{ now: Date }?] = await sql`select now() as now`;
  if (!row) throw new Error('select now() returned no row');
  return row.now;
}
