import { joinChallenge } from '../../shared/challenges/participationRepository';
import { evaluateParticipations } from '../../shared/challenges/progress';
import { drainTouchedShooters } from '../../shared/challenges/progressDrain';
import { connect, getSql } from '../../shared/db/client';
import { getSettings } from '../../shared/config/settings';
import { addMember, createClub, hitsOn, insertHits, linkShooter, makeChallenge, unique } from './support';

const hour = 3_600_000;
const earlier = (ms: number) => new Date(Date.now() - ms);

async function rowOf(participationId: string) {
  const [row] = await getSql()<{ status: string; score: number; shots: number | null }[]>`
    select status, score::float8 as score, (progress ->> 'shots')::int as shots from challenge_participation where id = ${participationId}`;
  return row;
}
async function ledgerOf(userId: string) {
  return getSql()<{ amount: number; sourceId: string }[]>`select amount, source_id as "sourceId" from xp_ledger where user_id = ${userId}`;
}
async function inboxCount(userId: string) {
  const [row] = await getSql()<{ n: number }[]>`select count(*)::int as n from notification where user_id = ${userId}`;
  return row?.n;
}
/** The board counts the triggers kept for the challenge, and what the rows say they should be. */
async function boardCounts(challengeId: string) {
  const sql = getSql();
  const stored = await sql<{ board: string; score: string; participants: number }[]>`
    select board, score::text, participants from challenge_board_score
    where challenge_id = ${challengeId} and participants <> 0 order by 1, 2`;
  const counted = await sql<{ board: string; score: string; participants: number }[]>`
    select b.board, p.score::text, count(*)::int as participants
    from challenge_participation p
    cross join lateral challenge_board_entries(p.status, p.share_globally, p.share_within_club, p.club_id) as b(board)
    where p.challenge_id = ${challengeId} group by 1, 2 order by 1, 2`;
  return { stored, counted };
}
async function queue(shooters: readonly { clubNumber: string; shooterId: string }[]) {
  await getSql()`
    insert into challenge_progress_touched (source_club_id, shooter_id)
    select * from unnest(${shooters.map((s) => s.clubNumber)}::text[], ${shooters.map((s) => s.shooterId)}::text[])
    on conflict do nothing`;
}
async function queued(clubNumber: string, shooterId: string): Promise<boolean> {
  const rows = await getSql()`select 1 from challenge_progress_touched where source_club_id = ${clubNumber} and shooter_id = ${shooterId}`;
  return rows.length === 1;
}

/** New members of `club`, one per name prefix, in that order. */
async function newMembers<Prefixes extends string[]>(
  club: { clubId: string },
  ...prefixes: Prefixes
): Promise<{ [K in keyof Prefixes]: string }> {
  const users = prefixes.map((prefix) => unique(prefix));
  for (const user of users) await addMember(club.clubId, user);
  return users as { [K in keyof Prefixes]: string };
}

describe('set-based progress evaluation', () => {
  it('measures a batch of participations in one go: each its own metric, window and club, completing the met ones', async () => {
    const club = await createClub();
    const elsewhere = await createClub();
    const [ann, ben] = await newMembers(club, 'ann', 'ben');
    const annHere = await linkShooter(club, ann);
    const annThere = await linkShooter(elsewhere, ann);
    const benHere = await linkShooter(club, ben);
    const joined = earlier(48 * hour);
    await insertHits(club.clubNumber, annHere, [
      ...hitsOn(earlier(72 * hour), 5, 10),
      ...hitsOn(earlier(30 * hour), 10, 9),
      ...hitsOn(earlier(3 * hour), 10, 8),
    ]);
    await insertHits(elsewhere.clubNumber, annThere, hitsOn(earlier(2 * hour), 4, 7));
    await insertHits(club.clubNumber, benHere, hitsOn(earlier(2 * hour), 12, 10));

    const shots = await makeChallenge({ rules: { goal: { metric: 'shots', target: 100 } } });
    const sessions = await makeChallenge({ rules: { goal: { metric: 'sessions', target: 5 } } });
    const clubOnly = await makeChallenge({ scope: 'club', clubId: club.clubId, rules: { goal: { metric: 'shots', target: 100 } } });
    const race = await makeChallenge({ rewardXp: 300, rules: { goal: { metric: 'shots', target: 10 } } });
    const annShots = await joinChallenge(getSql(), ann, shots.id, { clubId: club.clubId }, joined);
    const annSessions = await joinChallenge(getSql(), ann, sessions.id, { clubId: club.clubId }, joined);
    const annClub = await joinChallenge(getSql(), ann, clubOnly.id, {}, joined);
    const benRace = await joinChallenge(getSql(), ben, race.id, { clubId: club.clubId }, joined);
    const annRace = await joinChallenge(getSql(), ann, race.id, { clubId: club.clubId }, joined);
    await getSql()`update challenge_participation set status = 'cancelled' where id = ${annRace.id}`;

    const outcomes = await evaluateParticipations(getSql(), [
      annShots.id,
      annSessions.id,
      annClub.id,
      benRace.id,
      annRace.id,
      'no-such-id',
    ]);

    expect(Object.fromEntries(outcomes)).toEqual({
      [annShots.id]: 'progressed',
      [annSessions.id]: 'progressed',
      [annClub.id]: 'progressed',
      [benRace.id]: 'completed',
      [annRace.id]: 'inactive',
      'no-such-id': 'inactive',
    });
    // Joined 48 hours ago: the 5 shots before do not count; both clubs count, a club challenge only its own.
    expect(await rowOf(annShots.id)).toEqual({ status: 'active', score: 24, shots: 24 });
    expect((await rowOf(annSessions.id))?.shots).toBe(24);
    expect(await rowOf(annClub.id)).toEqual({ status: 'active', score: 20, shots: 20 });
    expect(await rowOf(benRace.id)).toEqual({ status: 'completed', score: 12, shots: 12 });
    expect(await rowOf(annRace.id)).toEqual({ status: 'cancelled', score: 0, shots: null });
    expect(await ledgerOf(ben)).toEqual([{ amount: 300, sourceId: benRace.id }]);
    expect(await ledgerOf(ann)).toEqual([]);
    // One UPDATE for the batch keeps the board counts what the rows say.
    for (const challenge of [shots, clubOnly, race]) {
      const { stored, counted } = await boardCounts(challenge.id);
      expect(stored).toEqual(counted);
    }
  });

  it('concurrent batches sharing participations in opposite orders neither deadlock nor pay twice', async () => {
    const club = await createClub();
    const challenge = await makeChallenge({ rewardXp: 100, rules: { goal: { metric: 'shots', target: 3 } } });
    const users: string[] = [];
    const ids: string[] = [];
    for (let index = 0; index < 8; index += 1) {
      const user = unique('racer');
      users.push(user);
      await addMember(club.clubId, user);
      await insertHits(club.clubNumber, await linkShooter(club, user), hitsOn(earlier(hour), index % 2 === 0 ? 3 : 1, 9));
      ids.push((await joinChallenge(getSql(), user, challenge.id, { clubId: club.clubId }, earlier(2 * hour))).id);
    }
    const reversed = [...ids].reverse();

    const runs = await Promise.all(Array.from({ length: 8 }, (_, run) => evaluateParticipations(getSql(), run % 2 === 0 ? ids : reversed)));

    const completions = runs.flatMap((outcomes) => [...outcomes.values()]).filter((outcome) => outcome === 'completed');
    expect(completions).toHaveLength(4);
    const paid = await Promise.all(users.map(async (user) => (await ledgerOf(user)).length));
    expect(paid).toEqual([1, 0, 1, 0, 1, 0, 1, 0]);
    expect(await Promise.all(users.map(inboxCount))).toEqual([1, 0, 1, 0, 1, 0, 1, 0]);
    const { stored, counted } = await boardCounts(challenge.id);
    expect(stored).toEqual(counted);
  });

  it('concurrent batches paying the same two members in crossed orders neither deadlock nor pay twice', async () => {
    const club = await createClub();
    const challenges = [];
    for (let index = 0; index < 4; index += 1)
      challenges.push(await makeChallenge({ rewardXp: 10, rules: { goal: { metric: 'shots', target: 1 } } }));
    const tag = unique('crossed');
    const pairs = [];
    for (let pair = 0; pair < 8; pair += 1) {
      const [x, y] = [unique('x'), unique('y')];
      for (const user of [x, y]) {
        await addMember(club.clubId, user);
        await insertHits(club.clubNumber, await linkShooter(club, user), hitsOn(earlier(hour), 1, 9));
      }
      // Ids chosen so that each batch, paying in id order, would reach the two members in the other's order.
      const owners = [x, y, y, x];
      const ids = ['a1', 'a2', 'b1', 'b2'].map((suffix) => `${tag}-${pair}-${suffix}`);
      for (let index = 0; index < 4; index += 1) {
        const joined = await joinChallenge(getSql(), owners[index]!, challenges[index]!.id, { clubId: club.clubId }, earlier(2 * hour));
        await getSql()`update challenge_participation set id = ${ids[index]!} where id = ${joined.id}`;
      }
      pairs.push({ x, y, first: ids.slice(0, 2), second: ids.slice(2) });
    }

    for (const { first, second } of pairs) {
      const outcomes = await Promise.all([evaluateParticipations(getSql(), first), evaluateParticipations(getSql(), second)]);
      expect(outcomes.flatMap((batch) => [...batch.values()])).toEqual(['completed', 'completed', 'completed', 'completed']);
    }
    for (const { x, y } of pairs) {
      expect((await ledgerOf(x)).length).toBe(2);
      expect((await ledgerOf(y)).length).toBe(2);
    }
  });
});

describe('the progress drain', () => {
  it('two concurrent drains that both reach one participation pay its completion once', async () => {
    const club = await createClub();
    const other = await createClub();
    const [user] = await newMembers(club, 'member');
    // Two shooter records of one member: two queue entries, one for each drain.
    const here = await linkShooter(club, user);
    const there = await linkShooter(other, user);
    await insertHits(club.clubNumber, here, hitsOn(earlier(hour), 6, 9));
    await insertHits(other.clubNumber, there, hitsOn(earlier(hour), 6, 9));
    const challenge = await makeChallenge({ rewardXp: 500, rules: { goal: { metric: 'shots', target: 10 } } });
    const participation = await joinChallenge(getSql(), user, challenge.id, { clubId: club.clubId }, earlier(2 * hour));
    await queue([
      { clubNumber: club.clubNumber, shooterId: here },
      { clubNumber: other.clubNumber, shooterId: there },
    ]);

    // One shooter a round, rounds until the queue is empty: each drain takes what the other does not.
    const [first, second] = await Promise.all([
      drainTouchedShooters(getSql(), { shooters: 1, budgetMs: 60_000 }),
      drainTouchedShooters(getSql(), { shooters: 1, budgetMs: 60_000 }),
    ]);

    expect(first.completed + second.completed).toBe(1);
    expect(await rowOf(participation.id)).toEqual({ status: 'completed', score: 12, shots: 12 });
    expect(await ledgerOf(user)).toEqual([{ amount: 500, sourceId: participation.id }]);
    expect(await inboxCount(user)).toBe(1);
    expect(await queued(club.clubNumber, here)).toBe(false);
    expect(await queued(other.clubNumber, there)).toBe(false);
  });

  it('drains in lanes at once: each queued shooter taken by one lane and evaluated once, the queue empty after one call', async () => {
    const club = await createClub();
    const challenge = await makeChallenge({ rules: { goal: { metric: 'shots', target: 100 } } });
    const members = [];
    for (let index = 0; index < 6; index += 1) {
      const [user] = await newMembers(club, 'lane');
      const shooter = await linkShooter(club, user);
      await insertHits(club.clubNumber, shooter, hitsOn(earlier(hour), index + 1, 9));
      const participation = await joinChallenge(getSql(), user, challenge.id, { clubId: club.clubId }, earlier(2 * hour));
      members.push({ shooter, participation, shots: index + 1 });
    }
    await queue(members.map(({ shooter }) => ({ clubNumber: club.clubNumber, shooterId: shooter })));

    // One shooter a round in three lanes: six full rounds, and each lane ends on a round that finds the queue empty.
    const outcome = await drainTouchedShooters(getSql(), { shooters: 1, lanes: 3, budgetMs: 60_000 });

    expect(outcome).toEqual({ rounds: 9, shooters: 6, evaluated: 6, completed: 0 });
    for (const { shooter, participation, shots } of members) {
      expect(await rowOf(participation.id)).toEqual({ status: 'active', score: shots, shots });
      expect(await queued(club.clubNumber, shooter)).toBe(false);
    }
  });

  it('puts the shooters of a failed round back on the queue, and a later drain evaluates them', async () => {
    const club = await createClub();
    const [user] = await newMembers(club, 'member');
    const shooter = await linkShooter(club, user);
    await insertHits(club.clubNumber, shooter, hitsOn(earlier(hour), 4, 9));
    const challenge = await makeChallenge({ rules: { goal: { metric: 'shots', target: 10 } } });
    const participation = await joinChallenge(getSql(), user, challenge.id, { clubId: club.clubId }, earlier(2 * hour));
    await queue([{ clubNumber: club.clubNumber, shooterId: shooter }]);

    // The participation held by another transaction, and a drain that waits only briefly for it:
    // its UPDATE fails on the lock timeout after the shooter was claimed.
    const url = new URL(getSettings().DATABASE_URL ?? '');
    url.searchParams.set('lock_timeout', '300');
    const impatient = connect({ url: url.toString(), max: 2 });
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked = () => undefined as void;
    const lockHeld = new Promise<void>((resolve) => (locked = resolve));
    const holder = getSql().begin(async (tx) => {
      await tx`select 1 from challenge_participation where id = ${participation.id} for update`;
      locked();
      await released;
    });
    try {
      await lockHeld;
      await expect(drainTouchedShooters(impatient, { shooters: 10_000, budgetMs: 0 })).rejects.toThrow(/lock timeout/);
      expect(await queued(club.clubNumber, shooter)).toBe(true);
      expect(await rowOf(participation.id)).toEqual({ status: 'active', score: 0, shots: null });
    } finally {
      release();
      await holder;
      await impatient.end();
    }

    const later = await drainTouchedShooters(getSql(), { shooters: 10_000, budgetMs: 60_000 });
    expect(later.shooters).toBeGreaterThanOrEqual(1);
    expect(await rowOf(participation.id)).toEqual({ status: 'active', score: 4, shots: 4 });
    expect(await queued(club.clubNumber, shooter)).toBe(false);
  });

  it('does nothing when switched off (0 shooters a round)', async () => {
    expect(await drainTouchedShooters(getSql(), { shooters: 0, budgetMs: 60_000 })).toEqual({
      rounds: 0,
      shooters: 0,
      evaluated: 0,
      completed: 0,
    });
  });
});
