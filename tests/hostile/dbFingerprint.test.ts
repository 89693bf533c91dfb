import { getSql } from '../../shared/db/client';
import { createEdgeToken, identifyEdgeToken } from '../../shared/clubMaster/edgeTokens';
import { changedTables, dbFingerprint, usePrivateDatabase, watchFingerprint, type PrivateDatabase } from '../support/dbFingerprint';

/** The fingerprint the hostile tests rely on sees every change of a row, and only that. */
describe('the database fingerprint', () => {
  let database: PrivateDatabase;
  beforeAll(async () => {
    database = await usePrivateDatabase('fingerprint');
  });
  afterAll(() => database.drop());

  it('covers every application table of the migrated schema', async () => {
    const fingerprint = await dbFingerprint(getSql());
    expect(Object.keys(fingerprint)).toEqual(expect.arrayContaining(['public.club', 'public.notification', 'public.edge_token']));
    expect(changedTables(fingerprint, await dbFingerprint(getSql()))).toEqual([]);
  });

  it('names the table of an inserted, an updated and a deleted row', async () => {
    const sql = getSql();
    const start = await dbFingerprint(sql);
    await sql`insert into club (id, name) values ('fp-club', 'Fingerprint club')`;
    const inserted = await dbFingerprint(sql);
    expect(changedTables(start, inserted)).toEqual(['public.club']);
    await sql`update club set name = 'Renamed' where id = 'fp-club'`;
    const updated = await dbFingerprint(sql);
    expect(changedTables(inserted, updated)).toEqual(['public.club']);
    await sql`delete from club where id = 'fp-club'`;
    expect(changedTables(start, await dbFingerprint(sql))).toEqual([]);
  });

  it('ignores only the bookkeeping of an edge token being used, not a revocation', async () => {
    const sql = getSql();
    await sql`insert into club (id, name) values ('fp-box', 'Box club')`;
    const { id, token } = await createEdgeToken(sql, 'fp-box');
    const before = await dbFingerprint(sql);
    await identifyEdgeToken(sql, token);
    const [used] = await sql<{ lastUsedAt: Date | null }[]>`select last_used_at as "lastUsedAt" from edge_token where id = ${id}`;
    expect(used?.lastUsedAt).toBeInstanceOf(Date);
    expect(changedTables(before, await dbFingerprint(sql))).toEqual([]);
    await sql`update edge_token set revoked_at = now() where id = ${id}`;
    expect(changedTables(before, await dbFingerprint(sql))).toEqual(['public.edge_token']);
  });

  it('watched: takes the fingerprint again after a write, a rolled-back write and a truncate, and only then', async () => {
    const sql = getSql();
    const watch = await watchFingerprint(sql);
    const start = await watch.current();
    expect(await watch.current()).toBe(start);
    await sql`select count(*) from club`;
    expect(await watch.current()).toBe(start);
    expect(watch.taken).toBe(1);

    await sql`insert into club (id, name) values ('fp-watched', 'Watched club')`;
    const inserted = await watch.current();
    expect(changedTables(start, inserted)).toEqual(['public.club']);
    expect(watch.taken).toBe(2);

    await expect(
      sql.begin(async (tx) => {
        await tx`update club set name = 'Never' where id = 'fp-watched'`;
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const afterRollback = await watch.current();
    expect(watch.taken).toBe(3);
    expect(changedTables(inserted, afterRollback)).toEqual([]);

    await sql`create table fp_scratch (id int)`;
    const scratch = await watchFingerprint(sql);
    await sql`insert into fp_scratch values (1)`;
    const filled = await scratch.current();
    await sql`truncate fp_scratch`;
    expect(changedTables(filled, await scratch.current())).toEqual(['public.fp_scratch']);
    await sql`drop table fp_scratch`;
  });
});
