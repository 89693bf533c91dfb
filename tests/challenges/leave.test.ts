import { leaderboard } from '../../shared/challenges/leaderboard';
import { leaveChallenge } from '../../shared/challenges/leave';
import { joinChallenge, putSharingPreferences } from '../../shared/challenges/participationRepository';
import { evaluateParticipation } from '../../shared/challenges/progress';
import { xpTotals } from '../../shared/challenges/xpLedgerRepository';
import { getSql } from '../../shared/db/client';
import { ConflictError, NotFoundError } from '../../shared/errors/domainErrors';
import { addMember, createClub, hitsOn, insertHits, linkShooter, makeChallenge, unique } from './support';

/** Leaving a challenge (status cancelled) and joining it again, without HTTP. */

const hour = 3_600_000;

async function shooterInClub() {
  const club = await createClub();
  const user = unique('leaver');
  await addMember(club.clubId, user);
  const shooter = await linkShooter(club, user);
  await putSharingPreferences(getSql(), user, { shareWithinClub: true, shareGlobally: true });
  return { club, user, shooter };
}

async function boardCount(challengeId: string, board: string): Promise<number> {
  const [row] = await getSql()<{ participants: number }[]>`
    select coalesce(sum(participants), 0)::int as participants from challenge_board_score where challenge_id = ${challengeId} and board = ${board}`;
  return row?.participants ?? 0;
}

describe('leaving a challenge', () => {
  it('cancels the participation, takes it off every board, pays nothing for it, and a rejoin starts afresh and pays once', async () => {
    const { club, user, shooter } = await shooterInClub();
    const challenge = await makeChallenge({ rules: { goal: { metric: 'shots', target: 10 } }, rewardXp: 600 });
    const start = new Date(Date.now() - 48 * hour);
    const joined = await joinChallenge(getSql(), user, challenge.id, {}, start);
    await insertHits(club.clubNumber, shooter, hitsOn(new Date(start.getTime() + hour), 4, 9));
    await evaluateParticipation(getSql(), joined.id, new Date(start.getTime() + 2 * hour));
    expect(await boardCount(challenge.id, 'global')).toBe(1);
    expect(await boardCount(challenge.id, `club:${club.clubId}`)).toBe(1);

    const left = await leaveChallenge(getSql(), user, joined.id, new Date(start.getTime() + 3 * hour));
    expect(left).toMatchObject({ id: joined.id, status: 'cancelled', finishedAt: new Date(start.getTime() + 3 * hour).toISOString() });
    expect(await boardCount(challenge.id, 'global')).toBe(0);
    expect(await boardCount(challenge.id, `club:${club.clubId}`)).toBe(0);
    // Not on the board for anyone, not even for the one who left.
    const board = await leaderboard(getSql(), { challengeId: challenge.id, viewerId: user, board: { kind: 'global' }, limit: 10 });
    expect(board).toMatchObject({ items: [], me: null });
    // Shots after leaving complete nothing.
    await insertHits(club.clubNumber, shooter, hitsOn(new Date(start.getTime() + 4 * hour), 10, 9));
    expect(await evaluateParticipation(getSql(), joined.id, new Date(start.getTime() + 5 * hour))).toBe('inactive');
    expect((await xpTotals(getSql(), user)).lifetimeXp).toBe(0);
    // Leaving twice: the participation is no longer active.
    await expect(leaveChallenge(getSql(), user, joined.id)).rejects.toMatchObject({ code: 'not_active' });

    // Rejoining reuses the row as a fresh attempt: score 0, new deadline, counted from the rejoin.
    const rejoinedAt = new Date(start.getTime() + 6 * hour);
    const rejoined = await joinChallenge(getSql(), user, challenge.id, {}, rejoinedAt);
    expect(rejoined).toMatchObject({
      id: joined.id,
      status: 'active',
      progress: null,
      finishedAt: null,
      joinedAt: rejoinedAt.toISOString(),
    });
    expect(new Date(rejoined.deadlineAt).getTime()).toBe(rejoinedAt.getTime() + challenge.durationDays * 24 * hour);
    // The 14 shots before the rejoin do not count towards it.
    expect(await evaluateParticipation(getSql(), joined.id, new Date(start.getTime() + 7 * hour))).not.toBe('completed');
    await insertHits(club.clubNumber, shooter, hitsOn(new Date(start.getTime() + 8 * hour), 10, 9));
    expect(await evaluateParticipation(getSql(), joined.id, new Date(start.getTime() + 9 * hour))).toBe('completed');
    expect((await xpTotals(getSql(), user)).lifetimeXp).toBe(600);

    // A completed participation cannot be left: its XP stays.
    await expect(leaveChallenge(getSql(), user, joined.id)).rejects.toThrow(ConflictError);
    expect((await xpTotals(getSql(), user)).lifetimeXp).toBe(600);
    await expect(joinChallenge(getSql(), user, challenge.id, {})).rejects.toMatchObject({ code: 'already_joined' });
  });

  it('answers not found for another member’s participation and changes nothing', async () => {
    const { user } = await shooterInClub();
    const challenge = await makeChallenge();
    const joined = await joinChallenge(getSql(), user, challenge.id, {});
    await expect(leaveChallenge(getSql(), unique('intruder'), joined.id)).rejects.toThrow(NotFoundError);
    const [row] = await getSql()<{ status: string }[]>`select status from challenge_participation where id = ${joined.id}`;
    expect(row?.status).toBe('active');
  });

  it('refuses a rejoin once the challenge has ended', async () => {
    const { user } = await shooterInClub();
    const endsAt = new Date(Date.now() + 24 * hour);
    const challenge = await makeChallenge({ endsAt });
    const joined = await joinChallenge(getSql(), user, challenge.id, {});
    await leaveChallenge(getSql(), user, joined.id);
    await expect(joinChallenge(getSql(), user, challenge.id, {}, new Date(endsAt.getTime() + hour))).rejects.toMatchObject({
      code: 'challenge_ended',
    });
  });
});
