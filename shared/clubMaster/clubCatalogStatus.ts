import type { ClubCatalogStatus } from './clubCatalogStatusSchema';
import type { Queryable } from '../db/client';

/** Names listed at most (each box reports one name per number). */
const NAMES_LISTED = 5;

/** One service club's catalog entry, counted as GET /api/admin/clubs counts it (deleted-at-source rows left out). */
export async function readClubCatalogStatus(
  sql: Queryable,
  club: { vereinsId: string | null; name: string; status: 'active' | 'inactive' },
): Promise<ClubCatalogStatus> {
  if (club.vereinsId === null) return { status: club.status, reportingBoxes: 0, lastSeenAt: null, reportedNames: [] };
  const [row]: [{ boxes: number; lastSeen: Date | null; names: string[] | null }?] = await sql`
    select count(*)::int as boxes, max("lastSeenAt") as "lastSeen",
           (array_agg(distinct "name"))[1:${NAMES_LISTED}] as names
    from "ClubDataKnownClub" where "vereinsId" = ${club.vereinsId} and not "sourceDeleted"`;
  return {
    status: club.status,
    reportingBoxes: row?.boxes ?? 0,
    lastSeenAt: row?.lastSeen?.toISOString() ?? null,
    reportedNames: (row?.names ?? []).filter((name) => name !== club.name),
  };
}
