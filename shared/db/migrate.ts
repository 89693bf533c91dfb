import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sql } from './client';

/**
 * Forward-only migrations: `NNN_name.sql` files applied in order, each in its own transaction,
 * recorded with a SHA-256 checksum. A changed applied file, or an applied version this build
 * does not have, stops the run before anything is applied.
 */
export interface MigrationFile {
  version: string;
  name: string;
  checksum: string;
  sql: string;
}

export interface MigrationResult {
  applied: string[];
  alreadyApplied: number;
}

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

/** The migrations shipped with the app. */
export const DEFAULT_MIGRATIONS_DIR = path.join(__dirname, 'migrations');

const FILE_PATTERN = /^(\d{3,})_([a-z0-9_]+)\.sql$/;
// Arbitrary, fixed key: every migration runner of every process serialises on it.
const MIGRATION_LOCK_KEY = 7_246_081;

export async function readMigrations(dir: string): Promise<MigrationFile[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  const files: MigrationFile[] = [];
  const seen = new Set<string>();
  for (const fileName of names) {
    const match = FILE_PATTERN.exec(fileName);
    if (!match) throw new MigrationError(`Migration file name ${fileName} does not match NNN_name.sql`);
    const [, version, name] = match as unknown as [string, string, string];
    if (seen.has(version)) throw new MigrationError(`Two migration files share version ${version}`);
    seen.add(version);
    const sql = await readFile(path.join(dir, fileName), 'utf8');
    // The runner wraps each file in its own transaction; a file that commits by itself would
    // leave a half-applied migration recorded as not applied.
    if (/^\s*(begin|commit|rollback|start\s+transaction)\s*(transaction|work)?\s*;/im.test(sql)) {
      throw new MigrationError(`Migration ${fileName} controls its own transaction; the runner already wraps each file in one`);
    }
    files.push({ version, name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return files;
}

interface AppliedRow {
  version: string;
  name: string;
  checksum: string;
}

export async function migrate(sql: Sql, dir: string = DEFAULT_MIGRATIONS_DIR): Promise<MigrationResult> {
  const files = await readMigrations(dir);
  // Under the lock too: two runners creating the table at once would collide in the catalog.
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
    await tx`
      create table if not exists schema_migrations (
        version text primary key,
        name text not null,
        checksum text not null,
        applied_at timestamptz not null default now()
      )`;
  });

  const applied: string[] = [];
  let alreadyApplied = 0;
  // Each migration is its own transaction; the advisory lock makes concurrent runners wait
  // and then see what the first one applied.
  for (const file of files) {
    const wasApplied = await sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
      const rows = await tx<AppliedRow[]>`select version, name, checksum from schema_migrations order by version`;
      verifyApplied(rows, files);
      if (rows.some((row) => row.version === file.version)) return true;
      await tx.unsafe(file.sql);
      await tx`insert into schema_migrations (version, name, checksum) values (${file.version}, ${file.name}, ${file.checksum})`;
      return false;
    });
    if (wasApplied) alreadyApplied += 1;
    else applied.push(`${file.version}_${file.name}`);
  }
  if (files.length === 0) {
    const rows = await sql<AppliedRow[]>`select version, name, checksum from schema_migrations`;
    verifyApplied(rows, files);
  }
  return { applied, alreadyApplied };
}

function verifyApplied(rows: AppliedRow[], files: MigrationFile[]): void {
  const byVersion = new Map(files.map((file) => [file.version, file]));
  for (const row of rows) {
    const file = byVersion.get(row.version);
    if (!file) {
      throw new MigrationError(`Migration ${row.version}_${row.name} is applied to the database but missing from this build`);
    }
    if (file.checksum !== row.checksum) {
      throw new MigrationError(
        `Migration ${row.version}_${row.name} was changed after it was applied (checksum mismatch); add a new migration instead`,
      );
    }
  }
}
