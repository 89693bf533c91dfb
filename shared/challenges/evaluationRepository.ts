import type { Queryable } from '../db/client';
import type { LocalizedText } from '../i18n/localizedText';
import type { Rules } from './rules';

/**
 * The queries of progress evaluation, expiry and knockout settlement over challenge_participation:
 * which participations to evaluate, and the guarded status changes (each only from `active`, so
 * concurrent evaluations and settlements change a row once).
 */

/** What a finished participation's `result` holds. */
export type StoredResult = { placement: string; place?: number | null; xp?: number; badge?: string | null };

/** Active participations of members linked (confirmed) to a shooter of one of these club numbers. */
export async function activeParticipationIdsForClubs(sql: Queryable, clubNumbers: readonly string[]): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select p.id from challenge_participation p
    where p.status = 'active' and exists (
      select 1 from challenge_shooter_link l join club c on c.id = l.club_id
      where l.user_id = p.user_id and l.status = 'confirmed' and c.vereins_id = any(${[...clubNumbers]}::text[])
    )
    order by p.id`;
  return rows.map((row) => row.id);
}

/**
 * Active participations these shooters' hits count for: of members linked (confirmed) to one of
 * them, a club challenge only through the link of its own club.
 */
export async function activeParticipationIdsForShooters(
  sql: Queryable,
  shooters: readonly { clubNumber: string; shooterId: string }[],
): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select distinct p.id
    from unnest(${shooters.map((s) => s.clubNumber)}::text[], ${shooters.map((s) => s.shooterId)}::text[]) as t(club_number, shooter_id)
    join club c on c.vereins_id = t.club_number
    join challenge_shooter_link l on l.club_id = c.id and l.shooter_id = t.shooter_id and l.status = 'confirmed'
    join challenge_participation p on p.user_id = l.user_id and p.status = 'active'
    join challenge ch on ch.id = p.challenge_id
    where ch.scope <> 'club' or ch.club_id = l.club_id
    order by p.id`;
  return rows.map((row) => row.id);
}

/** One page of active participation ids after `after`, in id order. */
export async function activeParticipationIdsAfter(sql: Queryable, after: string, limit: number): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select id from challenge_participation where status = 'active' and id > ${after} order by id limit ${limit}`;
  return rows.map((row) => row.id);
}

/** Fails an active participation (placement `out`); its user and challenge title when this call did it. */
export async function failActiveParticipation(
  sql: Queryable,
  participationId: string,
  now: Date,
): Promise<{ userId: string; title: string; titles: LocalizedText } | undefined> {
  const [row]: [{ userId: string; title: string; titles: LocalizedText }?] = await sql`
    update challenge_participation p set status = 'failed', finished_at = ${now},
      result = coalesce(p.result, '{}'::jsonb) || jsonb_build_object('placement', 'out')
    from challenge c
    where p.id = ${participationId} and p.status = 'active' and c.id = p.challenge_id
    returning p.user_id as "userId", c.title, c.titles`;
  return row;
}

/** Knockout challenges with an active participation whose deadline has passed. */
export async function knockoutChallengesDue(sql: Queryable, now: Date): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select distinct p.challenge_id as id from challenge_participation p
    where p.status = 'active' and p.deadline_at <= ${now} and p.rules ? 'knockout'
    order by 1`;
  return rows.map((row) => row.id);
}

/** Active participations of other (non-knockout) challenges past their deadline, earliest first. */
export async function expiredParticipationIds(sql: Queryable, now: Date): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select id from challenge_participation
    where status = 'active' and deadline_at <= ${now} and not (rules ? 'knockout')
    order by deadline_at, id`;
  return rows.map((row) => row.id);
}

/** Active participations of one challenge past their deadline. */
export async function dueParticipationIds(sql: Queryable, challengeId: string, now: Date): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select id from challenge_participation where challenge_id = ${challengeId} and status = 'active' and deadline_at <= ${now}`;
  return rows.map((row) => row.id);
}

export interface Contender {
  id: string;
  userId: string;
  clubId: string | null;
  score: string;
  rules: Rules;
  rewardXp: number;
  title: string;
  titles: LocalizedText;
}

/**
 * The due active participants of a knockout challenge, locked, per club board (score, then who
 * reached it first); call inside the settling transaction.
 */
export async function lockContenders(sql: Queryable, challengeId: string, now: Date): Promise<Contender[]> {
  return sql<Contender[]>`
    select p.id, p.user_id as "userId", p.club_id as "clubId", p.score::text as score, p.rules, p.reward_xp as "rewardXp", c.title, c.titles
    from challenge_participation p join challenge c on c.id = p.challenge_id
    where p.challenge_id = ${challengeId} and p.status = 'active' and p.deadline_at <= ${now}
    order by p.club_id nulls last, p.score desc, p.score_reached_at, p.id
    for update of p`;
}

/** Ends a locked contender with its status and result. */
export async function finishContender(
  sql: Queryable,
  contenderId: string,
  status: 'completed' | 'failed',
  result: StoredResult,
  now: Date,
): Promise<void> {
  await sql`
    update challenge_participation set status = ${status}, finished_at = ${now}, result = ${sql.json(result)}
    where id = ${contenderId}`;
}
