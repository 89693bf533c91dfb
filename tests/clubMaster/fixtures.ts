import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../shared/db/client';
import { createEdgeToken } from '../../shared/clubMaster/edgeTokens';
import type { ReportedClub } from '../../shared/clubMaster/schemas';

/** A short random tag that keeps one test's club numbers and names apart from every other's. */
export function uniqueTag(): string {
  return randomUUID().replace(/-/g, '').slice(0, 10);
}

/** A service club with a unique id. */
export async function createServiceClub(
  sql: Queryable,
  options: { name?: string; vereinsId?: string | null; status?: 'active' | 'inactive' } = {},
): Promise<string> {
  const id = randomUUID();
  await sql`
    insert into club (id, name, vereins_id, status)
    values (${id}, ${options.name ?? `Box club ${id.slice(0, 8)}`}, ${options.vereinsId ?? null}, ${options.status ?? 'active'})`;
  return id;
}

/** A box: a service club and an edge token bound to it. */
export async function createBox(sql: Queryable): Promise<{ clubId: string; tokenId: string; token: string }> {
  const clubId = await createServiceClub(sql);
  const { id, token } = await createEdgeToken(sql, clubId);
  return { clubId, tokenId: id, token };
}

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
