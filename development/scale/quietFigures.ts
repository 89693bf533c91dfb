import { performance } from 'node:perf_hooks';
import { bareFirstPage } from '../../bench/challengesLeaderboard.bench';
import { compare } from '../../bench/harness';
import { bareInboxPage } from '../../bench/notificationsInbox.bench';
import { leaderboard } from '../../shared/challenges/leaderboard';
import type { Sql } from '../../shared/db/client';
import { evaluateClubs } from '../../shared/freshness/clubFreshness';
import { readClubSignals } from '../../shared/freshness/freshnessRepository';
import { listInbox } from '../../shared/notifications/inboxService';
import type { Comparison, ScaleFigures } from './figures';

/**
 * The figures read on the preloaded database before any live traffic: the freshness check over
 * the whole catalog, the leaderboard's and the inbox's first page against the same bare page
 * queries their benchmarks use (alternated, bench/harness.ts), and the bytes the hits take.
 */
const FRESHNESS_RUNS = 20;
const PAGE_ITERATIONS = 200;
const PAGE_WARMUP = 20;

export async function freshnessTimes(sql: Sql): Promise<number[]> {
  for (let i = 0; i < 2; i += 1) evaluateClubs(await readClubSignals(sql), new Date());
  const times: number[] = [];
  for (let i = 0; i < FRESHNESS_RUNS; i += 1) {
    const started = performance.now();
    evaluateClubs(await readClubSignals(sql), new Date());
    times.push(performance.now() - started);
  }
  return times;
}

const asFigure = (result: { subject: { medianMs: number }; baseline: { medianMs: number } }): Comparison => ({
  subjectMs: result.subject.medianMs,
  baselineMs: result.baseline.medianMs,
});

/** The global board's first page for its top participant, who shares globally. */
export async function leaderboardFirstPage(sql: Sql, challengeId: string): Promise<Comparison> {
  const [top] = await sql<{ userId: string }[]>`
    select user_id as "userId" from challenge_participation
    where challenge_id = ${challengeId} and share_globally and status <> 'cancelled'
    order by score desc, score_reached_at, id limit 1`;
  const viewerId = top?.userId ?? '';
  return asFigure(
    await compare({
      title: 'leaderboard first page',
      baseline: { name: 'bare page query', run: () => bareFirstPage(sql, challengeId, { kind: 'global' }) },
      subject: { name: 'leaderboard()', run: () => leaderboard(sql, { challengeId, viewerId, board: { kind: 'global' }, limit: 20 }) },
      iterations: PAGE_ITERATIONS,
      warmup: PAGE_WARMUP,
    }),
  );
}

/**
 * The inbox's first page against the bare page query. The baseline runs on `unprepared`, a
 * connection that prepares nothing (postgres.js `prepare: false`): the page's own statements are
 * planned with their values on every call (a custom plan), while the bare query, prepared, falls to
 * a generic plan at this size that reads and sorts the member's whole inbox, a baseline no page
 * could be held against.
 */
export async function inboxFirstPage(sql: Sql, unprepared: Sql, userId: string): Promise<Comparison> {
  return asFigure(
    await compare({
      title: 'inbox first page',
      baseline: { name: 'bare page query, planned each call', run: () => bareInboxPage(unprepared, userId) },
      subject: { name: 'listInbox', run: () => listInbox(sql, userId, { limit: 50, unreadOnly: false }) },
      iterations: PAGE_ITERATIONS,
      warmup: PAGE_WARMUP,
    }),
  );
}

/** Partitions' heap (with TOAST) and indexes per million hits, over the rows they hold. */
export async function bytesPerMillion(sql: Sql): Promise<ScaleFigures['bytesPerMillion'] & { rows: number; partitions: number }> {
  const [size] = await sql<{ rows: number; heap: number; indexes: number; total: number; partitions: number }[]>`
    select sum(c.reltuples)::float8 as rows,
           sum(pg_relation_size(c.oid) + coalesce(pg_relation_size(c.reltoastrelid), 0))::float8 as heap,
           sum(pg_indexes_size(c.oid))::float8 as indexes,
           sum(pg_total_relation_size(c.oid))::float8 as total,
           count(*) filter (where c.reltuples > 0)::int as partitions
    from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'club_data_hit'::regclass`;
  const rows = size?.rows ?? 0;
  const perMillion = (bytes: number) => ((bytes / rows) * 1_000_000) / 2 ** 20;
  return {
    rows,
    partitions: size?.partitions ?? 0,
    heapMiB: perMillion(size?.heap ?? 0),
    indexMiB: perMillion(size?.indexes ?? 0),
    totalMiB: perMillion(size?.total ?? 0),
    bytesPerHit: (size?.total ?? 0) / rows,
  };
}
