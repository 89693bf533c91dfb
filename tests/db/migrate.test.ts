import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { connect, type Sql } from '../../shared/db/client';
import { DEFAULT_MIGRATIONS_DIR, migrate, MigrationError, readMigrations } from '../../shared/db/migrate';

/** Each test gets its own empty database on the test server, so runs start from nothing. */
describe('migrations', () => {
  const serverUrl = process.env['DATABASE_URL']!;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => undefined });
  const opened: { name: string; sql: Sql }[] = [];

  async function freshDatabase(): Promise<Sql> {
    const name = `mig_${randomBytes(4).toString('hex')}`;
    await admin.unsafe(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const sql = connect({ url: url.toString(), max: 2 });
    opened.push({ name, sql });
    return sql;
  }

  function folder(files: Record<string, string>): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
    for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
    return dir;
  }

  afterAll(async () => {
    for (const { name, sql } of opened) {
      await sql.end();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
    }
    await admin.end();
  });

  it('applies the shipped migrations once; a second run applies nothing', async () => {
    const sql = await freshDatabase();
    const shipped = await readMigrations(DEFAULT_MIGRATIONS_DIR);
    const first = await migrate(sql);
    expect(first.applied).toHaveLength(shipped.length);
    const second = await migrate(sql);
    expect(second).toEqual({ applied: [], alreadyApplied: shipped.length });
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

  it('lets concurrent runners apply each migration exactly once', async () => {
    const sql = await freshDatabase();
    const dir = folder({ '001_counter.sql': 'create table runs (n int); insert into runs values (1);' });
    const other = connect({ url: new URL(`/${opened.at(-1)!.name}`, serverUrl).toString(), max: 1 });
    try {
      await Promise.all([migrate(sql, dir), migrate(other, dir)]);
    } finally {
      await other.end();
    }
    const [row] = await sql<{ count: number }[]>`select count(*)::int as count from runs`;
    expect(row?.count).toBe(1);
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
});
