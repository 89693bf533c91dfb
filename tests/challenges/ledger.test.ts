import { joinChallenge } from '../../shared/challenges/participationRepository';
import { payReward } from '../../shared/challenges/payout';
import { startSeason } from '../../shared/challenges/seasons';
import { appendXp, ladder, xpTotals } from '../../shared/challenges/xpLedgerRepository';
import { getSql } from '../../shared/db/client';
import { makeChallenge, unique } from './support';

describe('XP ledger and seasons', () => {
  it('a season reset restarts the seasonal ladder at 0 and keeps lifetime totals and history', async () => {
    const alice = unique('alice');
    const bob = unique('bob');
    const spring = await startSeason(getSql(), unique('Spring'), new Date('2030-03-01T00:00:00Z'));
    await appendXp(getSql(), { userId: alice, amount: 600, sourceKind: 'challenge', sourceId: unique('p') });
    await appendXp(getSql(), { userId: bob, amount: 300, sourceKind: 'challenge', sourceId: unique('p') });
    expect(await xpTotals(getSql(), alice)).toEqual({
      lifetimeXp: 600,
      season: { id: spring.id, name: spring.name, startsAt: spring.startsAt, xp: 600 },
    });

    const summer = await startSeason(getSql(), unique('Summer'), new Date('2030-06-01T00:00:00Z'));
    const afterReset = await xpTotals(getSql(), alice);
    expect(afterReset).toEqual({ lifetimeXp: 600, season: { id: summer.id, name: summer.name, startsAt: summer.startsAt, xp: 0 } });
    await appendXp(getSql(), { userId: bob, amount: 450, sourceKind: 'challenge', sourceId: unique('p') });

    expect(await ladder(getSql(), { seasonId: summer.id }, 10)).toEqual([{ userId: bob, xp: 450 }]);
    const springLadder = await ladder(getSql(), { seasonId: spring.id }, 10);
    expect(springLadder).toEqual([
      { userId: alice, xp: 600 },
      { userId: bob, xp: 300 },
    ]);
    expect((await xpTotals(getSql(), bob)).lifetimeXp).toBe(750);
    const [closed] = await getSql()<{ endsAt: Date }[]>`select ends_at as "endsAt" from xp_season where id = ${spring.id}`;
    expect(closed?.endsAt).toEqual(new Date('2030-06-01T00:00:00Z'));
    const entries = await getSql()<
      { seasonId: string }[]
    >`select season_id as "seasonId" from xp_ledger where user_id = ${bob} order by id`;
    expect(entries.map((entry) => entry.seasonId)).toEqual([spring.id, summer.id]);
  });

  it('the ledger key alone stops a double payout: twenty transactions paying one participation pay once', async () => {
    const user = unique('user');
    const challenge = await makeChallenge({ title: 'Constraint', rewardXp: 500 });
    const participation = await joinChallenge(getSql(), user, challenge.id, {});
    const reward = {
      userId: user,
      participationId: participation.id,
      challengeId: challenge.id,
      challengeTitle: { de: challenge.title, en: challenge.title },
      xp: 500,
      badgeKey: null,
      placement: 'completed' as const,
    };
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => getSql().begin((tx) => payReward(tx, reward))));
    expect(outcomes.filter((outcome) => outcome.paid)).toHaveLength(1);
    expect((await xpTotals(getSql(), user)).lifetimeXp).toBe(500);
    const notes = await getSql()`select 1 from notification where user_id = ${user}`;
    expect(notes).toHaveLength(1);
  });
});
