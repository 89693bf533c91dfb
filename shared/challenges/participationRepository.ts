import type { Queryable } from '../db/client';
import type { LocalizedText } from '../i18n/localizedText';
import { ConflictError, InvalidError, NotFoundError } from '../errors/domainErrors';
import { PARTICIPATION_JSON, findVisibleChallenge, type ParticipationRowJson } from './challengeRepository';
import type { ParticipationView, Visibility } from './model';
import { compareTiers, tierOf } from './tiers';

export interface SharingPreferences {
  shareWithinClub: boolean;
  shareGlobally: boolean;
}

/** The sharing the user chose in Settings; undefined while they never chose. */
async function findSharingPreferences(sql: Queryable, userId: string): Promise<SharingPreferences | undefined> {
  const [row]: [SharingPreferences?] = await sql`
    select share_within_club as "shareWithinClub", share_globally as "shareGlobally"
    from challenge_sharing_preference where user_id = ${userId}`;
  return row;
}

/** The user's sharing preferences; both off until the user changes them. */
export async function getSharingPreferences(sql: Queryable, userId: string): Promise<SharingPreferences> {
  return (await findSharingPreferences(sql, userId)) ?? { shareWithinClub: false, shareGlobally: false };
}

/** What a challenge's `defaultVisibility` suggests: `global` shares on both boards, `club` within the club, `private` nowhere. */
export function sharingOf(visibility: Visibility): SharingPreferences {
  return { shareWithinClub: visibility !== 'private', shareGlobally: visibility === 'global' };
}

export async function putSharingPreferences(sql: Queryable, userId: string, preferences: SharingPreferences): Promise<SharingPreferences> {
  await sql`
    insert into challenge_sharing_preference (user_id, share_within_club, share_globally)
    values (${userId}, ${preferences.shareWithinClub}, ${preferences.shareGlobally})
    on conflict (user_id) do update set share_within_club = excluded.share_within_club,
      share_globally = excluded.share_globally, updated_at = now()`;
  return preferences;
}

async function participationById(sql: Queryable, id: string): Promise<ParticipationView | undefined> {
  const [row]: [{ participation: ParticipationRowJson }?] = await sql`
    select ${sql.unsafe(PARTICIPATION_JSON)} as participation from challenge_participation p where p.id = ${id}`;
  return row?.participation;
}

/**
 * Joins the user to a template they can see. The rules, reward and deadline are copied into the
 * participation; the sharing flags come from the user's sharing preferences, or, where the user
 * has none, from the challenge's `defaultVisibility`.
 * Global and personal participations appear on the board of `clubId` (a club of the user), else
 * of the user's oldest membership. A participation the user left (`cancelled`) is started afresh
 * in the same row: progress and score from zero, a new deadline. The XP ledger is keyed by the
 * participation, and a cancelled row never paid, so the fresh attempt can still pay exactly once.
 */
export async function joinChallenge(
  sql: Queryable,
  userId: string,
  challengeId: string,
  options: { clubId?: string },
  now: Date = new Date(),
): Promise<ParticipationView> {
  const challenge = await findVisibleChallenge(sql, challengeId, userId);
  if (!challenge) throw new NotFoundError('No such challenge.', { code: 'challenge_not_found' });
  if (challenge.endsAt && new Date(challenge.endsAt).getTime() <= now.getTime()) {
    throw new ConflictError('This challenge has ended.', { code: 'challenge_ended' });
  }
  const [totals]: [{ xp: number }?] = await sql`select lifetime_xp as xp from xp_total where user_id = ${userId}`;
  const tier = tierOf(totals?.xp ?? 0);
  if (
    (challenge.lowerLevel && compareTiers(tier, challenge.lowerLevel) < 0) ||
    (challenge.upperLevel && compareTiers(tier, challenge.upperLevel) > 0)
  ) {
    throw new ConflictError(
      `This challenge is for levels ${challenge.lowerLevel ?? 'iron'} to ${challenge.upperLevel ?? 'diamond'}; yours is ${tier}.`,
      {
        code: 'level_out_of_bounds',
      },
    );
  }
  let clubId: string | null = challenge.clubId;
  if (challenge.scope !== 'club') {
    const memberships = await sql<{ clubId: string }[]>`
      select club_id as "clubId" from club_membership where user_id = ${userId} order by created_at, club_id`;
    if (options.clubId !== undefined && !memberships.some((membership) => membership.clubId === options.clubId)) {
      throw new InvalidError('You are not a member of that club.', [{ path: 'clubId', message: 'must be one of your clubs' }]);
    }
    clubId = options.clubId ?? memberships[0]?.clubId ?? null;
  }
  // The member's own choice wins; without one, the challenge's suggestion.
  const sharing = (await findSharingPreferences(sql, userId)) ?? sharingOf(challenge.defaultVisibility);
  const deadline = challenge.endsAt ? new Date(challenge.endsAt) : new Date(now.getTime() + challenge.durationDays * 86_400_000);
  const [inserted]: [{ id: string }?] = await sql`
    insert into challenge_participation
      (challenge_id, user_id, club_id, rules, reward_xp, joined_at, deadline_at, score_reached_at, share_within_club, share_globally)
    values (${challenge.id}, ${userId}, ${clubId}, ${sql.json(challenge.rulesJson)}, ${challenge.rewardXp}, ${now}, ${deadline}, ${now},
            ${sharing.shareWithinClub}, ${sharing.shareGlobally})
    on conflict (challenge_id, user_id) do update set
      club_id = excluded.club_id, status = 'active', rules = excluded.rules, reward_xp = excluded.reward_xp,
      joined_at = excluded.joined_at, deadline_at = excluded.deadline_at, progress = null, result = null, score = 0,
      score_reached_at = excluded.score_reached_at, share_within_club = excluded.share_within_club,
      share_globally = excluded.share_globally, evaluated_at = null, finished_at = null
    where challenge_participation.status = 'cancelled'
    returning id`;
  if (!inserted) throw new ConflictError('You have already joined this challenge.', { code: 'already_joined' });
  const view = await participationById(sql, inserted.id);
  if (!view) throw new NotFoundError('No such participation.');
  return view;
}

/** Changes the sharing flags of the caller's own participation; anyone else's id is not found. */
export async function setParticipationVisibility(
  sql: Queryable,
  userId: string,
  participationId: string,
  flags: Partial<SharingPreferences>,
): Promise<ParticipationView> {
  const [row]: [{ id: string }?] = await sql`
    update challenge_participation set
      share_within_club = coalesce(${flags.shareWithinClub ?? null}::boolean, share_within_club),
      share_globally = coalesce(${flags.shareGlobally ?? null}::boolean, share_globally)
    where id = ${participationId} and user_id = ${userId}
    returning id`;
  if (!row) throw new NotFoundError('No such participation of yours.', { code: 'participation_not_found' });
  const view = await participationById(sql, row.id);
  if (!view) throw new NotFoundError('No such participation of yours.', { code: 'participation_not_found' });
  return view;
}

export interface CompletionRow {
  participationId: string;
  challengeId: string;
  title: string;
  titles: LocalizedText;
  finishedAt: Date;
  xp: number;
  placement: string | null;
  private: boolean;
  clubId: string | null;
}

/** A user's completed participations, newest first. */
export function listRecentCompletions(sql: Queryable, userId: string, limit: number): Promise<CompletionRow[]> {
  return sql<CompletionRow[]>`
    select p.id as "participationId", p.challenge_id as "challengeId", c.title, c.titles, p.finished_at as "finishedAt",
           coalesce((p.result->>'xp')::int, p.reward_xp) as xp, p.result->>'placement' as placement,
           not (p.share_within_club or p.share_globally) as private, p.club_id as "clubId"
    from challenge_participation p join challenge c on c.id = p.challenge_id
    where p.user_id = ${userId} and p.status = 'completed'
    order by p.finished_at desc, p.id limit ${limit}`;
}

/** The club of the user's newest participation that has one. */
export async function findLatestParticipationClub(sql: Queryable, userId: string): Promise<string | undefined> {
  const [row]: [{ clubId: string }?] = await sql`
    select club_id as "clubId" from challenge_participation where user_id = ${userId} and club_id is not null
    order by joined_at desc limit 1`;
  return row?.clubId;
}
