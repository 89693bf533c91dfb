import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getSql, type Sql } from '../../shared/db/client';
import { DEFAULT_MIGRATIONS_DIR, migrate } from '../../shared/db/migrate';
import { readOneClubSignals } from '../../shared/freshness/freshnessRepository';
import { applyIngestBatch, type ApplyOptions } from '../../shared/ingest/apply';
import { useScratchDatabases } from '../db/scratch';
import { createClub, uniqueVereinsId } from '../support/fixtures';
import { event, hitEvent, incoming, shooterBody, TEST_THRESHOLDS, uniqueClub } from './fixtures';

/**
 * club_last_arrival: each club's newest hit arrival, kept by the apply statement for the freshness
 * check (migration 036, docs/freshness.md "One query for all clubs"). It must always equal the
 * newest created_at of the club's hits, whatever order and how often batches arrive.
 */
const options: ApplyOptions = {
  runner: { id: 'last-arrival:test', kind: 'event' },
  statusEnabled: false,
  thresholds: TEST_THRESHOLDS,
  rejectLogMax: 100,
};
const sql = () => getSql();

async function lastArrival(db: Sql, club: string): Promise<Date | null> {
  const [row]: [{ at: Date }?] = await db`select last_arrival_at as at from club_last_arrival where source_club_id = ${club}`;
  return row?.at ?? null;
}

async function newestHit(db: Sql, club: string): Promise<Date | null> {
  const [row]: [{ at: Date | null }?] = await db`select max(created_at) as at from club_data_hit where source_club_id = ${club}`;
  return row?.at ?? null;
}

describe('the last arrival per club', () => {
  it('an applied batch moves its club to the arrival of its newest hit, each club of the batch on its own', async () => {
    const club = uniqueClub();
    const other = uniqueClub();
    await applyIngestBatch(
      sql(),
      incoming([hitEvent({ id: 'a1', clubId: club, lsn: 10 }), hitEvent({ id: 'b1', clubId: other, lsn: 10 })]),
      options,
    );
    const first = await lastArrival(sql(), club);
    expect(first).toEqual(await newestHit(sql(), club));
    expect(await lastArrival(sql(), other)).toEqual(await newestHit(sql(), other));

    await applyIngestBatch(sql(), incoming([hitEvent({ id: 'a2', clubId: club, lsn: 20 })]), options);
    const second = await lastArrival(sql(), club);
    expect(second!.getTime()).toBeGreaterThan(first!.getTime());
    expect(second).toEqual(await newestHit(sql(), club));
  });

  it('a redelivered older batch, an update of an old hit and a reordered batch never move it back', async () => {
    const club = uniqueClub();
    const older = incoming([hitEvent({ id: 'r1', clubId: club, lsn: 10 })]);
    await applyIngestBatch(sql(), older, options);
    await applyIngestBatch(sql(), incoming([hitEvent({ id: 'r2', clubId: club, lsn: 20 })]), options);
    const newest = await lastArrival(sql(), club);

    const redelivered = await applyIngestBatch(sql(), older, options);
    expect(redelivered.stale).toBe(1);
    // An update keeps the hit's arrival (created_at): nothing new arrived.
    const updated = await applyIngestBatch(sql(), incoming([hitEvent({ id: 'r1', clubId: club, lsn: 30, op: 'u', value: 9.9 })]), options);
    expect(updated.hits).toBe(1);
    expect(await lastArrival(sql(), club)).toEqual(newest);
    expect(await newestHit(sql(), club)).toEqual(newest);

    // A row already ahead of the batch (a batch that committed after this one began) stays ahead.
    const ahead = new Date(Date.now() + 86_400_000);
    await sql()`update club_last_arrival set last_arrival_at = ${ahead} where source_club_id = ${club}`;
    await applyIngestBatch(sql(), incoming([hitEvent({ id: 'r3', clubId: club, lsn: 40 })]), options);
    expect(await lastArrival(sql(), club)).toEqual(ahead);
  });

  it('a club that delivered no hit has none: no row, and the freshness check reads no arrival', async () => {
    const vereinsId = uniqueVereinsId();
    const { clubId } = await createClub(sql(), { vereinsId });
    // Shooters arrive, hits do not: no shot data reached the cloud.
    const shooters = await applyIngestBatch(
      sql(),
      incoming([event(shooterBody({ id: 5, clubId: vereinsId, lsn: 10 }), { topic: `club.${vereinsId}.shooters`, clubId: vereinsId })]),
      options,
    );
    expect(shooters.shooters).toBe(1);
    expect(await lastArrival(sql(), vereinsId)).toBeNull();
    expect((await readOneClubSignals(sql(), clubId))?.lastArrivalAt).toBeNull();
  });

  describe('the migration that makes it', () => {
    const databases = useScratchDatabases();

    it('fills it once with each numbered club newest hit, across months and the default partition', async () => {
      const before = mkdtempSync(path.join(os.tmpdir(), 'migrations-before-036-'));
      try {
        cpSync(DEFAULT_MIGRATIONS_DIR, before, { recursive: true });
        rmSync(path.join(before, '036_club_last_arrival.sql'));
        const db = await databases.fresh();
        await migrate(db, before);

        const busy = uniqueVereinsId();
        const once = uniqueVereinsId();
        const silent = uniqueVereinsId();
        const unknown = uniqueVereinsId();
        for (const vereinsId of [busy, once, silent]) await createClub(db, { vereinsId });
        await createClub(db, { vereinsId: null });
        // Months back (in the default partition) and this month, soft-deleted ones included.
        await db`
          insert into club_data_hit (source_club_id, source_record_id, created_at, deleted_at)
          select ${busy}, 'h' || n, timestamptz '2024-01-01T00:00:00Z' + n * interval '24 hours', case when n = 700 then now() end
          from generate_series(1, 700) as n`;
        await db`insert into club_data_hit (source_club_id, source_record_id, created_at) values (${once}, 'x', now() - interval '1 hour')`;
        await db`insert into club_data_hit (source_club_id, source_record_id) values (${unknown}, 'y')`;

        await migrate(db);

        const rows = await db<{ club: string; at: Date }[]>`
          select source_club_id as club, last_arrival_at as at from club_last_arrival order by 1`;
        const expected = await db<{ club: string; at: Date }[]>`
          select source_club_id as club, max(created_at) as at from club_data_hit
          where source_club_id in (select vereins_id from club) group by 1 order by 1`;
        expect(rows).toEqual(expected);
        expect(rows.map((row) => row.club).sort()).toEqual([busy, once].sort());
        expect(rows.find((row) => row.club === busy)?.at).toEqual(new Date('2025-12-01T00:00:00Z'));
        expect(await lastArrival(db, silent)).toBeNull();
        // A number no club carries yet gets its row with its next batch, not from the fill.
        expect(await lastArrival(db, unknown)).toBeNull();
      } finally {
        rmSync(before, { recursive: true, force: true });
      }
    }, 120_000);
  });
});
