import { compare, type Comparison } from './harness';
import type { BenchContext } from './context';
import { benchChallenge } from './seed';
import { evaluateMany, evaluateParticipation } from '../shared/challenges/progress';
import type { Sql } from '../shared/db/client';

const SHOOTERS = 200;
const HITS_PER_SHOOTER = 40;
const ITERATIONS = 12;
const WARMUP = 2;
const CLUB = 'bench-drain-club';
const CLUB_NUMBER = '990001';

/**
 * What one drain round evaluates: the participations of 200 shooters (each member in the one
 * global challenge every member joined and in their club's challenge, 400 participations), set-
 * based (evaluateMany: one transaction, one read, one measurement, one UPDATE for the batch)
 * against the per-participation loop the drain ran before (evaluateParticipation per id: one
 * transaction each), on one connection. Each side has members of its own on the same boards, and
 * each run measures at an instant that alternates between two, so that every score changes and
 * the board counters are written every time, as they are when new shots arrive.
 */
export default async function progressDrain({ sql }: BenchContext): Promise<Comparison> {
  const joinedAt = new Date(Date.now() - 10 * 3_600_000);
  const global = await benchChallenge(sql, { title: 'Bench drain global' });
  await sql`insert into club (id, name, vereins_id) values (${CLUB}, 'Bench drain club', ${CLUB_NUMBER}) on conflict do nothing`;
  const club = await benchChallenge(sql, { title: 'Bench drain club', scope: 'club', clubId: CLUB });
  const baselineIds = await seedMembers(sql, 'loop', [global.id, club.id], joinedAt);
  const subjectIds = await seedMembers(sql, 'set', [global.id, club.id], joinedAt);
  await sql`vacuum analyze`;

  // Half of each shooter's hits before the first instant, all before the second.
  const instants = [new Date(joinedAt.getTime() + 4 * 3_600_000 + 30_000), new Date(joinedAt.getTime() + 9 * 3_600_000)];
  let baselineRun = 0;
  let subjectRun = 0;
  const instant = (run: number) => instants[run % 2] ?? new Date();
  const result = await compare({
    title: `Progress drain: ${baselineIds.length} participations of ${SHOOTERS} shooters, every score changing`,
    baseline: {
      name: 'per-participation loop (evaluateParticipation each: one transaction per participation)',
      run: async () => {
        const now = instant((baselineRun += 1));
        for (const id of baselineIds) await evaluateParticipation(sql, id, now);
      },
    },
    subject: {
      name: 'set-based (evaluateMany: one transaction for the batch)',
      run: () => evaluateMany(sql, subjectIds, instant((subjectRun += 1))),
    },
    iterations: ITERATIONS,
    warmup: WARMUP,
  });
  // Both paths store the same scores, and the scores did change between the instants.
  const scores = async () => {
    const rows = await sql<{ side: string; scores: string }[]>`
      select split_part(user_id, '-', 1) as side, string_agg(score::text, ',' order by user_id, challenge_id) as scores
      from challenge_participation where club_id = ${CLUB} group by 1 order by 1`;
    return rows.map((row) => row.scores);
  };
  const atEach = [];
  for (const now of instants) {
    for (const id of baselineIds) await evaluateParticipation(sql, id, now);
    await evaluateMany(sql, subjectIds, now);
    atEach.push(await scores());
  }
  const [first, second] = atEach;
  const agree = first?.[0] === first?.[1] && second?.[0] === second?.[1];
  const changed = first?.[0] !== second?.[0];
  return agree && changed
    ? result
    : { ...result, failed: agree ? 'the scores did not change between the instants' : 'the two paths stored different scores' };
}

/**
 * SHOOTERS members `<prefix>-<n>`, each linked (confirmed) to a shooter of the club with
 * HITS_PER_SHOOTER hits spread over nine hours after `joinedAt`, and joined to every challenge of
 * `challengeIds` (shared globally, on the club's board); their participation ids.
 */
async function seedMembers(sql: Sql, prefix: string, challengeIds: readonly string[], joinedAt: Date): Promise<string[]> {
  await sql`
    insert into challenge_shooter_link (club_id, user_id, shooter_id, status, decided_at)
    select ${CLUB}, ${prefix} || '-' || n, ${prefix} || '-shooter-' || n, 'confirmed', now()
    from generate_series(1, ${SHOOTERS}) as n`;
  await sql`
    insert into club_data_hit (source_club_id, source_record_id, shooter_id, discipline, series, shot_no, value, shot_at)
    select ${CLUB_NUMBER}, ${prefix} || '-' || n || '-' || k, ${prefix} || '-shooter-' || n, 'LG', 1 + k / 10, k, 8 + (k % 3),
           ${joinedAt}::timestamptz + make_interval(mins => 5 + k * 540 / ${HITS_PER_SHOOTER})
    from generate_series(1, ${SHOOTERS}) as n, generate_series(0, ${HITS_PER_SHOOTER - 1}) as k`;
  const rows = await sql<{ id: string }[]>`
    insert into challenge_participation (challenge_id, user_id, club_id, rules, reward_xp, joined_at, deadline_at, share_within_club, share_globally)
    select c.id, ${prefix} || '-' || n, ${CLUB}, c.rules, 500, ${joinedAt}, now() + interval '30 days', true, true
    from generate_series(1, ${SHOOTERS}) as n, challenge c
    where c.id = any(${[...challengeIds]}::text[])
    returning id`;
  return rows.map((row) => row.id).sort();
}
