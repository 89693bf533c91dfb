import { compare, type Comparison } from './harness';
import type { BenchContext } from './context';
import { ladderForViewer } from '../shared/challenges/ladder';
import type { LadderQuery } from '../shared/challenges/memberSchemas';
import type { Sql } from '../shared/db/client';

const ITERATIONS = 200;
const WARMUP = 20;
const PAGE = 20;

/**
 * A closed season with `count` users' XP (0..5,000 with many ties). The users' sharing preferences
 * are seeded once for the largest season: 70 % share globally, a further 15 % within the club only,
 * the rest nothing.
 */
async function seedSeason(sql: Sql, count: number): Promise<string> {
  const [season] = await sql<{ id: string }[]>`
    insert into xp_season (name, starts_at, ends_at) values (${`Bench ${count}`}, '2020-01-01', '2020-02-01') returning id`;
  await sql`
    insert into xp_season_total (season_id, user_id, xp)
    select ${season!.id}, 'user-' || n, (n * 7919) % 5001 from generate_series(1, ${count}) as n`;
  return season!.id;
}

const barePage = (sql: Sql, seasonId: string) => sql`
  select user_id, xp from xp_season_total where season_id = ${seasonId} and share_globally
  order by xp desc, user_id limit ${PAGE + 1}`;

const query = (seasonId: string): LadderQuery => ({ period: 'season', seasonId, scope: 'global', limit: PAGE });
const viewer = (userId: string) => ({ userId, capabilities: new Set<never>() });

/**
 * The global XP ladder of a season through ladderForViewer() (own row and page in one statement,
 * merge, ranks, tiers, cursor) against the bare page query; then the same for a viewer ranked
 * mid-ladder, whose rank is a count over the visible rows ahead (no per-XP histogram as the
 * challenge boards have), at 50,000 against 100,000 users.
 */
export default async function challengesLadder({ sql }: BenchContext): Promise<Comparison[]> {
  // Preferences first: the totals copy shareGlobally when they are inserted (migration 021).
  await sql`
    insert into challenge_sharing_preference (user_id, share_within_club, share_globally)
    select 'user-' || n, n % 20 >= 14 and n % 20 < 17, n % 20 < 14 from generate_series(1, 100000) as n`;
  const large = await seedSeason(sql, 100_000);
  const half = await seedSeason(sql, 50_000);
  await sql`vacuum analyze xp_season_total`;
  await sql`vacuum analyze challenge_sharing_preference`;
  // user-4444 has (4444 * 7919) % 5001 = 5000 XP, the top, and shares globally: on the first page.
  const top = viewer('user-4444');
  // user-2222 has 2,500 XP, mid-ladder: rank and neighbours cost a second statement.
  const middle = viewer('user-2222');
  return [
    await compare({
      title: `XP ladder first page (limit ${PAGE}), global, season of 100,000 users, viewer on the page`,
      baseline: {
        name: 'bare SQL: partial-index range of the season, order by xp desc, user id limit 21',
        run: () => barePage(sql, large),
      },
      subject: { name: 'ladderForViewer() for a viewer on the page', run: () => ladderForViewer(sql, top, query(large)) },
      iterations: ITERATIONS,
      warmup: WARMUP,
    }),
    await compare({
      title: `XP ladder first page (limit ${PAGE}), global: 100,000 against 50,000 users (growth)`,
      baseline: { name: 'ladderForViewer() with 50,000 users', run: () => ladderForViewer(sql, top, query(half)) },
      subject: { name: 'ladderForViewer() with 100,000 users', run: () => ladderForViewer(sql, top, query(large)) },
      iterations: ITERATIONS,
      warmup: WARMUP,
      target: 1.5,
    }),
    await compare({
      title: `XP ladder first page (limit ${PAGE}), global, viewer ranked mid-ladder: 100,000 against 50,000 users (growth)`,
      baseline: { name: 'ladderForViewer() with 50,000 users', run: () => ladderForViewer(sql, middle, query(half)) },
      subject: { name: 'ladderForViewer() with 100,000 users', run: () => ladderForViewer(sql, middle, query(large)) },
      iterations: 50,
      warmup: 5,
    }),
    await compare({
      title: `XP ladder first page (limit ${PAGE}), global, season of 100,000 users, viewer ranked mid-ladder`,
      baseline: {
        name: 'bare SQL: partial-index range of the season, order by xp desc, user id limit 21',
        run: () => barePage(sql, large),
      },
      subject: { name: 'ladderForViewer() for a viewer ranked mid-ladder', run: () => ladderForViewer(sql, middle, query(large)) },
      iterations: 50,
      warmup: 5,
    }),
  ];
}
