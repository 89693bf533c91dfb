import type { Queryable } from '../db/client';
import { SESSION_TIME_ZONE } from './shotDataRepository';

/**
 * The shots of members through their confirmed shooter links, as the streak needs them: the
 * distinct training days (Berlin calendar, 'YYYY-MM-DD'). Distinct days make the answer the same
 * however often ingest delivered a hit.
 */
const LINKED_HITS = `challenge_shooter_link l
  join club c on c.id = l.club_id and c.vereins_id is not null
  join club_data_hit h on h.source_club_id = c.vereins_id and h.shooter_id = l.shooter_id
    and h.deleted_at is null and h.value is not null`;

export interface TrainingDays {
  hasShooterLink: boolean;
  days: string[];
}

export async function trainingDaysOf(sql: Queryable, userId: string): Promise<TrainingDays> {
  const [row]: [TrainingDays?] = await sql`
    select
      exists (select 1 from challenge_shooter_link where user_id = ${userId} and status = 'confirmed') as "hasShooterLink",
      coalesce((
        select array_agg(distinct to_char((h.shot_at at time zone ${SESSION_TIME_ZONE})::date, 'YYYY-MM-DD'))
        from ${sql.unsafe(LINKED_HITS)}
        where l.user_id = ${userId} and l.status = 'confirmed'
      ), '{}') as days`;
  return row ?? { hasShooterLink: false, days: [] };
}

/**
 * The members who may need the warning this week, with all their training days: trained in the
 * weeks before `weekStart` (since `since`), not yet since `weekStart`, and not yet warned for `isoWeek`.
 */
export async function streakWarningCandidates(
  sql: Queryable,
  window: { since: Date; weekStart: Date; isoWeek: string },
): Promise<{ userId: string; days: string[] }[]> {
  return sql<{ userId: string; days: string[] }[]>`
    with recent as (
      select l.user_id, bool_or(h.shot_at >= ${window.weekStart}) as trained_this_week
      from ${sql.unsafe(LINKED_HITS)}
      where l.status = 'confirmed' and h.shot_at >= ${window.since}
      group by l.user_id
    ), candidates as (
      select user_id from recent
      where not trained_this_week
        and not exists (select 1 from challenge_streak_warning w where w.user_id = recent.user_id and w.iso_week = ${window.isoWeek})
    )
    select l.user_id as "userId",
      array_agg(distinct to_char((h.shot_at at time zone ${SESSION_TIME_ZONE})::date, 'YYYY-MM-DD')) as days
    from ${sql.unsafe(LINKED_HITS)}
    where l.status = 'confirmed' and l.user_id in (select user_id from candidates)
    group by l.user_id
    order by l.user_id`;
}

/** Records the warning of the week; false when the member already had it (another run got there first). */
export async function claimStreakWarning(sql: Queryable, userId: string, isoWeek: string): Promise<boolean> {
  const rows = await sql`
    insert into challenge_streak_warning (user_id, iso_week) values (${userId}, ${isoWeek})
    on conflict do nothing returning user_id`;
  return rows.length > 0;
}
