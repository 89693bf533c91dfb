import type { Sql } from '../../shared/db/client';
import { migrate } from '../../shared/db/migrate';
import { applyIngestBatch, type ApplyOptions } from '../../shared/ingest/apply';
import { maintainHitPartitions, monthStart } from '../../shared/ingest/hitPartitions';
import { useScratchDatabases } from '../db/scratch';
import { holdReading } from '../support/heldReader';
import { hitEvent, incoming, TEST_THRESHOLDS, uniqueClub } from './fixtures';

/**
 * The month partitions of club_data_hit: made ahead, a month's rows moved out of the default
 * partition when it is made, dropped whole past retention, and never holding ingest up for longer
 * than the lock timeout. Each test has a database of its own: dropping months would take other
 * files' hits with it.
 */
const options: ApplyOptions = {
  runner: { id: 'partitions:test', kind: 'event' },
  statusEnabled: false,
  thresholds: TEST_THRESHOLDS,
  rejectLogMax: 100,
};
const nameOf = (month: Date) => `club_data_hit_p${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
const middleOf = (month: Date) => new Date(month.getTime() + 14 * 86_400_000);

async function partitions(sql: Sql): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'club_data_hit'::regclass order by c.relname`;
  return rows.map((row) => row.name);
}

async function hitAt(sql: Sql, club: string, record: string, at: Date): Promise<void> {
  await sql`insert into club_data_hit (source_club_id, source_record_id, created_at) values (${club}, ${record}, ${at})`;
}

/** The partition each record's row lies in; records without a row are left out. */
async function whereRows(sql: Sql, club: string): Promise<Record<string, string>> {
  const rows = await sql<{ record: string; partition: string }[]>`
    select source_record_id as record, tableoid::regclass::text as partition from club_data_hit where source_club_id = ${club}`;
  return Object.fromEntries(rows.map((row) => [row.record, row.partition]));
}

describe('hit partitions', () => {
  const databases = useScratchDatabases();
  const migrated = async () => {
    const sql = await databases.fresh();
    await migrate(sql);
    return sql;
  };

  it('a new database is partitioned by month: this month, three ahead and a default partition', async () => {
    const sql = await migrated();
    const now = new Date();
    const [kind] = await sql<{ relkind: string }[]>`select relkind from pg_class where oid = 'club_data_hit'::regclass`;
    expect(kind?.relkind).toBe('p');
    expect(await partitions(sql)).toEqual(
      ['club_data_hit_default', ...[0, 1, 2, 3].map((offset) => nameOf(monthStart(now, offset)))].sort(),
    );
  });

  it('makes months ahead, drops only whole months past retention, and keeps every row it has no month for', async () => {
    const sql = await migrated();
    const month0 = monthStart(new Date());
    const club = uniqueClub();
    await hitAt(sql, club, 'this-month', middleOf(month0));
    await hitAt(sql, club, 'next-month', middleOf(monthStart(month0, 1)));
    await hitAt(sql, club, 'last-month', middleOf(monthStart(month0, -1)));
    await hitAt(sql, club, 'long-ago', new Date('2001-05-05T00:00:00Z'));

    // Three months on, keeping two whole months: the month of "this-month" ended three months ago.
    const later = middleOf(monthStart(month0, 3));
    const outcome = await maintainHitPartitions(sql, later, { monthsAhead: 3, retentionMonths: 2, lockTimeoutMs: 1000 });

    expect(outcome).toEqual({
      created: [4, 5, 6].map((offset) => nameOf(monthStart(month0, offset))),
      dropped: [nameOf(month0)],
      skipped: [],
    });
    expect(await whereRows(sql, club)).toEqual({
      'next-month': nameOf(monthStart(month0, 1)),
      'last-month': 'club_data_hit_default',
      'long-ago': 'club_data_hit_default',
    });
    // A second run has nothing left to do.
    expect(await maintainHitPartitions(sql, later, { monthsAhead: 3, retentionMonths: 2, lockTimeoutMs: 1000 })).toEqual({
      created: [],
      dropped: [],
      skipped: [],
    });
  });

  it('gives a month within retention found in the default partition its own partition, with its rows', async () => {
    const sql = await migrated();
    const now = new Date();
    const club = uniqueClub();
    const lastMonth = monthStart(now, -1);
    await hitAt(sql, club, 'a', middleOf(lastMonth));
    await hitAt(sql, club, 'b', new Date(lastMonth.getTime() + 1000));

    const outcome = await maintainHitPartitions(sql, now, { monthsAhead: 3, retentionMonths: 24, lockTimeoutMs: 1000 });

    expect(outcome.created).toEqual([nameOf(lastMonth)]);
    expect(await whereRows(sql, club)).toEqual({ a: nameOf(lastMonth), b: nameOf(lastMonth) });
    const [left] = await sql<{ count: number }[]>`select count(*)::int as count from club_data_hit_default`;
    expect(left?.count).toBe(0);
  });

  it('keeps one row per record when batches with the same new records are applied at once', async () => {
    const sql = await migrated();
    const others = [databases.another(), databases.another(), databases.another()];
    const club = uniqueClub();
    const events = Array.from({ length: 40 }, (_, index) => hitEvent({ id: index + 1, clubId: club, lsn: 100 + index, shooterId: 5 }));
    // Four runners get the same events (a redelivery racing the first delivery), each in its own order.
    const messages = incoming(events);
    const outcomes = await Promise.all(
      [sql, ...others].map((pool, runner) =>
        applyIngestBatch(pool, runner % 2 ? [...messages].reverse() : messages, {
          ...options,
          runner: { id: `race:${runner}`, kind: 'event' },
        }),
      ),
    );
    await Promise.all(others.map((pool) => pool.end()));

    const [counted] = await sql<{ rows: number; records: number }[]>`
      select count(*)::int as rows, count(distinct source_record_id)::int as records from club_data_hit where source_club_id = ${club}`;
    expect(counted).toEqual({ rows: 40, records: 40 });
    // Each record written once over all runners; the others found it current.
    expect(outcomes.reduce((sum, outcome) => sum + outcome.hits, 0)).toBe(40);
    expect(outcomes.reduce((sum, outcome) => sum + outcome.stale, 0)).toBe(120);
  });

  it('gives up on a drop it cannot lock at once, ingest going on meanwhile; the next run drops the month', async () => {
    const sql = await migrated();
    const month0 = monthStart(new Date());
    const club = uniqueClub();
    await hitAt(sql, club, 'old', middleOf(month0));
    // A long reader of this month's partition (a report, a backup) holds its lock.
    const reader = await holdReading(
      databases.another(),
      (tx) => tx`select count(*) from club_data_hit where created_at >= ${month0} and created_at < ${monthStart(month0, 1)}`,
    );

    const later = middleOf(monthStart(month0, 3));
    const started = Date.now();
    const [outcome, applied] = await Promise.all([
      maintainHitPartitions(sql, later, { monthsAhead: 3, retentionMonths: 2, lockTimeoutMs: 300 }),
      applyIngestBatch(sql, incoming([hitEvent({ id: 'live', clubId: club, lsn: 10 })]), options),
    ]);
    const took = Date.now() - started;

    expect(outcome.skipped).toEqual([nameOf(month0)]);
    expect(outcome.dropped).toEqual([]);
    expect(applied.hits).toBe(1);
    // Three partitions made and one drop given up: each wait is bounded by the lock timeout.
    expect(took).toBeLessThan(5000);
    expect(Object.keys(await whereRows(sql, club)).sort()).toEqual(['live', 'old']);

    await reader.release();
    const next = await maintainHitPartitions(sql, later, { monthsAhead: 3, retentionMonths: 2, lockTimeoutMs: 300 });
    expect(next.dropped).toEqual([nameOf(month0)]);
    // Both arrived in that month, which is past retention at the later time.
    expect(await whereRows(sql, club)).toEqual({});
  });
});
