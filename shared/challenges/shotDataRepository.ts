import type { Queryable } from '../db/client';

/**
 * Reads the ingested shot data (club_data_hit) of one member through their confirmed shooter
 * links. A training session is one calendar day (Europe/Berlin, the clubs' home zone) with at
 * least one shot in one club; a series is (club, day, series number).
 */
export const SESSION_TIME_ZONE = 'Europe/Berlin';

export interface ShotStats {
  shots: number;
  sessions: number;
  /** null without shots */
  averageRing: number | null;
  /** The best series total; null without series. */
  bestSeries: number | null;
  /** Mean over sessions of each session's best series total; null without series. */
  averageBestSeries: number | null;
}

export interface ShotScope {
  userId: string;
  /** Only this service club's link counts (club challenges); null = every linked club. */
  clubId: string | null;
  from: Date;
  to: Date;
  discipline: string | null;
}

/** The stats of a scope without shots. */
export const NO_SHOTS: ShotStats = { shots: 0, sessions: 0, averageRing: null, bestSeries: null, averageBestSeries: null };

/** The stats of one scope (the set measurement of one). */
export async function measureShots(sql: Queryable, scope: ShotScope): Promise<ShotStats> {
  const [stats] = await measureShotsMany(sql, [scope]);
  return stats ?? NO_SHOTS;
}

/**
 * The stats of each scope, in the order given, in one statement: each scope measured by the same
 * lateral subquery, so a batch of participations costs one round trip and the one-scope path
 * (measureShots) is this with a single scope.
 */
export async function measureShotsMany(sql: Queryable, scopes: readonly ShotScope[]): Promise<ShotStats[]> {
  if (scopes.length === 0) return [];
  const rows = await sql<(ShotStats & { at: number })[]>`
    select s.at::int as at, m.*
    from unnest(
      ${scopes.map((scope) => scope.userId)}::text[],
      ${scopes.map((scope) => scope.clubId)}::text[],
      ${scopes.map((scope) => scope.from.toISOString())}::timestamptz[],
      ${scopes.map((scope) => scope.to.toISOString())}::timestamptz[],
      ${scopes.map((scope) => scope.discipline)}::text[]
    ) with ordinality as s(user_id, club_id, from_at, to_at, discipline, at)
    cross join lateral (
      with me as (
        select c.vereins_id as club_number, l.shooter_id
        from challenge_shooter_link l join club c on c.id = l.club_id
        where l.user_id = s.user_id and l.status = 'confirmed' and c.vereins_id is not null
          and (s.club_id is null or l.club_id = s.club_id)
      ), hits as (
        -- Each link's hits on its own: \`offset 0\` keeps the subquery apart, so the index lookup
        -- takes club, shooter and time (left to itself the planner joined on the club alone and
        -- read every shooter's hits of the club in the window, about 50 times as many rows).
        select h.source_club_id, (h.shot_at at time zone ${SESSION_TIME_ZONE})::date as day, h.series, h.value
        from me cross join lateral (
          select h.source_club_id, h.shot_at, h.series, h.value
          from club_data_hit h
          where h.source_club_id = me.club_number and h.shooter_id = me.shooter_id
            and h.deleted_at is null and h.value is not null
            and h.shot_at >= s.from_at and h.shot_at < s.to_at
            and (s.discipline is null or h.discipline = s.discipline)
          offset 0
        ) as h
      ), series as (
        select source_club_id, day, sum(value) as total from hits where series is not null group by source_club_id, day, series
      ), session_best as (
        select max(total) as best from series group by source_club_id, day
      )
      select
        (select count(*) from hits)::int as shots,
        (select count(*) from (select distinct source_club_id, day from hits) as d)::int as sessions,
        (select round(avg(value), 2) from hits)::float8 as "averageRing",
        (select max(total) from series)::float8 as "bestSeries",
        (select round(avg(best), 1) from session_best)::float8 as "averageBestSeries"
    ) as m
    order by s.at`;
  return rows.map(({ at: _at, ...stats }) => stats);
}
