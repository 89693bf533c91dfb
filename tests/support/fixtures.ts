import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../shared/db/client';
import { createEdgeToken } from '../../shared/clubMaster/edgeTokens';

/**
 * The people and places tests act with: service clubs with their leaders and members, boxes (a
 * club with an edge token). Test files run in parallel workers on one database, so every id,
 * club number and name is drawn at random; tokens for users come from ./tokens.
 */

/** A short random tag that keeps one test's club numbers and names apart from every other's. */
export function uniqueTag(): string {
  return randomUUID().replace(/-/g, '').slice(0, 10);
}

/** A club number (vereinsId) no other test uses. */
export function uniqueVereinsId(): string {
  return `fr-${randomUUID().slice(0, 12)}`;
}

export interface ClubFixture {
  clubId: string;
  vereinsId: string | null;
  name: string;
  /** User ids holding the leader role in the club. */
  leaders: string[];
  /** User ids holding the member role in the club. */
  members: string[];
}

export interface ClubOptions {
  name?: string;
  /** The club number; none unless given. */
  vereinsId?: string | null;
  status?: 'active' | 'inactive';
  /** How many leaders and members to add, each a new user id. */
  leaders?: number;
  members?: number;
}

/** A service club with a unique id and, when asked, new leaders and members. */
export async function createClub(sql: Queryable, options: ClubOptions = {}): Promise<ClubFixture> {
  const clubId = randomUUID();
  const vereinsId = options.vereinsId ?? null;
  const name = options.name ?? `Box club ${clubId.slice(0, 8)}`;
  await sql`
    insert into club (id, name, vereins_id, status)
    values (${clubId}, ${name}, ${vereinsId}, ${options.status ?? 'active'})`;
  const leaders = Array.from({ length: options.leaders ?? 0 }, () => `leader-${randomUUID()}`);
  const members = Array.from({ length: options.members ?? 0 }, () => `member-${randomUUID()}`);
  for (const userId of leaders) await addMember(sql, clubId, userId, 'leader');
  for (const userId of members) await addMember(sql, clubId, userId, 'member');
  return { clubId, vereinsId, name, leaders, members };
}

/** The id of a new service club (createClub without people). */
export async function createServiceClub(sql: Queryable, options: Omit<ClubOptions, 'leaders' | 'members'> = {}): Promise<string> {
  return (await createClub(sql, options)).clubId;
}

export async function addMember(sql: Queryable, clubId: string, userId: string, role: 'member' | 'leader' = 'member'): Promise<void> {
  await sql`insert into club_membership (club_id, user_id, role) values (${clubId}, ${userId}, ${role})`;
}

/** An edge token for the club, optionally with a last use; answers the token. */
export async function addEdgeToken(sql: Queryable, clubId: string, lastUsedAt?: Date | string): Promise<string> {
  const { id, token } = await createEdgeToken(sql, clubId);
  if (lastUsedAt) await sql`update edge_token set last_used_at = ${new Date(lastUsedAt)} where id = ${id}`;
  return token;
}

/** A box: a service club and an edge token bound to it. */
export async function createBox(sql: Queryable): Promise<{ clubId: string; tokenId: string; token: string }> {
  const clubId = await createServiceClub(sql);
  const { id, token } = await createEdgeToken(sql, clubId);
  return { clubId, tokenId: id, token };
}
