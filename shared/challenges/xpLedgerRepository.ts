import type { Queryable } from '../db/client';

/**
 * The append-only XP ledger. A payout is one row unique per (user, source); the lifetime and
 * season totals move in the same transaction as the row, and only when the row was new. A
 * season reset opens a new season: earlier seasons and the lifetime totals stay as they were.
 */

export interface Season {
  id: string;
  name: string;
  startsAt: Date;
  endsAt: Date | null;
}

export async function openSeason(sql: Queryable): Promise<Season | undefined> {
  const [row]: [Season?] = await sql`
    select id, name, starts_at as "startsAt", ends_at as "endsAt" from xp_season where ends_at is null`;
  return row;
}

/** Takes the lock that serialises season changes until the transaction ends. */
export async function lockSeasons(sql: Queryable): Promise<void> {
  await sql`lock table xp_season in share row exclusive mode`;
}

/** Ends the open season (if any) at `at`. */
export async function closeOpenSeason(sql: Queryable, at: Date): Promise<void> {
  await sql`update xp_season set ends_at = ${at} where ends_at is null`;
}

export async function insertSeason(sql: Queryable, name: string, startsAt: Date): Promise<Season> {
  const [row]: [Season?] = await sql`
    insert into xp_season (name, starts_at) values (${name}, ${startsAt})
    returning id, name, starts_at as "startsAt", ends_at as "endsAt"`;
  if (!row) throw new Error('season insert returned no row');
  return row;
}

export interface Payout {
  userId: string;
  amount: number;
  sourceKind: 'challenge';
  /** The participation id: the same participation can pay only once. */
  sourceId: string;
}

/** Appends the payout unless one for the same source exists; true when this call wrote it. */
export async function appendXp(sql: Queryable, payout: Payout): Promise<boolean> {
  if (payout.amount <= 0) return false;
  const [entry]: [{ seasonId: string | null }?] = await sql`
    insert into xp_ledger (user_id, amount, source_kind, source_id, season_id)
    values (${payout.userId}, ${payout.amount}, ${payout.sourceKind}, ${payout.sourceId},
            (select id from xp_season where ends_at is null))
    on conflict (user_id, source_kind, source_id) do nothing
    returning season_id as "seasonId"`;
  if (!entry) return false;
  await sql`
    insert into xp_total as total (user_id, lifetime_xp) values (${payout.userId}, ${payout.amount})
    on conflict (user_id) do update set lifetime_xp = total.lifetime_xp + excluded.lifetime_xp`;
  if (entry.seasonId) {
    await sql`
      insert into xp_season_total as total (season_id, user_id, xp) values (${entry.seasonId}, ${payout.userId}, ${payout.amount})
      on conflict (season_id, user_id) do update set xp = total.xp + excluded.xp`;
  }
  return true;
}

export interface XpTotals {
  lifetimeXp: number;
  /** null when no season is open */
  season: { id: string; name: string; startsAt: Date; xp: number } | null;
}

export async function xpTotals(sql: Queryable, userId: string): Promise<XpTotals> {
  const [row]: [{ lifetimeXp: number | null; id: string | null; name: string | null; startsAt: Date | null; xp: number | null }?] =
    await sql`
    select (select lifetime_xp from xp_total where user_id = ${userId}) as "lifetimeXp",
           s.id, s.name, s.starts_at as "startsAt",
           (select xp from xp_season_total t where t.season_id = s.id and t.user_id = ${userId}) as xp
    from (select 1) as one left join xp_season s on s.ends_at is null`;
  return {
    lifetimeXp: row?.lifetimeXp ?? 0,
    season: row?.id && row.name && row.startsAt ? { id: row.id, name: row.name, startsAt: row.startsAt, xp: row.xp ?? 0 } : null,
  };
}

/** The best of a season's ladder (or of the lifetime ladder), highest XP first, ties by user id. */
export async function ladder(
  sql: Queryable,
  period: { seasonId: string } | 'lifetime',
  limit: number,
): Promise<{ userId: string; xp: number }[]> {
  if (period === 'lifetime') {
    return sql<{ userId: string; xp: number }[]>`
      select user_id as "userId", lifetime_xp as xp from xp_total order by lifetime_xp desc, user_id limit ${limit}`;
  }
  return sql<{ userId: string; xp: number }[]>`
    select user_id as "userId", xp from xp_season_total where season_id = ${period.seasonId}
    order by xp desc, user_id limit ${limit}`;
}
