import type { Queryable } from '../db/client';
import type { CatalogQuery, CatalogStatus } from './schemas';

export interface CatalogRow {
  clubId: string | null;
  vereinsId: string | null;
  name: string;
  status: CatalogStatus;
  reportingBoxes: number;
  lastSeenAt: Date | null;
  edgeTokenLastUsedAt: Date | null;
  total: number;
}

/**
 * One page of catalog entries (service clubs and channel-only club numbers), each row carrying
 * the total number of matching entries; see listClubCatalog for the rules.
 */
export async function selectCatalogPage(sql: Queryable, query: CatalogQuery): Promise<CatalogRow[]> {
  // Lower-cased by PostgreSQL on both sides: JavaScript's toLowerCase differs for some letters
  // ('İ' becomes 'i' + U+0307 in JavaScript, 'i' in PostgreSQL), and such a search would miss.
  const search = query.q ?? '';
  const status = query.status ?? null;
  return sql<CatalogRow[]>`
    with known as (
      select "vereinsId",
             (array_agg("name" order by "lastSeenAt" desc, "reportedByClubId"))[1] as name,
             count(*)::int as boxes,
             max("lastSeenAt") as last_seen
      from "ClubDataKnownClub" where not "sourceDeleted" group by "vereinsId"
    ),
    -- Every token counts, revoked ones too: diagnostics want the box's last contact.
    token_use as (
      select club_id, max(last_used_at) as last_used from edge_token group by club_id
    ),
    entries as (
      select c.id as "clubId", c.vereins_id as "vereinsId", c.name, c.status,
             coalesce(k.boxes, 0) as "reportingBoxes", k.last_seen as "lastSeenAt", t.last_used as "edgeTokenLastUsedAt"
      from club c
      left join known k on k."vereinsId" = c.vereins_id
      left join token_use t on t.club_id = c.id
      union all
      select null, k."vereinsId", k.name, 'imported_only', k.boxes, k.last_seen, null
      from known k
      where not exists (select 1 from club c where c.vereins_id = k."vereinsId")
    )
    select e.*, count(*) over ()::int as total
    from entries e
    where (${search} = ''
           or strpos(lower(e.name), lower(${search})) > 0
           or strpos(lower(coalesce(e."vereinsId", '')), lower(${search})) > 0)
      and (${status}::text is null or e.status = ${status}::text)
    order by lower(e.name), e."vereinsId" nulls last, e."clubId" nulls last
    limit ${query.limit} offset ${query.offset}`;
}
