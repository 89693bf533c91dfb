import { compare, type Comparison } from './harness';
import type { BenchContext } from './context';
import { benchChallenge } from './seed';
import { leaderboard, type Board } from '../shared/challenges/leaderboard';
import type { Sql } from '../shared/db/client';

const ITERATIONS = 200;
const WARMUP = 20;
const PAGE = 20;
const CLUB = 'bench-club';

/** The users the lines below view the boards as: each has joined both challenges. */
const VIEWERS = [31, 5777, 6278];

/**
 * `count` participations of one challenge: 70 % shared globally, a further 15 % shared within
 * the club only, the rest private; scores 0..500 with many ties, reached at distinct instants;
 * all on one club's board (the worst case for the club board). `user-<n>` on the first board;
 * on the others only the viewers keep that name, so that, as in a deployment where most members
 * have joined one challenge, nearly every user has a single participation.
 */
async function seedChallenge(sql: Sql, count: number, others: string): Promise<string> {
  const challenge = await benchChallenge(sql, { scope: 'club', clubId: CLUB, title: `Bench ${count}`, defaultVisibility: 'club' });
  await sql`
    insert into challenge_participation (challenge_id, user_id, club_id, rules, reward_xp, deadline_at, score, score_reached_at, share_within_club, share_globally)
    select ${challenge.id}, case when n = any(${VIEWERS}) then 'user-' else ${others} end || n, ${CLUB}, '{"goal":{"metric":"shots","target":1000}}', 500, now() + interval '30 days',
           (n * 7919) % 501, timestamp '2026-01-01' + make_interval(secs => n), n % 20 >= 14 and n % 20 < 17, n % 20 < 14
    from generate_series(1, ${count}) as n`;
  return challenge.id;
}

/**
 * The bare page query a first page is compared with (the federation run reuses it): the page's
 * rows with what a page shows of each, the name included (until 2026-11-28 it selected no name, so
 * the names' bytes counted against leaderboard() alone; docs/benchmarks.md, twelfth pass).
 */
export const bareFirstPage = (sql: Sql, challengeId: string, board: Board) =>
  board.kind === 'global'
    ? sql`
        select id, user_id, score, score_reached_at, status, display_name from challenge_participation
        where challenge_id = ${challengeId} and share_globally and status <> 'cancelled'
        order by score desc, score_reached_at, id limit ${PAGE + 1}`
    : sql`
        select id, user_id, score, score_reached_at, status, display_name from challenge_participation
        where challenge_id = ${challengeId} and club_id = ${board.clubId} and (share_within_club or share_globally) and status <> 'cancelled'
        order by score desc, score_reached_at, id limit ${PAGE + 1}`;

/**
 * First leaderboard page (limit 20) of a challenge with 100,000 participations, global and club
 * board, through leaderboard() (own-row lookup, page query, merge, ranks, cursor) against the
 * bare page query on the same partial index, both with each row's display name (the participation
 * rows carry it; leaderboard() adds the initials). Then the same subject at 50,000 against 100,000
 * participations: a ratio near 1 shows the first page does not grow with the participants.
 * The viewer has joined and ranks on the first page; a viewer ranked deep in the board also
 * pays one index count over the rows ahead of them (measured last).
 */
export default async function challengesLeaderboard({ sql }: BenchContext): Promise<Comparison[]> {
  await sql`insert into club (id, name) values (${CLUB}, 'Bench club') on conflict do nothing`;
  // Every participant has signed in before joining: each row the page returns carries a name,
  // copied from the profile onto the participation by trigger as it is inserted.
  await sql`
    insert into person_profile (user_id, display_name)
    select 'user-' || n, 'Bench user-' || n from generate_series(1, 100000) as n
    union all
    select 'half-' || n, 'Bench half-' || n from generate_series(1, 50000) as n where n <> all(${VIEWERS})
    on conflict do nothing`;
  const large = await seedChallenge(sql, 100_000, 'user-');
  const half = await seedChallenge(sql, 50_000, 'half-');
  await sql`vacuum analyze challenge_participation`;
  await sql`vacuum analyze person_profile`;
  // user-31 scores (31 * 7919) % 501 = 500, the top score, and shares globally: a first-page viewer.
  const viewer = 'user-31';
  const results: Comparison[] = [];
  for (const board of [{ kind: 'global' }, { kind: 'club', clubId: CLUB }] as Board[]) {
    results.push(
      await compare({
        title: `Leaderboard first page (limit ${PAGE}), ${board.kind} board, 100,000 participations`,
        baseline: {
          name: 'bare SQL: partial-index range, order by score desc, reached, id limit 21',
          run: () => bareFirstPage(sql, large, board),
        },
        subject: {
          name: 'leaderboard() for a participating viewer',
          run: () => leaderboard(sql, { challengeId: large, viewerId: viewer, board, limit: PAGE }),
        },
        iterations: ITERATIONS,
        warmup: WARMUP,
        // The hot-query target for a first page: at most 1.3× the bare page query.
        target: 1.3,
      }),
    );
  }
  results.push(
    await compare({
      title: `Leaderboard first page (limit ${PAGE}), club board: 100,000 against 50,000 participations (growth)`,
      baseline: {
        name: 'leaderboard() with 50,000 participations',
        run: () => leaderboard(sql, { challengeId: half, viewerId: viewer, board: { kind: 'club', clubId: CLUB }, limit: PAGE }),
      },
      subject: {
        name: 'leaderboard() with 100,000 participations',
        run: () => leaderboard(sql, { challengeId: large, viewerId: viewer, board: { kind: 'club', clubId: CLUB }, limit: PAGE }),
      },
      iterations: ITERATIONS,
      warmup: WARMUP,
      target: 1.5,
    }),
  );
  // user-5777 scores 250 (mid-board) and shares nothing: its rank is a count over the rows ahead.
  for (const [baselineId, subjectId, label] of [[half, large, '50,000 against 100,000 participations']] as const) {
    results.push(
      await compare({
        title: `Leaderboard first page (limit ${PAGE}), global board, viewer ranked mid-board (own rank + rows around): ${label}`,
        baseline: {
          name: 'leaderboard() with 50,000 participations',
          run: () => leaderboard(sql, { challengeId: baselineId, viewerId: 'user-5777', board: { kind: 'global' }, limit: PAGE }),
        },
        subject: {
          name: 'leaderboard() with 100,000 participations',
          run: () => leaderboard(sql, { challengeId: subjectId, viewerId: 'user-5777', board: { kind: 'global' }, limit: PAGE }),
        },
        iterations: ITERATIONS,
        warmup: WARMUP,
      }),
    );
  }
  results.push(
    await compare({
      title: `Leaderboard first page (limit ${PAGE}), global board, 100,000 participations, viewer ranked mid-board`,
      baseline: { name: 'bare SQL: partial-index range, limit 21', run: () => bareFirstPage(sql, large, { kind: 'global' }) },
      subject: {
        name: 'leaderboard() for a viewer ranked mid-board',
        run: () => leaderboard(sql, { challengeId: large, viewerId: 'user-5777', board: { kind: 'global' }, limit: PAGE }),
      },
      iterations: ITERATIONS,
      warmup: WARMUP,
      target: 1.5,
    }),
  );
  results.push(await heavyViewer(sql, large));
  return results;
}

const OTHER_PARTICIPATIONS = 400;

/**
 * The same view for two viewers ranked alike, one of whom has joined 400 other challenges: the
 * own-row lookup must not read a viewer's other participations (migration 027). user-5777 and
 * user-6278 both score 250 and share nothing; the heavy one's rows are added last, so that the
 * lines above run on the board as it was.
 */
async function heavyViewer(sql: Sql, challengeId: string): Promise<Comparison> {
  await sql`
    insert into challenge (id, scope, club_id, title, difficulty, duration_days, default_visibility, reward_xp, rules, created_by)
    select 'bench-other-' || n, 'club', ${CLUB}, 'Other ' || n, 'medium', 30, 'club', 10, '{"goal":{"metric":"shots","target":1000}}', 'bench'
    from generate_series(1, ${OTHER_PARTICIPATIONS}) as n`;
  await sql`
    insert into challenge_participation (challenge_id, user_id, club_id, rules, reward_xp, deadline_at, score, score_reached_at)
    select 'bench-other-' || n, 'user-6278', ${CLUB}, '{"goal":{"metric":"shots","target":1000}}', 10, now() + interval '30 days', 1, now()
    from generate_series(1, ${OTHER_PARTICIPATIONS}) as n`;
  // Vacuumed as well, so that autovacuum does not pick the new rows up while the line runs.
  await sql`vacuum analyze challenge, challenge_participation`;
  const view = (viewerId: string) => () => leaderboard(sql, { challengeId, viewerId, board: { kind: 'global' }, limit: PAGE });
  return compare({
    title: `Leaderboard first page (limit ${PAGE}), global board, viewer ranked mid-board: with ${OTHER_PARTICIPATIONS} other participations against none`,
    baseline: { name: 'leaderboard() for a viewer with no other participation', run: view('user-5777') },
    subject: { name: `leaderboard() for a viewer with ${OTHER_PARTICIPATIONS} other participations`, run: view('user-6278') },
    iterations: ITERATIONS,
    warmup: WARMUP,
    target: 1.1,
  });
}
