import type { Sql } from '../../shared/db/client';
import { migrate } from '../../shared/db/migrate';
import { applyIngestBatch, type ApplyOptions } from '../../shared/ingest/apply';
import { moveHitsOnline } from '../../shared/ingest/hitPartitionMove';
import { useScratchDatabases, shippedMigrationsBefore } from '../db/scratch';
import { holdReading } from '../support/heldReader';
import { hitEvent, incoming, TEST_THRESHOLDS, uniqueClub } from './fixtures';

/**
 * The move of an existing club_data_hit into the partitioned table: a small table inside
 * migration 031, a large one online in batches while ingest writes, then a short swap.
 */
const options: ApplyOptions = {
  runner: { id: 'move:test', kind: 'event' },
  statusEnabled: false,
  thresholds: TEST_THRESHOLDS,
  rejectLogMax: 100,
};

/** `count` hits of one club (records 1..count, shooter 17, value 5.0, position 1) spread over the last 60 days. */
async function preload(sql: Sql, club: string, count: number): Promise<void> {
  await sql`
    insert into club_data_hit (source_club_id, source_record_id, shooter_id, discipline, series, shot_no, value, shot_at,
                               source_lsn, source_sequence, data_lsn, data_sequence, updated_at, created_at)
    select ${club}, n::text, '17', 'LG 10m', 1, 1, 5.0, now(), 1, 1, 1, 1, now(), now() - (n % 60) * interval '1 day'
    from generate_series(1, ${count}) as n`;
}

const tableKind = async (sql: Sql) =>
  (await sql<{ kind: string }[]>`select relkind as kind from pg_class where oid = to_regclass('club_data_hit')`)[0]?.kind;

async function rows(sql: Sql, club: string): Promise<Map<string, { value: string | null; deleted: boolean }>> {
  const found = await sql<{ record: string; value: string | null; deleted: boolean }[]>`
    select source_record_id as record, value::text as value, deleted_at is not null as deleted from club_data_hit where source_club_id = ${club}`;
  return new Map(found.map((row) => [row.record, { value: row.value, deleted: row.deleted }]));
}

describe('moving hits into month partitions', () => {
  const databases = useScratchDatabases();

  it('moves a small table inside the migration, every row kept', async () => {
    const sql = await databases.fresh();
    await migrate(sql, shippedMigrationsBefore('_club_data_hit_by_month.sql'));
    const club = uniqueClub();
    await preload(sql, club, 500);

    await migrate(sql);

    expect(await tableKind(sql)).toBe('p');
    expect((await rows(sql, club)).size).toBe(500);
    const [rest] = await sql<{ pending: string | null }[]>`select to_regclass('club_data_hit_by_month')::text as pending`;
    expect(rest?.pending).toBeNull();
    expect(await moveHitsOnline(sql, { batchSize: 1000, budgetMs: 10_000, lockTimeoutMs: 500 })).toEqual({ state: 'none', copied: 0 });
  });

  it('copies a large table in batches while ingest writes, loses no write, and swaps in a moment', async () => {
    const sql = await databases.fresh();
    await migrate(sql, shippedMigrationsBefore('_club_data_hit_by_month.sql'));
    const club = uniqueClub();
    await preload(sql, club, 60_000);

    await migrate(sql);
    // Too large to move inside the migration: still the old table, its writes mirrored.
    expect(await tableKind(sql)).toBe('r');

    let writes = 0;
    const outcome = await moveHitsOnline(sql, {
      batchSize: 5000,
      budgetMs: 120_000,
      lockTimeoutMs: 2000,
      afterBatch: async (copiedThroughId) => {
        writes += 1;
        if (writes !== 2) return;
        expect(copiedThroughId).toBe(10_000);
        // Between batches, as ingest would: new hits, a change of a copied row and of one not yet
        // copied, a delete of a copied row.
        const outcomeDuring = await applyIngestBatch(
          sql,
          incoming([
            hitEvent({ id: 'new-1', clubId: club, lsn: 50, value: 7.7 }),
            hitEvent({ id: 'new-2', clubId: club, lsn: 51, value: 7.8 }),
            hitEvent({ id: 3, clubId: club, lsn: 52, op: 'u', value: 9.9 }),
            hitEvent({ id: 59_990, clubId: club, lsn: 53, op: 'u', value: 8.8 }),
            hitEvent({ id: 100, clubId: club, lsn: 54, op: 'd' }),
          ]),
          options,
        );
        expect(outcomeDuring.hits).toBe(5);
      },
    });

    // The copy went through every row, the two the mirror had written already among them.
    expect(outcome).toEqual({ state: 'swapped', copied: 60_002 });
    expect(await tableKind(sql)).toBe('p');
    const after = await rows(sql, club);
    expect(after.size).toBe(60_002);
    expect(after.get('new-1')).toEqual({ value: '7.7', deleted: false });
    expect(after.get('3')).toEqual({ value: '9.9', deleted: false });
    expect(after.get('59990')).toEqual({ value: '8.8', deleted: false });
    expect(after.get('100')?.deleted).toBe(true);
    expect(after.get('4')).toEqual({ value: '5.0', deleted: false });
    // The copy landed in months, not in the default partition.
    const [inDefault] = await sql<{ count: number }[]>`select count(*)::int as count from club_data_hit_default`;
    expect(inDefault?.count).toBe(0);

    // Ingest after the swap: a redelivery changes nothing, a new hit gets the next id of the same sequence.
    const redelivered = await applyIngestBatch(sql, incoming([hitEvent({ id: 'new-1', clubId: club, lsn: 50, value: 7.7 })]), options);
    expect(redelivered).toMatchObject({ hits: 0, stale: 1 });
    await applyIngestBatch(sql, incoming([hitEvent({ id: 'new-3', clubId: club, lsn: 60 })]), options);
    const [ids] = await sql<{ newest: string; before: string }[]>`
      select (select id from club_data_hit where source_record_id = 'new-3')::text as newest,
             (select max(id) from club_data_hit where source_record_id <> 'new-3')::text as before`;
    expect(BigInt(ids!.newest)).toBeGreaterThan(BigInt(ids!.before));
    expect(await moveHitsOnline(sql, { batchSize: 1000, budgetMs: 10_000, lockTimeoutMs: 500 })).toEqual({ state: 'none', copied: 0 });
  });
  it('leaves the swap to the next run while a reader holds the old table, and swaps then', async () => {
    const sql = await databases.fresh();
    await migrate(sql, shippedMigrationsBefore('_club_data_hit_by_month.sql'));
    const club = uniqueClub();
    await preload(sql, club, 50_500);
    await migrate(sql);
    expect(await tableKind(sql)).toBe('r');

    // A long report over the old table: the copy reads beside it, the swap cannot have its lock.
    const reader = await holdReading(databases.another(), (tx) => tx`select count(*) from club_data_hit`);

    const started = Date.now();
    const first = await moveHitsOnline(sql, { batchSize: 10_000, budgetMs: 120_000, lockTimeoutMs: 300 });
    expect(first).toEqual({ state: 'copying', copied: 50_500 });
    expect(await tableKind(sql)).toBe('r');
    // Ingest goes on meanwhile, into the old table and, through the mirror, the new one.
    const during = await applyIngestBatch(sql, incoming([hitEvent({ id: 'during', clubId: club, lsn: 70 })]), options);
    expect(during.hits).toBe(1);
    expect(Date.now() - started).toBeLessThan(60_000);

    await reader.release();
    // The next run walks only the row written since (the mirror has it already), then swaps.
    expect(await moveHitsOnline(sql, { batchSize: 10_000, budgetMs: 120_000, lockTimeoutMs: 300 })).toEqual({
      state: 'swapped',
      copied: 1,
    });
    expect(await tableKind(sql)).toBe('p');
    expect((await rows(sql, club)).size).toBe(50_501);
  });
});
