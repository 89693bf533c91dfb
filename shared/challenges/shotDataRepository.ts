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

export async function measureShots(sql: Queryable, scope: ShotScope): Promise<ShotStats> {
  const [row]: [ShotStats?] = await sql`
    with me as (
      select c.vereins_id as club_number, l.shooter_id
      from challenge_shooter_link l join club c on c.id = l.club_id
      where l.user_id = ${scope.userId} and l.status = 'confirmed' and c.vereins_id is not null
        and (${scope.clubId}::text is null or l.club_id = ${scope.clubId})
    ), hits as (
      select h.source_club_id, (h.shot_at at time zone ${SESSION_TIME_ZONE})::date as day, h.series, h.value
      from club_data_hit h
      join me on h.source_club_id = me.club_number and h.shooter_id = me.shooter_id
      where h.deleted_at is null and h.value is not null
        and h.shot_at >= ${scope.from} and h.shot_at < ${scope.to}
        and (${scope.discipline}::text is null or h.discipline = ${scope.discipline})
    ), series as (
      select source_club_id, day, sum(value) as total from hits where series is not null group by source_club_id, day, series
    ), session_best as (
      select max(total) as best from series group by source_club_id, day
    )
    select
      (select count(*) from hits)::int as shots,
      (select count(*) from (select distinct source_club_id, day from hits) as s)::int as sessions,
      (select round(avg(value), 2) from hits)::float8 as "averageRing",
      (select max(total) from series)::float8 as "bestSeries",
      (select round(avg(best), 1) from session_best)::float8 as "averageBestSeries"`;
  return row ?? { shots: 0, sessions: 0, averageRing: null, bestSeries: null, averageBestSeries: null };
}
