import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_MIGRATIONS_DIR, migrate, MigrationError, readLiveFiles, readMigrations } from '../../shared/db/migrate';
import { folder, useScratchDatabases } from './scratch';

/** Each test gets its own empty database on the test server, so runs start from nothing. */
describe('migrations', () => {
  const databases = useScratchDatabases();
  const freshDatabase = () => databases.fresh();

  it('applies the shipped migrations once; a second run applies nothing', async () => {
    const sql = await freshDatabase();
    const shipped = await readMigrations(DEFAULT_MIGRATIONS_DIR);
    const live = await readLiveFiles(DEFAULT_MIGRATIONS_DIR);
    const first = await migrate(sql);
    expect(first.applied).toHaveLength(shipped.length);
    expect(first.liveApplied).toEqual(live.map((file) => file.name));
    const second = await migrate(sql);
    expect(second).toEqual({ applied: [], alreadyApplied: shipped.length, liveApplied: [] });
    const [row] = await sql<{ count: number }[]>`select count(*)::int as count from schema_migrations`;
    expect(row?.count).toBe(shipped.length);
  });

  it('refuses to run when an applied migration was changed', async () => {
    const sql = await freshDatabase();
    const dir = folder({ '001_first.sql': 'create table a (id int);' });
    await migrate(sql, dir);
    writeFileSync(path.join(dir, '001_first.sql'), 'create table a (id bigint);');
    writeFileSync(path.join(dir, '002_second.sql'), 'create table b (id int);');
    await expect(migrate(sql, dir)).rejects.toThrow(/001_first was changed after it was applied/);
    const [table] = await sql`select to_regclass('b') as exists`;
    expect(table?.['exists']).toBeNull();
  });

  it('refuses to run when the database has a migration this build lacks', async () => {
    const sql = await freshDatabase();
    await migrate(sql, folder({ '001_first.sql': 'select 1;', '002_second.sql': 'select 2;' }));
    await expect(migrate(sql, folder({ '001_first.sql': 'select 1;' }))).rejects.toThrow(/002_second .*missing from this build/);
  });

  it('rolls back a failing migration completely and records nothing for it', async () => {
    const sql = await freshDatabase();
    const dir = folder({
      '001_ok.sql': 'create table ok (id int);',
      '002_broken.sql': 'create table half (id int); insert into half values (1); select * from does_not_exist;',
    });
    await expect(migrate(sql, dir)).rejects.toThrow(/does_not_exist/);
    const versions = await sql<{ version: string }[]>`select version from schema_migrations order by version`;
    expect(versions.map((row) => row.version)).toEqual(['001']);
    const [table] = await sql`select to_regclass('half') as exists`;
    expect(table?.['exists']).toBeNull();
  });

  it('lets concurrent runners apply each migration and each live file exactly once', async () => {
    const sql = await freshDatabase();
    const dir = folder({
      '001_counter.sql': 'create table runs (n int); insert into runs values (1);',
      'live/counter.sql': 'insert into runs values (2);',
    });
    const other = databases.another();
    try {
      await Promise.all([migrate(sql, dir), migrate(other, dir)]);
    } finally {
      await other.end();
    }
    const runs = await sql<{ n: number }[]>`select n from runs order by n`;
    expect(runs.map((run) => run.n)).toEqual([1, 2]);
  });

  it('rejects a file that controls its own transaction', async () => {
    await expect(readMigrations(folder({ '001_a.sql': 'begin;\ncreate table x (id int);\ncommit;\n' }))).rejects.toThrow(
      /controls its own transaction/,
    );
    // PL/pgSQL blocks say BEGIN ... END; inside function bodies, which is not transaction control.
    await expect(
      readMigrations(folder({ '001_a.sql': 'create function f() returns int language plpgsql as $$\nbegin\n  return 1;\nend;\n$$;\n' })),
    ).resolves.toHaveLength(1);
  });

  it('rejects badly named files and duplicate versions', async () => {
    await expect(readMigrations(folder({ 'first.sql': '' }))).rejects.toThrow(MigrationError);
    await expect(readMigrations(folder({ '001_a.sql': '', '001_b.sql': '' }))).rejects.toThrow(/share version 001/);
  });

  describe('live files', () => {
    const numbered = { '001_log.sql': 'create table log (entry text);' };
    const answer = (value: number) => `create or replace function answer() returns int language sql immutable as $$ select ${value} $$;`;

    it('applies live files after the numbered migrations, each again only when its content changed', async () => {
      const sql = await freshDatabase();
      const dir = folder({
        ...numbered,
        // Reads the table of 001: only after the numbered migrations does it exist.
        'live/logged.sql': "insert into log values ('logged applied');",
        'live/answer.sql': answer(1),
      });
      expect(await migrate(sql, dir)).toMatchObject({ applied: ['001_log'], liveApplied: ['answer', 'logged'] });
      expect((await migrate(sql, dir)).liveApplied).toEqual([]);
      writeFileSync(path.join(dir, 'live', 'answer.sql'), answer(2));
      expect(await migrate(sql, dir)).toMatchObject({ applied: [], liveApplied: ['answer'] });
      const [row] = await sql<{ answer: number }[]>`select answer()`;
      expect(row?.answer).toBe(2);
      const log = await sql<{ entry: string }[]>`select entry from log`;
      expect(log.map((entry) => entry.entry)).toEqual(['logged applied']);
    });

    it('applies a file after the files it requires, and again when one of them changes', async () => {
      const sql = await freshDatabase();
      const dir = folder({
        ...numbered,
        'live/a_doubled.sql': "-- requires: z_answer\ninsert into log select 'doubled ' || answer() * 2;",
        'live/z_answer.sql': answer(1),
      });
      expect((await migrate(sql, dir)).liveApplied).toEqual(['z_answer', 'a_doubled']);
      writeFileSync(path.join(dir, 'live', 'z_answer.sql'), answer(5));
      expect((await migrate(sql, dir)).liveApplied).toEqual(['z_answer', 'a_doubled']);
      const log = await sql<{ entry: string }[]>`select entry from log order by entry`;
      expect(log.map((entry) => entry.entry)).toEqual(['doubled 10', 'doubled 2']);
    });

    it('rolls back a failing live file, keeps the earlier record, and tries it again on the next run', async () => {
      const sql = await freshDatabase();
      const dir = folder({ ...numbered, 'live/answer.sql': answer(1) });
      await migrate(sql, dir);
      writeFileSync(path.join(dir, 'live', 'answer.sql'), `${answer(3)}\nselect * from does_not_exist;`);
      await expect(migrate(sql, dir)).rejects.toThrow(/does_not_exist/);
      const [row] = await sql<{ answer: number }[]>`select answer()`;
      expect(row?.answer).toBe(1);
      writeFileSync(path.join(dir, 'live', 'answer.sql'), answer(3));
      expect((await migrate(sql, dir)).liveApplied).toEqual(['answer']);
    });

    it('lets a live file replace a function whose result type changed by dropping it first', async () => {
      const sql = await freshDatabase();
      const dir = folder({ ...numbered, 'live/answer.sql': answer(1) });
      await migrate(sql, dir);
      writeFileSync(
        path.join(dir, 'live', 'answer.sql'),
        "drop function if exists answer();\ncreate function answer() returns text language sql immutable as $$ select 'forty-two' $$;",
      );
      await migrate(sql, dir);
      const [row] = await sql<{ answer: string }[]>`select answer()`;
      expect(row?.answer).toBe('forty-two');
    });

    it('refuses a missing requirement, a circle, a bad name and a file that controls its own transaction', async () => {
      await expect(readLiveFiles(folder({ 'live/a.sql': '-- requires: b\nselect 1;' }))).rejects.toThrow(/a.sql requires b/);
      await expect(
        readLiveFiles(folder({ 'live/a.sql': '-- requires: b\nselect 1;', 'live/b.sql': '-- requires: a\nselect 1;' })),
      ).rejects.toThrow(/circle/);
      await expect(readLiveFiles(folder({ 'live/Bad-Name.sql': 'select 1;' }))).rejects.toThrow(/does not match name.sql/);
      await expect(readLiveFiles(folder({ 'live/a.sql': 'commit;' }))).rejects.toThrow(/controls its own transaction/);
      await expect(readLiveFiles(folder({ '001_a.sql': 'select 1;' }))).resolves.toEqual([]);
      const withoutLiveFolder = folder({ '001_a.sql': 'select 1;' });
      rmSync(path.join(withoutLiveFolder, 'live'), { recursive: true });
      await expect(readLiveFiles(withoutLiveFolder)).rejects.toThrow(/has no live folder/);
    });
  });
});
