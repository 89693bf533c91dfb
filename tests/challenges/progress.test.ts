import { expireParticipations } from '../../shared/challenges/expiry';
import { joinChallenge } from '../../shared/challenges/participationRepository';
import { evaluateParticipation, evaluateProgressForClubs } from '../../shared/challenges/progress';
import { appendXp } from '../../shared/challenges/xpLedgerRepository';
import { getSql } from '../../shared/db/client';
import { addMember, createClub, ensureBadge, hitsOn, insertHits, linkShooter, makeChallenge, unique } from './support';

// Long before any other test's deadlines: the expiry sweep is global, and must only meet these rows.
const joined = new Date('2020-01-06T08:00:00Z');
const day = (n: number) => new Date(joined.getTime() + n * 86_400_000 + 3_600_000);

async function ledgerOf(userId: string) {
  return getSql()<{ amount: number; sourceId: string }[]>`select amount, source_id as "sourceId" from xp_ledger where user_id = ${userId}`;
}
async function inboxOf(userId: string) {
  return getSql()<{ title: string; body: string; tone: string; kind: string; category: string }[]>`
    select title, body, tone, kind, category from notification where user_id = ${userId} order by created_at`;
}

describe('progress from shot data', () => {
  it('measures shots, sessions, average and best series over the participation window only', async () => {
    const club = await createClub();
    const user = unique('user');
    await addMember(club.clubId, user);
    const shooter = await linkShooter(club, user);
    const other = await linkShooter(club, unique('other'));
    await insertHits(club.clubNumber, shooter, [
      ...hitsOn(new Date(joined.getTime() - 86_400_000), 5, 10), // before joining: never counts
      ...hitsOn(day(1), 10, 9, 1),
      ...hitsOn(day(1), 10, 8, 2),
      ...hitsOn(day(3), 10, 10, 1),
    ]);
    await insertHits(club.clubNumber, other, hitsOn(day(1), 50, 10));
    const expectations = [
      [{ metric: 'shots', target: 100 }, 30],
      [{ metric: 'sessions', target: 5 }, 2],
      [{ metric: 'averageRing', target: 10, minShots: 10 }, 9],
      [{ metric: 'bestSeries', target: 105 }, 100],
    ] as const;
    for (const [goal, value] of expectations) {
      const challenge = await makeChallenge({ rules: { goal } });
      const participation = await joinChallenge(getSql(), user, challenge.id, {}, joined);
      expect(await evaluateParticipation(getSql(), participation.id, day(5))).toBe('progressed');
      const [row] = await getSql()<{ score: string; progress: { value: number; fraction: number }; status: string }[]>`
        select score::text, progress, status from challenge_participation where id = ${participation.id}`;
      expect({ metric: goal.metric, value: row!.progress.value, score: Number(row!.score), status: row!.status }).toEqual({
        metric: goal.metric,
        value,
        score: value,
        status: 'active',
      });
    }
  });

  it('a deleted shot, another discipline or an unconfirmed link does not count', async () => {
    const club = await createClub();
    const user = unique('user');
    await addMember(club.clubId, user);
    const shooter = await linkShooter(club, user);
    await insertHits(club.clubNumber, shooter, [...hitsOn(day(1), 3, 9), { at: day(1), value: 9, discipline: 'KK' }]);
    await getSql()`update club_data_hit set deleted_at = now() where shooter_id = ${shooter} and ctid = (select ctid from club_data_hit where shooter_id = ${shooter} limit 1)`;
    const unconfirmed = unique('user');
    await getSql()`insert into challenge_shooter_link (club_id, user_id, shooter_id) values (${club.clubId}, ${unconfirmed}, ${'ghost'})`;
    await insertHits(club.clubNumber, 'ghost', hitsOn(day(1), 5, 9));
    const challenge = await makeChallenge({ rules: { goal: { metric: 'shots', target: 100 }, discipline: 'LG' } });
    const mine = await joinChallenge(getSql(), user, challenge.id, {}, joined);
    const theirs = await joinChallenge(getSql(), unconfirmed, challenge.id, {}, joined);
    await evaluateParticipation(getSql(), mine.id, day(2));
    await evaluateParticipation(getSql(), theirs.id, day(2));
    const rows = await getSql()<{ userId: string; score: string }[]>`
      select user_id as "userId", score::text from challenge_participation where challenge_id = ${challenge.id} order by score desc`;
    expect(rows.map((row) => [row.userId, Number(row.score)])).toEqual([
      [user, 2],
      [unconfirmed, 0],
    ]);
  });

  it('twenty concurrent evaluations of a met goal pay XP, badge and notification exactly once', async () => {
    const club = await createClub();
    const user = unique('user');
    await addMember(club.clubId, user);
    const shooter = await linkShooter(club, user);
    await insertHits(club.clubNumber, shooter, hitsOn(day(1), 12, 9));
    await ensureBadge('race-badge');
    const challenge = await makeChallenge({
      title: 'Race to ten',
      rewardXp: 750,
      rules: { goal: { metric: 'shots', target: 10 }, rewardBadge: 'race-badge' },
    });
    const participation = await joinChallenge(getSql(), user, challenge.id, {}, joined);

    const outcomes = await Promise.all(Array.from({ length: 20 }, () => evaluateParticipation(getSql(), participation.id, day(2))));

    expect(outcomes.filter((outcome) => outcome === 'completed')).toHaveLength(1);
    expect(await ledgerOf(user)).toEqual([{ amount: 750, sourceId: participation.id }]);
    const [total] = await getSql()<{ xp: number }[]>`select lifetime_xp as xp from xp_total where user_id = ${user}`;
    expect(total?.xp).toBe(750);
    const badges = await getSql()`select badge_key from challenge_user_badge where user_id = ${user}`;
    expect(badges).toHaveLength(1);
    // Stored in the member's language (German: none is stored); the inbox renders it for each reader.
    expect(await inboxOf(user)).toEqual([
      {
        title: 'Challenge geschafft: Race to ten',
        body: 'Du hast +750 XP und das Abzeichen „Badge race-badge“ verdient.',
        tone: 'success',
        kind: 'challenge',
        category: 'training',
      },
    ]);
    const [row] = await getSql()<
      { status: string; result: unknown }[]
    >`select status, result from challenge_participation where id = ${participation.id}`;
    expect(row).toEqual({ status: 'completed', result: { placement: 'completed', xp: 750, badge: 'race-badge' } });
    // A later evaluation finds nothing to do.
    expect(await evaluateParticipation(getSql(), participation.id, day(3))).toBe('inactive');
  });

  it('the ledger refuses updates and deletes', async () => {
    const user = unique('user');
    expect(await appendXp(getSql(), { userId: user, amount: 5, sourceKind: 'challenge', sourceId: 'x' })).toBe(true);
    expect(await appendXp(getSql(), { userId: user, amount: 5, sourceKind: 'challenge', sourceId: 'x' })).toBe(false);
    await expect(getSql()`delete from xp_ledger where user_id = ${user}`).rejects.toThrow('append-only');
    await expect(getSql()`update xp_ledger set amount = 1 where user_id = ${user}`).rejects.toThrow('append-only');
    expect(await ledgerOf(user)).toEqual([{ amount: 5, sourceId: 'x' }]);
  });

  it('ingest can re-evaluate the members of the clubs a batch touched', async () => {
    const club = await createClub();
    const elsewhere = await createClub();
    const user = unique('user');
    const stranger = unique('user');
    const shooter = await linkShooter(club, user);
    const strangerShooter = await linkShooter(elsewhere, stranger);
    const challenge = await makeChallenge({ rules: { goal: { metric: 'shots', target: 5 } } });
    const mine = await joinChallenge(getSql(), user, challenge.id, {}, joined);
    const theirs = await joinChallenge(getSql(), stranger, challenge.id, {}, joined);
    await insertHits(club.clubNumber, shooter, hitsOn(day(1), 5, 8));
    await insertHits(elsewhere.clubNumber, strangerShooter, hitsOn(day(1), 5, 8));

    expect(await evaluateProgressForClubs(getSql(), [club.clubNumber], day(2))).toEqual({ evaluated: 1, completed: 1 });
    const statuses = await getSql()<{ id: string; status: string }[]>`
      select id, status from challenge_participation where id in (${mine.id}, ${theirs.id})`;
    expect(Object.fromEntries(statuses.map((row) => [row.id, row.status]))).toEqual({ [mine.id]: 'completed', [theirs.id]: 'active' });
    expect(await evaluateProgressForClubs(getSql(), [], day(2))).toEqual({ evaluated: 0, completed: 0 });
  });

  it('the expiry timer fails what passed its deadline, once, after a last look at late data', async () => {
    const club = await createClub();
    const late = unique('user');
    const idle = unique('user');
    const lateShooter = await linkShooter(club, late);
    await linkShooter(club, idle);
    const challenge = await makeChallenge({ title: 'Short one', durationDays: 2, rules: { goal: { metric: 'shots', target: 3 } } });
    const lateOne = await joinChallenge(getSql(), late, challenge.id, {}, joined);
    const idleOne = await joinChallenge(getSql(), idle, challenge.id, {}, joined);
    // Shot before the deadline, ingested only after it.
    await insertHits(club.clubNumber, lateShooter, hitsOn(day(1), 3, 7));

    expect(await expireParticipations(getSql(), day(1))).toEqual({ failed: 0, completed: 0, knockoutsSettled: 0 });
    const first = await expireParticipations(getSql(), day(4));
    expect(first).toEqual({ failed: 1, completed: 1, knockoutsSettled: 0 });
    expect(await expireParticipations(getSql(), day(5))).toEqual({ failed: 0, completed: 0, knockoutsSettled: 0 });
    const rows = await getSql()<
      { id: string; status: string }[]
    >`select id, status from challenge_participation where challenge_id = ${challenge.id}`;
    expect(Object.fromEntries(rows.map((row) => [row.id, row.status]))).toEqual({ [lateOne.id]: 'completed', [idleOne.id]: 'failed' });
    expect(await inboxOf(idle)).toEqual([
      expect.objectContaining({ title: 'Challenge beendet: Short one', tone: 'info', kind: 'challenge' }),
    ]);
    const deliveries = await getSql()`select 1 from notification_outbox where user_id = ${idle}`;
    expect(deliveries).toHaveLength(0);
  });

  it('a knockout pays the winner rewardXp, finalists less, both the badge, the rest nothing', async () => {
    const club = await createClub();
    await ensureBadge('cup-test', 'diamond');
    const endsAt = day(10);
    const challenge = await makeChallenge({
      scope: 'club',
      clubId: club.clubId,
      title: 'Cup',
      endsAt,
      rewardXp: 1000,
      rules: { goal: { metric: 'bestSeries', target: 109 }, rewardBadge: 'cup-test', knockout: { finalists: 2, finalistXp: 400 } },
    });
    const scores = [95, 99, 90, 80];
    const users: string[] = [];
    for (const value of scores) {
      const user = unique('shooter');
      users.push(user);
      await addMember(club.clubId, user);
      const shooter = await linkShooter(club, user);
      await insertHits(club.clubNumber, shooter, hitsOn(day(2), 10, value / 10));
      await joinChallenge(getSql(), user, challenge.id, {}, joined);
    }
    const idle = unique('shooter');
    await addMember(club.clubId, idle);
    await joinChallenge(getSql(), idle, challenge.id, {}, joined);
    // A knockout never completes early, however good the score.
    await evaluateProgressForClubs(getSql(), [club.clubNumber], day(3));
    const [activeBefore] = await getSql()<
      { n: number }[]
    >`select count(*)::int as n from challenge_participation where challenge_id = ${challenge.id} and status = 'active'`;
    expect(activeBefore?.n).toBe(5);

    const [first, second] = await Promise.all([expireParticipations(getSql(), day(11)), expireParticipations(getSql(), day(11))]);
    expect(first.completed + second.completed).toBe(3);

    const xp = async (user: string) => (await ledgerOf(user)).reduce((sum, entry) => sum + entry.amount, 0);
    expect(await Promise.all(users.map(xp))).toEqual([400, 1000, 400, 0]);
    expect(await xp(idle)).toBe(0);
    const results = await getSql()<{ userId: string; status: string; result: { placement: string; place: number | null } }[]>`
      select user_id as "userId", status, result from challenge_participation where challenge_id = ${challenge.id}`;
    const byUser = Object.fromEntries(results.map((row) => [row.userId, [row.status, row.result.placement, row.result.place]]));
    expect(byUser).toEqual({
      [users[1]!]: ['completed', 'winner', 1],
      [users[0]!]: ['completed', 'finalist', 2],
      [users[2]!]: ['completed', 'finalist', 3],
      [users[3]!]: ['failed', 'out', 4],
      [idle]: ['failed', 'out', null],
    });
    // The spec: completion grants the challenge's rewardBadge with the XP, and finalists complete.
    const badges = await getSql()<{ userId: string }[]>`select user_id as "userId" from challenge_user_badge where badge_key = 'cup-test'`;
    expect(badges.map((row) => row.userId).sort()).toEqual([users[0], users[1], users[2]].sort());
    const finalistResult = results.find((row) => row.userId === users[0])?.result as { badge?: string } | undefined;
    expect(finalistResult?.badge).toBe('cup-test');
  });
});
