import type { Sql } from '../shared/db/client';
import { readClubFreshnessView } from '../shared/freshness/clubFreshnessView';
import { boxPushBlock } from '../shared/portal/boxPushes';
import { readClubOverview } from '../shared/portal/clubOverview';
import type { BenchContext } from './context';
import { compare, type Comparison } from './harness';

const CLUBS = 2_000;
const NOW = new Date('2026-11-26T06:00:00Z');

/**
 * The admin portal's club page and the diagnostics' failing-push block, on 2,000 active clubs with
 * tokens, club master reports (every fourth one 3 days old) and starter-list signals, the reject
 * log and the dead letters full (1,000 rows each, spread over 200 club numbers), 60 members in the
 * club shown.
 *
 * 1. The whole club page (readClubOverview, every block) against reading the same club's freshness
 *    alone (readClubFreshnessView): what the one call adds on top of its first query. The page runs
 *    about 15 short queries (after the first, six groups in parallel on the pool), so the target
 *    is 10×: well under the 15 it would cost one after the other.
 * 2. boxPushBlock over every club against a bare `select` of the report and signal rows it judges.
 */
export default async function clubOverview({ sql }: BenchContext): Promise<Comparison[]> {
  await seed(sql);
  const clubId = 'ov-7';
  const options = {
    now: NOW,
    staleAfterHours: 24,
    ingestSource: { statusEnabled: true, runnerKind: 'event' as const },
    include: { ingest: true, members: true },
    members: { limit: 50, offset: 0 },
  };
  const page = await compare({
    title: `Club page (every block) vs the club's freshness read alone, ${CLUBS.toLocaleString('en')} clubs, full ingest records`,
    baseline: { name: 'readClubFreshnessView', run: () => readClubFreshnessView(sql, clubId, NOW) },
    subject: { name: 'readClubOverview', run: () => readClubOverview(sql, clubId, options) },
    iterations: 30,
    warmup: 5,
    target: 10,
  });
  const pushes = await compare({
    title: `Failing box pushes of ${CLUBS.toLocaleString('en')} clubs vs bare select of their report and signal rows`,
    baseline: {
      name: 'select … from club left join club_master_report left join edge_box_signal',
      run: () => sql`
        select c.id, r.last_reported_at, b.last_push_at from club c
        left join club_master_report r on r.club_id = c.id left join edge_box_signal b on b.club_id = c.id`,
    },
    subject: { name: 'boxPushBlock', run: () => boxPushBlock(sql, NOW, 24) },
    iterations: 30,
    warmup: 5,
    target: 3,
  });
  return [page, pushes];
}

async function seed(sql: Sql): Promise<void> {
  await sql`
    insert into club (id, vereins_id, name)
    select 'ov-' || n, 'ov' || n, 'Overview club ' || n from generate_series(1, ${CLUBS}) as n`;
  await sql`
    insert into edge_token (club_id, token_hash, last_used_at)
    select 'ov-' || n, encode(sha256(('ov-token-' || n)::bytea), 'hex'), ${NOW}::timestamptz - interval '1 hour'
    from generate_series(1, ${CLUBS}) as n`;
  await sql`
    insert into club_master_report (club_id, last_reported_at, reported, added, restored, refreshed, marked_deleted)
    select 'ov-' || n, ${NOW}::timestamptz - case when n % 4 = 3 then interval '3 days' else interval '2 hours' end, 10, 0, 0, 10, 0
    from generate_series(1, ${CLUBS}) as n`;
  await sql`
    insert into edge_box_signal (club_id, last_push_at, last_starterlist_seen_at, box_check_at, box_check_evening_start, box_check_hits_after)
    select 'ov-' || n, ${NOW}::timestamptz - interval '10 minutes', ${NOW}::timestamptz - interval '10 minutes',
           ${NOW}::timestamptz - interval '1 day', ${NOW}::timestamptz - interval '2 days', true
    from generate_series(1, ${CLUBS}) as n`;
  await sql`
    insert into ingest_contract_reject (rejected_at, runner_id, topic, club_id, entity, reason, detail, partition_id, sequence_number)
    select ${NOW}::timestamptz - n * interval '1 minute', 'bench', 'club.ov' || (n % 200) || '.hits', 'ov' || (n % 200), 'hits',
           'club_scope_mismatch', 'bench reject ' || n, '0', n
    from generate_series(1, 1000) as n`;
  await sql`
    insert into ingest_dead_letter (dead_at, runner_id, reason, sql_state, detail, topic, club_id, entity, partition_id, sequence_number)
    select ${NOW}::timestamptz - n * interval '1 minute', 'bench', 'apply_failed', '23514', 'bench dead letter ' || n,
           'club.ov' || (n % 200) || '.hits', 'ov' || (n % 200), 'hits', '0', n
    from generate_series(1, 1000) as n`;
  await sql`
    insert into club_membership (club_id, user_id, role)
    select 'ov-7', 'ov-user-' || n, case when n <= 2 then 'leader' else 'member' end from generate_series(1, 60) as n`;
  await sql`analyze`;
}
