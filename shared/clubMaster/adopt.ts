import type { Sql } from '../db/client';
import { notFound } from '../http/problem';
import type { AdoptResult } from './schemas';

/**
 * Club bootstrap: makes the club number a service club, provided it is found both in the score
 * data source (club_data_hit, written by ingest) and in the known-club source (an active row of
 * "ClubDataKnownClub"). Creates the club with the most recently reported name, or activates an
 * existing one (keeping its name). Idempotent: `created` is true only for the call that created it.
 * Throws a 404 problem when either source lacks the number.
 */
export async function adoptClub(sql: Sql, vereinsId: string): Promise<AdoptResult> {
  return sql.begin(async (tx) => {
    const [known]: [{ name: string }?] = await tx`
      select "name" from "ClubDataKnownClub"
      where "vereinsId" = ${vereinsId} and not "sourceDeleted"
      order by "lastSeenAt" desc, "reportedByClubId" limit 1`;
    const [scored]: [{ found: boolean }?] = await tx`
      select exists (select 1 from club_data_hit where source_club_id = ${vereinsId}) as found`;
    const missing = [!scored?.found ? 'the score data source' : undefined, !known ? 'the known-club source' : undefined]
      .filter(Boolean)
      .join(' and ');
    if (missing) throw notFound(`Club number ${vereinsId} was not found in ${missing}.`);

    const [club] = await tx<(AdoptResult['club'] & { created: boolean })[]>`
      insert into club (vereins_id, name, status) values (${vereinsId}, ${known!.name}, 'active')
      on conflict (vereins_id) do update set
        status = 'active',
        updated_at = case when club.status = 'active' then club.updated_at else now() end
      returning id, vereins_id as "vereinsId", name, status, (xmax = 0) as created`;
    const { created, ...rest } = club!;
    return { club: rest, created };
  });
}
