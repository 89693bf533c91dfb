import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../shared/db/client';
import { createEdgeToken } from '../../shared/clubMaster/edgeTokens';

/** A club number no other test uses. */
export function uniqueVereinsId(): string {
  return `fr-${randomUUID().slice(0, 12)}`;
}

/** An active service club with a club number, its leaders and members. */
export async function createFreshnessClub(
  sql: Queryable,
  options: { name?: string; leaders?: number; members?: number; status?: 'active' | 'inactive'; vereinsId?: string | null } = {},
): Promise<{ clubId: string; vereinsId: string | null; name: string; leaders: string[]; members: string[] }> {
  const clubId = randomUUID();
  const vereinsId = options.vereinsId === undefined ? uniqueVereinsId() : options.vereinsId;
  const name = options.name ?? `SV Frische ${clubId.slice(0, 6)}`;
  await sql`insert into club (id, vereins_id, name, status) values (${clubId}, ${vereinsId}, ${name}, ${options.status ?? 'active'})`;
  const leaders = Array.from({ length: options.leaders ?? 0 }, () => `leader-${randomUUID()}`);
  const members = Array.from({ length: options.members ?? 0 }, () => `member-${randomUUID()}`);
  for (const userId of leaders) await sql`insert into club_membership (club_id, user_id, role) values (${clubId}, ${userId}, 'leader')`;
  for (const userId of members) await sql`insert into club_membership (club_id, user_id, role) values (${clubId}, ${userId}, 'member')`;
  return { clubId, vereinsId, name, leaders, members };
}

/** A hit of the club that arrived at `arrivedAt`. */
export async function addHit(sql: Queryable, vereinsId: string, arrivedAt: Date | string): Promise<void> {
  await sql`
    insert into club_data_hit (source_club_id, source_record_id, created_at)
    values (${vereinsId}, ${randomUUID()}, ${arrivedAt instanceof Date ? arrivedAt : new Date(arrivedAt)})`;
}

/** An edge token for the club, optionally with a last use. */
export async function addEdgeToken(sql: Queryable, clubId: string, lastUsedAt?: Date | string): Promise<string> {
  const { id, token } = await createEdgeToken(sql, clubId);
  if (lastUsedAt) await sql`update edge_token set last_used_at = ${new Date(lastUsedAt)} where id = ${id}`;
  return token;
}
