import type { Queryable } from '../db/client';
import type { ServiceClub } from './schemas';

/** Whether the score data (club_data_hit, written by ingest) holds any hit of the club number. */
export async function hasScoreData(sql: Queryable, vereinsId: string): Promise<boolean> {
  const [row]: [{ found: boolean }?] = await sql`
    select exists (select 1 from club_data_hit where source_club_id = ${vereinsId}) as found`;
  return row?.found ?? false;
}

/**
 * Creates the service club for the club number as active, or activates the existing one (keeping
 * its name). `created` is true only for the statement that inserted it.
 */
export async function upsertActiveClub(sql: Queryable, vereinsId: string, name: string): Promise<{ club: ServiceClub; created: boolean }> {
  const [row]: [(ServiceClub & { created: boolean })?] = await sql`
    insert into club (vereins_id, name, status) values (${vereinsId}, ${name}, 'active')
    on conflict (vereins_id) do update set
      status = 'active',
      updated_at = case when club.status = 'active' then club.updated_at else now() end
    returning id, vereins_id as "vereinsId", name, status, (xmax = 0) as created`;
  // INSERT ... ON CONFLICT DO UPDATE ... RETURNING always answers the row it wrote.
  if (!row) throw new Error('club upsert returned no row');
  const { created, ...club } = row;
  return { club, created };
}

/**
 * Creates a service club with a chosen id unless one with that id exists (local setup); answers
 * whether it was created (false: the existing club is left as it is).
 */
export async function createClubIfAbsent(sql: Queryable, club: { id: string; name: string; vereinsId: string | null }): Promise<boolean> {
  const rows = await sql`
    insert into club (id, name, vereins_id) values (${club.id}, ${club.name}, ${club.vereinsId})
    on conflict (id) do nothing
    returning id`;
  return rows.length === 1;
}

/** The id of the service club, or undefined when there is none with that id. */
export async function findClubId(sql: Queryable, clubId: string): Promise<string | undefined> {
  const [club]: [{ id: string }?] = await sql`select id from club where id = ${clubId}`;
  return club?.id;
}
