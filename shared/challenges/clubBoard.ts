import { listClubRoles } from '../clubs/membershipRepository';
import type { Queryable } from '../db/client';
import { ForbiddenError, NotFoundError } from '../errors/domainErrors';
import { assertMayViewClubBoard, isPlatformAdmin, type Actor } from './access';
import { DEFAULT_LANGUAGE, type Language } from '../i18n/language';
import { findChallenge, findVisibleChallenge } from './challengeRepository';
import { leaderboard } from './leaderboard';
import type { Board } from './leaderboardRepository';
import { findLatestParticipationClub } from './participationRepository';
import type { LeaderboardCursor, LeaderboardPage } from './schemas';

/**
 * The club board to show: a club challenge's own club; otherwise the asked club, else the club
 * of the viewer's newest participation, else their first club. Shown to the club's members and
 * to platform admins.
 */
export async function clubBoardFor(
  sql: Queryable,
  viewer: Actor,
  challenge: { scope: string; clubId: string | null },
  requested: string | undefined,
): Promise<Board> {
  if (challenge.scope === 'club' && requested !== undefined && requested !== challenge.clubId) {
    throw new ForbiddenError('A club challenge has only its own club board.');
  }
  let clubId = challenge.scope === 'club' ? challenge.clubId : requested;
  if (!clubId) {
    clubId = (await findLatestParticipationClub(sql, viewer.userId)) ?? (await listClubRoles(sql, viewer.userId))[0]?.clubId;
  }
  if (!clubId) throw new ForbiddenError('You belong to no club, so there is no club board to show.');
  await assertMayViewClubBoard(sql, viewer, clubId);
  return { kind: 'club', clubId };
}

/** The viewer's page of a challenge's global or club board, naming the challenge in `language`; 404 for a challenge they cannot see. */
export async function leaderboardForViewer(
  sql: Queryable,
  viewer: Actor,
  challengeId: string,
  query: { scope: 'global' | 'club'; clubId?: string | undefined; limit: number; cursor?: LeaderboardCursor | undefined },
  language: Language = DEFAULT_LANGUAGE,
): Promise<LeaderboardPage> {
  const challenge = isPlatformAdmin(viewer)
    ? await findChallenge(sql, challengeId, language)
    : await findVisibleChallenge(sql, challengeId, viewer.userId, language);
  if (!challenge) throw new NotFoundError('No such challenge.', { code: 'challenge_not_found' });
  const board: Board = query.scope === 'global' ? { kind: 'global' } : await clubBoardFor(sql, viewer, challenge, query.clubId);
  const page = await leaderboard(sql, {
    challengeId: challenge.id,
    viewerId: viewer.userId,
    board,
    limit: query.limit,
    after: query.cursor,
  });
  return { ...page, challenge: { title: challenge.title, metric: challenge.rulesJson.goal.metric, endsAt: challenge.endsAt } };
}
