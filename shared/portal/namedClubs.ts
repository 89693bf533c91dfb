import type { Queryable } from '../db/client';
import type { NamedClubs } from './namedClubsSchema';

/** Club numbers looked up at most: the ingest block and the dead letters name a few dozen at most. */
export const NAMED_CLUBS_MAX = 100;

/** The service clubs with these club numbers (numbers without a service club are left out). */
export async function clubsByNumber(sql: Queryable, numbers: readonly (string | null | undefined)[]): Promise<NamedClubs> {
  const wanted = [...new Set(numbers.filter((number): number is string => typeof number === 'string' && number.length > 0))].slice(
    0,
    NAMED_CLUBS_MAX,
  );
  if (!wanted.length) return [];
  return sql<NamedClubs>`
    select vereins_id as "vereinsId", id as "clubId", name from club
    where vereins_id = any(${wanted}::text[]) order by vereins_id`;
}
