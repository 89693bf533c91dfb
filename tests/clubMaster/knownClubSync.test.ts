import { getSql } from '../../shared/db/client';
import { syncKnownClubs } from '../../shared/clubMaster/knownClubSync';
import { isLockTimeout } from '../../shared/db/errors';
import { activeVereinsIds, clubList, holdBoxSyncLock, knownRows } from './fixtures';
import { createServiceClub, uniqueTag } from '../support/fixtures';

/** A box whose only club, 100 "SV Eins", was reported once and then no more (sourceDeleted). */
async function boxWithDeletedClub() {
  const box = await createServiceClub(getSql());
  await syncKnownClubs(getSql(), box, [{ vereinsId: '100', name: 'SV Eins' }]);
  await syncKnownClubs(getSql(), box, []);
  return box;
}

/** The sync service against real PostgreSQL: every row transition, decommission, atomicity. */
describe('syncKnownClubs', () => {
  const sql = () => getSql();

  it('adds absent clubs as active rows with firstSeenAt and lastSeenAt', async () => {
    const box = await createServiceClub(sql());
    const result = await syncKnownClubs(sql(), box, [
      { vereinsId: '100', name: 'SV Eins' },
      { vereinsId: '200', name: 'SV Zwei' },
    ]);
    expect(result).toEqual({ reported: 2, added: 2, restored: 0, refreshed: 0, markedDeleted: 0 });
    const rows = await knownRows(sql(), box);
    expect(rows.map((row) => [row.vereinsId, row.name, row.sourceDeleted, row.sourceDeletedAt])).toEqual([
      ['100', 'SV Eins', false, null],
      ['200', 'SV Zwei', false, null],
    ]);
    expect(rows[0]!.firstSeenAt.getTime()).toBe(rows[0]!.lastSeenAt.getTime());
  });

  it('refreshes lastSeenAt and the name of clubs reported again, keeping firstSeenAt', async () => {
    const box = await createServiceClub(sql());
    await syncKnownClubs(sql(), box, [{ vereinsId: '100', name: 'SV Eins' }]);
    // Dated back rather than waited for: the second report then surely comes later.
    await sql()`update "ClubDataKnownClub" set "firstSeenAt" = "firstSeenAt" - interval '1 hour', "lastSeenAt" = "lastSeenAt" - interval '1 hour' where "reportedByClubId" = ${box}`;
    const [before] = await knownRows(sql(), box);
    const result = await syncKnownClubs(sql(), box, [{ vereinsId: '100', name: 'SV Eins 1920 e.V.' }]);
    expect(result).toEqual({ reported: 1, added: 0, restored: 0, refreshed: 1, markedDeleted: 0 });
    const [after] = await knownRows(sql(), box);
    expect(after!.name).toBe('SV Eins 1920 e.V.');
    expect(after!.firstSeenAt).toEqual(before!.firstSeenAt);
    expect(after!.lastSeenAt.getTime()).toBeGreaterThan(before!.lastSeenAt.getTime());
  });

  it('marks clubs missing from the report sourceDeleted in the same operation, keeping lastSeenAt', async () => {
    const box = await createServiceClub(sql());
    await syncKnownClubs(sql(), box, [
      { vereinsId: '100', name: 'SV Eins' },
      { vereinsId: '200', name: 'SV Zwei' },
    ]);
    const [, twoBefore] = await knownRows(sql(), box);
    const result = await syncKnownClubs(sql(), box, [{ vereinsId: '100', name: 'SV Eins' }]);
    expect(result).toEqual({ reported: 1, added: 0, restored: 0, refreshed: 1, markedDeleted: 1 });
    const [one, two] = await knownRows(sql(), box);
    expect(one!.sourceDeleted).toBe(false);
    expect(two!.sourceDeleted).toBe(true);
    expect(two!.sourceDeletedAt).toBeInstanceOf(Date);
    expect(two!.lastSeenAt).toEqual(twoBefore!.lastSeenAt);
  });

  it('leaves already deleted rows alone (sourceDeletedAt keeps the first disappearance)', async () => {
    const box = await boxWithDeletedClub();
    const [first] = await knownRows(sql(), box);
    const result = await syncKnownClubs(sql(), box, []);
    expect(result).toEqual({ reported: 0, added: 0, restored: 0, refreshed: 0, markedDeleted: 0 });
    const [second] = await knownRows(sql(), box);
    expect(second!.sourceDeletedAt).toEqual(first!.sourceDeletedAt);
  });

  it('restores a sourceDeleted club that is reported again, refreshing lastSeenAt', async () => {
    const box = await boxWithDeletedClub();
    const [deleted] = await knownRows(sql(), box);
    const result = await syncKnownClubs(sql(), box, [{ vereinsId: '100', name: 'SV Eins' }]);
    expect(result).toEqual({ reported: 1, added: 0, restored: 1, refreshed: 0, markedDeleted: 0 });
    const [restored] = await knownRows(sql(), box);
    expect([restored!.sourceDeleted, restored!.sourceDeletedAt]).toEqual([false, null]);
    expect(restored!.lastSeenAt.getTime()).toBeGreaterThan(deleted!.lastSeenAt.getTime());
  });

  it('an empty list decommissions the box: every row sourceDeleted, nothing removed', async () => {
    const box = await createServiceClub(sql());
    await syncKnownClubs(sql(), box, clubList('d', 25));
    const result = await syncKnownClubs(sql(), box, []);
    expect(result).toEqual({ reported: 0, added: 0, restored: 0, refreshed: 0, markedDeleted: 25 });
    const rows = await knownRows(sql(), box);
    expect(rows).toHaveLength(25);
    expect(rows.every((row) => row.sourceDeleted)).toBe(true);
  });

  it("one box's report never touches another box's rows", async () => {
    const boxA = await createServiceClub(sql());
    const boxB = await createServiceClub(sql());
    await syncKnownClubs(sql(), boxA, [{ vereinsId: '100', name: 'SV Eins' }]);
    await syncKnownClubs(sql(), boxB, [{ vereinsId: '100', name: 'SV Eins (B)' }]);
    await syncKnownClubs(sql(), boxA, []);
    expect(await activeVereinsIds(sql(), boxA)).toEqual([]);
    expect(await knownRows(sql(), boxB)).toEqual([
      expect.objectContaining({ vereinsId: '100', name: 'SV Eins (B)', sourceDeleted: false }),
    ]);
  });

  it('a report that fails after its first write leaves the previous state intact', async () => {
    const box = await createServiceClub(sql());
    await syncKnownClubs(sql(), box, clubList('p', 10));
    const before = await knownRows(sql(), box);
    let sawPartialWrite = false;
    await expect(
      syncKnownClubs(sql(), box, clubList('q', 10), {
        betweenWrites: async (tx) => {
          // Inside the transaction the upsert has happened; the missing rows are not yet marked.
          const [row] = await tx<{ count: number }[]>`
            select count(*)::int as count from "ClubDataKnownClub" where "reportedByClubId" = ${box} and not "sourceDeleted"`;
          sawPartialWrite = row!.count === 20;
          throw new Error('injected failure between the two writes');
        },
      }),
    ).rejects.toThrow('injected failure');
    expect(sawPartialWrite).toBe(true);
    expect(await knownRows(sql(), box)).toEqual(before);
  });

  it('a report the database rejects in its second statement leaves the previous state intact', async () => {
    const box = await createServiceClub(sql());
    await syncKnownClubs(sql(), box, clubList('r', 5));
    const before = await knownRows(sql(), box);
    const trigger = `fail_mark_${uniqueTag()}`;
    // A trigger that refuses the "mark deleted" update of this box only: a real database error mid-way.
    await sql().unsafe(`
      create function ${trigger}() returns trigger language plpgsql as $$
      begin raise exception 'refusing to mark rows deleted'; end $$;
      create trigger ${trigger} before update of "sourceDeleted" on "ClubDataKnownClub"
      for each row when (new."reportedByClubId" = '${box}' and new."sourceDeleted" and not old."sourceDeleted")
      execute function ${trigger}();`);
    try {
      await expect(syncKnownClubs(sql(), box, clubList('s', 5))).rejects.toThrow('refusing to mark rows deleted');
    } finally {
      await sql().unsafe(`drop trigger ${trigger} on "ClubDataKnownClub"; drop function ${trigger}();`);
    }
    expect(await knownRows(sql(), box)).toEqual(before);
  });

  it('gives up waiting for the box lock after lock_timeout with lock_not_available (55P03)', async () => {
    const box = await createServiceClub(sql());
    await syncKnownClubs(sql(), box, [{ vereinsId: '100', name: 'SV Eins' }]);
    const lock = await holdBoxSyncLock(sql(), box);
    const error = await syncKnownClubs(sql(), box, [], { lockTimeoutMs: 150 }).catch((caught: unknown) => caught);
    await lock.release();
    expect(error).toMatchObject({ name: 'PostgresError', code: '55P03' });
    expect(isLockTimeout(error)).toBe(true);
    expect(await activeVereinsIds(sql(), box)).toEqual(['100']);
    // The timeout was local to that transaction: the pool's sessions keep the server default.
    const [setting] = await sql()`show lock_timeout`;
    expect(setting!['lock_timeout']).toBe('0');
  });

  it('isLockTimeout is true only for PostgreSQL errors with code 55P03', () => {
    expect(isLockTimeout(Object.assign(new Error('x'), { name: 'PostgresError', code: '40P01' }))).toBe(false);
    expect(isLockTimeout({ code: '55P03' })).toBe(false);
    expect(isLockTimeout(undefined)).toBe(false);
  });

  it('records the last report of the box for the cleanup timer', async () => {
    const box = await createServiceClub(sql());
    await syncKnownClubs(sql(), box, clubList('m', 3));
    const [report] = await sql()`select reported, added, marked_deleted from club_master_report where club_id = ${box}`;
    expect(report).toEqual({ reported: 3, added: 3, marked_deleted: 0 });
  });
});
