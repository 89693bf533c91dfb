import { randomBytes } from 'node:crypto';
import { connect, type Sql } from '../shared/db/client';
import { migrate } from '../shared/db/migrate';
import { evaluateClubs } from '../shared/freshness/clubFreshness';
import { CLUB_SIGNALS_QUERY, readClubSignals } from '../shared/freshness/freshnessRepository';
import { createScratchDatabase } from '../development/local/scratchDatabase';
import type { BenchContext } from './context';
import { compare, type Comparison, type Measured } from './harness';

const CLUBS = 2_000;
const HITS = 5_000_000;
const ITERATIONS = 10;
const WARMUP = 2;
const NOW = new Date('2026-11-19T06:00:00Z');

/**
 * The freshness evaluation of 2,000 clubs over 5,000,000 hits against one bare
 * `select source_club_id, max(created_at) from club_data_hit group by source_club_id` on the same
 * data, in the same run; then the same after doubling the hits to 10,000,000, to show that the
 * evaluation reads once per club instead of scanning hits.
 *
 * Subject: readClubSignals (the one query: each club's row of club_last_arrival, plans, token use,
 * box signals, recorded states) plus
 * evaluateClubs (the pure evaluation and rule-6 hints) — everything the health endpoint does.
 * The data lives in a database of its own, made for this bench and dropped afterwards: it is large.
 */
export default async function freshness({ sql: runnerSql }: BenchContext): Promise<Comparison[]> {
  const own = await createOwnDatabase(runnerSql);
  try {
    const { sql } = own;
    // Neither measured query reads these two indexes; without them generating 10,000,000 rows
    // takes minutes instead of half an hour. The reads measured are the same with or without them.
    await sql`drop index club_data_hit_club_record_at_key`;
    await sql`drop index club_data_hit_club_shooter_shot_idx`;
    await seedClubs(sql);
    await addHits(sql, 0);
    const aloneAtFive = await evaluationAlone(sql, '5,000,000');
    const atFive = await measure(sql, '5,000,000');
    await addHits(sql, HITS);
    const aloneAtTen = await evaluationAlone(sql, '10,000,000');
    const atTen = await measure(sql, '10,000,000');
    const doubling: Comparison = {
      title: 'Freshness evaluation alone: 10,000,000 hits vs 5,000,000 hits (2,000 clubs)',
      baseline: aloneAtFive,
      subject: aloneAtTen,
      ratio: aloneAtTen.medianMs / aloneAtFive.medianMs,
      target: 1.2,
    };
    return [atFive, atTen, doubling];
  } finally {
    await own.drop();
  }
}

/**
 * The evaluation on its own, warm, at one data size. Not alternated with the baseline here: the
 * bare group-by reads the whole hit index and pushes the evaluation's few pages out of the
 * buffer cache, so alternating would measure cache refills rather than the evaluation. Also
 * prints the buffers the query touches (EXPLAIN BUFFERS), which do not depend on timing at all.
 */
async function evaluationAlone(sql: Sql, hits: string): Promise<Measured> {
  for (let i = 0; i < WARMUP + 1; i += 1) evaluateClubs(await readClubSignals(sql), NOW);
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS * 4; i += 1) {
    const started = performance.now();
    evaluateClubs(await readClubSignals(sql), NOW);
    times.push(performance.now() - started);
  }
  const [
    {
      'QUERY PLAN': [explained],
    },
  ] = (await sql.unsafe(`explain (analyze, buffers, format json) ${CLUB_SIGNALS_QUERY}`)) as unknown as [
    { 'QUERY PLAN': [{ Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }] },
  ];
  console.log(
    `  (evaluation over ${hits} hits touches ${explained.Plan['Shared Hit Blocks'] + explained.Plan['Shared Read Blocks']} buffers)`,
  );
  const sorted = times.sort((a, b) => a - b);
  return {
    name: `evaluation alone over ${hits} hits`,
    medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
    p90Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))] ?? 0,
    samples: sorted.length,
  };
}

function measure(sql: Sql, hits: string): Promise<Comparison> {
  return compare({
    title: `Freshness evaluation of ${CLUBS.toLocaleString('en')} clubs over ${hits} hits vs bare max(created_at) group by`,
    baseline: {
      name: 'select source_club_id, max(created_at) from club_data_hit group by source_club_id',
      run: () => sql`select source_club_id, max(created_at) from club_data_hit group by source_club_id`,
    },
    subject: {
      name: 'readClubSignals + evaluateClubs',
      run: async () => evaluateClubs(await readClubSignals(sql), NOW),
    },
    iterations: ITERATIONS,
    warmup: WARMUP,
    target: 1.5,
  });
}

/** 2,000 active clubs with club numbers; every tenth has a stored plan, every fifth an edge token. */
async function seedClubs(sql: Sql): Promise<void> {
  await sql`
    insert into club (id, vereins_id, name)
    select 'bench-' || n, 'v' || n, 'Bench club ' || n from generate_series(1, ${CLUBS}) as n`;
  await sql`
    insert into club_training_plan (club_id, time_zone, evenings, updated_by)
    select 'bench-' || n, 'Europe/Berlin',
           '[{"weekday":"tuesday","start":"18:30","end":"21:00","endsNextDay":false},{"weekday":"friday","start":"19:00","end":"22:00","endsNextDay":false}]'::jsonb,
           'bench'
    from generate_series(1, ${CLUBS}, 10) as n`;
  await sql`
    insert into edge_token (club_id, token_hash, last_used_at)
    select 'bench-' || n, encode(sha256(('bench-token-' || n)::bytea), 'hex'), timestamptz '2026-11-19 03:00+00'
    from generate_series(1, ${CLUBS}, 5) as n`;
}

/**
 * HITS hits spread over the clubs and the 60 days before NOW, in one insert … select from
 * generate_series. The freshness index is rebuilt afterwards (one sorted build instead of
 * millions of random insertions), as in the migration: (source_club_id, created_at desc).
 */
async function addHits(sql: Sql, offset: number): Promise<void> {
  const started = performance.now();
  await sql`drop index club_data_hit_club_created_idx`;
  await sql`
    insert into club_data_hit (source_club_id, source_record_id, shooter_id, discipline, series, shot_no, value, shot_at, created_at, updated_at)
    select 'v' || (1 + n % ${CLUBS}::int), 'r' || n, 's' || (n % 97), 'LG', 1 + n % 4, 1 + n % 10, 10.0, at, at, at
    from generate_series(${offset + 1}::bigint, ${offset + HITS}::bigint) as n,
         lateral (select ${NOW}::timestamptz - (n * 7919 % 5184000) * interval '1 second' as at) as arrival`;
  await sql`create index club_data_hit_club_created_idx on club_data_hit (source_club_id, created_at desc)`;
  // Inserted past ingest: each club's last arrival set as the apply statement would have set it.
  await sql`
    insert into club_last_arrival as t (source_club_id, last_arrival_at)
    select source_club_id, max(created_at) from club_data_hit group by source_club_id
    on conflict (source_club_id) do update set last_arrival_at = greatest(t.last_arrival_at, excluded.last_arrival_at)`;
  await sql`vacuum analyze club_data_hit`;
  await sql`vacuum analyze club_last_arrival`;
  console.log(`  (generated ${HITS.toLocaleString('en')} hits in ${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

/** A database of this bench's own on the runner's server, and how to drop it. */
async function createOwnDatabase(runnerSql: Sql): Promise<{ sql: Sql; drop(): Promise<void> }> {
  const options = runnerSql.options;
  const server = new URL('postgres://localhost');
  server.hostname = options.host[0] ?? '127.0.0.1';
  server.port = String(options.port[0] ?? 5432);
  server.username = options.user;
  if (typeof options.pass === 'string') server.password = options.pass;
  server.pathname = '/postgres';
  const database = await createScratchDatabase(
    server.toString(),
    `bench_freshness_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`,
  );
  const sql = connect({ url: database.url, max: 2 });
  await migrate(sql);
  return { sql, drop: () => database.drop(sql) };
}
