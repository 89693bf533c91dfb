import type { Queryable } from '../../db/client';
import type { PushPlatform, PushTarget } from '../channels/pushChannel';
import { MAX_REGISTRATIONS_PER_USER, type Registration } from './registrationSchemas';

interface Row extends PushTarget {
  position: string;
  createdAt: Date;
  lastSentAt: Date | null;
}

/**
 * Stores a registration for `userId`, or moves the existing one of that address to them (a
 * device on which another member signed in), and drops the member's oldest beyond
 * MAX_REGISTRATIONS_PER_USER. Runs in the caller's transaction; the member's advisory lock
 * keeps two registrations at once from both slipping under the cap.
 */
export async function upsertRegistration(
  tx: Queryable,
  userId: string,
  input: { platform: PushPlatform; address: string; p256dh: string | null; auth: string | null },
): Promise<{ target: PushTarget; dropped: { id: string; platform: PushPlatform }[] }> {
  await tx`select pg_advisory_xact_lock(hashtextextended(${`push_registration:${userId}`}, 0))`;
  const [row]: [{ id: string }] = await tx`
    insert into push_registration (user_id, platform, address, p256dh, auth)
    values (${userId}, ${input.platform}, ${input.address}, ${input.p256dh}, ${input.auth})
    on conflict (platform, address) do update
      set user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth, created_at = now()
    returning id::text as id`;
  const dropped: { id: string; platform: PushPlatform }[] = await tx`
    delete from push_registration where user_id = ${userId} and seq not in (
      select seq from push_registration where user_id = ${userId} order by created_at desc, seq desc limit ${MAX_REGISTRATIONS_PER_USER})
    returning id::text as id, platform`;
  return { target: { id: row.id, userId, ...input }, dropped };
}

/** The member's registrations, newest first, after the keyset position `afterSeq`. */
export async function listRegistrations(
  sql: Queryable,
  userId: string,
  limit: number,
  afterSeq: string | undefined,
): Promise<{ items: Registration[]; lastSeq: string | undefined; more: boolean }> {
  const rows: Row[] = await sql`
    select seq::text as position, id::text as id, user_id as "userId", platform, address, p256dh, auth,
           created_at as "createdAt", last_sent_at as "lastSentAt"
    from push_registration
    where user_id = ${userId} ${afterSeq === undefined ? sql`` : sql`and seq < ${afterSeq}::bigint`}
    order by seq desc limit ${limit + 1}`;
  const page = rows.slice(0, limit);
  return {
    items: page.map((row) => ({
      id: row.id,
      platform: row.platform,
      label: labelOf(row),
      createdAt: row.createdAt.toISOString(),
      lastSentAt: row.lastSentAt?.toISOString() ?? null,
    })),
    lastSeq: page.at(-1)?.position,
    more: rows.length > limit,
  };
}

/** Removes one of the member's registrations; its platform, or undefined when it is not theirs. */
export async function deleteRegistration(sql: Queryable, userId: string, id: string): Promise<PushPlatform | undefined> {
  const [row]: [{ platform: PushPlatform }?] = await sql`
    delete from push_registration where id = ${id}::uuid and user_id = ${userId} returning platform`;
  return row?.platform;
}

/** The registrations of the given members, to send to. */
export async function targetsOf(sql: Queryable, userIds: readonly string[]): Promise<Map<string, PushTarget[]>> {
  const rows: PushTarget[] = await sql`
    select id::text as id, user_id as "userId", platform, address, p256dh, auth
    from push_registration where user_id = any(${[...userIds]}::text[]) order by seq`;
  const byUser = new Map<string, PushTarget[]>();
  for (const row of rows) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row]);
  return byUser;
}

/** A registration the push service reported gone; only while it still names the same address. */
export async function removeStaleRegistration(sql: Queryable, target: PushTarget): Promise<boolean> {
  const removed = await sql`delete from push_registration where id = ${target.id}::uuid and address = ${target.address}`;
  return removed.count > 0;
}

export async function markSent(sql: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length) await sql`update push_registration set last_sent_at = now() where id = any(${[...ids]}::uuid[])`;
}

/**
 * What the list shows of where a registration goes: the push service's host for a browser,
 * the last characters of a device token; never the whole URL or token, which act as credentials.
 */
function labelOf(row: Pick<PushTarget, 'platform' | 'address'>): string {
  if (row.platform === 'webpush') return new URL(row.address).host;
  return `${row.platform === 'apns' ? 'iOS' : 'Android'} device …${row.address.slice(-6)}`;
}
