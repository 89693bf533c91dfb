import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { connect, type Sql } from '../../shared/db/client';
import { DEFAULT_MIGRATIONS_DIR } from '../../shared/db/migrate';

/**
 * Scratch databases for the describe block that calls this: dropped after its tests. Each drop
 * waits for a checkpoint, seconds apiece on a busy server: hence the hook's long timeout.
 */
export function useScratchDatabases(): Omit<ReturnType<typeof scratchDatabases>, 'dropAll'> {
  const databases = scratchDatabases();
  afterAll(() => databases.dropAll(), 180_000);
  return databases;
}

/** Empty databases of a test file's own on the test server, dropped by `dropAll`, so each run starts from nothing. */
function scratchDatabases() {
  const serverUrl = process.env['DATABASE_URL']!;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => undefined });
  const opened: { name: string; sql: Sql }[] = [];
  const urlOf = (name: string) => new URL(`/${name}`, serverUrl).toString();
  return {
    async fresh(): Promise<Sql> {
      const name = `mig_${randomBytes(4).toString('hex')}`;
      await admin.unsafe(`create database ${name}`);
      const sql = connect({ url: urlOf(name), max: 2 });
      opened.push({ name, sql });
      return sql;
    },
    /** A second pool on the database `fresh` made last. */
    another(): Sql {
      return connect({ url: urlOf(opened.at(-1)!.name), max: 1 });
    },
    async dropAll(): Promise<void> {
      for (const { name, sql } of opened) {
        await sql.end();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
      }
      await admin.end();
    },
  };
}

/** A migrations folder of the given files (`live/name.sql` for live files), its live folder empty when none is given. */
export function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
  mkdirSync(path.join(dir, 'live'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

/**
 * The shipped numbered migrations before the one whose name ends with `suffix` (the state a
 * database had before it), without live files: today's live files are written for today's
 * schema (a participation's copied name, say), which that state does not have yet.
 */
export function shippedMigrationsBefore(suffix: string): string {
  const shipped = readdirSync(DEFAULT_MIGRATIONS_DIR).filter((name) => /^\d{3}_.*\.sql$/.test(name));
  const first = shipped.find((name) => name.endsWith(suffix));
  if (!first) throw new Error(`no shipped migration ends with ${suffix}`);
  return folder(
    Object.fromEntries(
      shipped.filter((name) => name < first).map((name) => [name, readFileSync(path.join(DEFAULT_MIGRATIONS_DIR, name), 'utf8')]),
    ),
  );
}
