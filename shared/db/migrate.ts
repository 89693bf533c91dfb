import path from 'node:path';
import type { Sql } from './client';
import { MigrationError, readLiveFiles, readMigrations, type LiveFile, type MigrationFile } from './migrationFiles';
import { FORMER_CHECKSUMS } from './migrations/formerChecksums';

/**
 * Forward-only migrations: `NNN_name.sql` files applied in order, each in its own transaction,
 * recorded with a SHA-256 checksum. A changed applied file, or an applied version this build
 * does not have, stops the run before anything is applied. After them the live files
 * (`live/name.sql`: functions, triggers, views) are applied, each in its own transaction, when
 * their checksum differs from the one recorded (./migrationFiles.ts).
 */
export { MigrationError, readLiveFiles, readMigrations, type LiveFile, type MigrationFile } from './migrationFiles';

export interface MigrationResult {
  applied: string[];
  alreadyApplied: number;
  /** The live files applied by this run: new, or changed since they were last applied. */
  liveApplied: string[];
}

/** The migrations shipped with the app. */
export const DEFAULT_MIGRATIONS_DIR = path.join(__dirname, 'migrations');

// Arbitrary, fixed key: every migration runner of every process serialises on it.
const MIGRATION_LOCK_KEY = 7_246_081;

interface AppliedRow {
  version: string;
  name: string;
  checksum: string;
}

export async function migrate(sql: Sql, dir: string = DEFAULT_MIGRATIONS_DIR): Promise<MigrationResult> {
  const files = await readMigrations(dir);
  const liveFiles = await readLiveFiles(dir);
  // Under the lock too: two runners creating the tables at once would collide in the catalog.
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
    await tx`
      create table if not exists schema_migrations (
        version text primary key,
        name text not null,
        checksum text not null,
        applied_at timestamptz not null default now()
      )`;
    await tx`
      create table if not exists schema_live_files (
        name text primary key,
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
  return { applied, alreadyApplied, liveApplied: await applyLiveFiles(sql, liveFiles) };
}

/** Applies each live file whose checksum differs from the recorded one, in order, under the runner's lock. */
async function applyLiveFiles(sql: Sql, liveFiles: LiveFile[]): Promise<string[]> {
  const applied: string[] = [];
  for (const file of liveFiles) {
    const changed = await sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
      const [recorded] = await tx<{ checksum: string }[]>`select checksum from schema_live_files where name = ${file.name}`;
      if (recorded?.checksum === file.checksum) return false;
      await tx.unsafe(file.sql);
      await tx`
        insert into schema_live_files (name, checksum) values (${file.name}, ${file.checksum})
        on conflict (name) do update set checksum = excluded.checksum, applied_at = now()`;
      return true;
    });
    if (changed) applied.push(file.name);
  }
  return applied;
}

function verifyApplied(rows: AppliedRow[], files: MigrationFile[]): void {
  const byVersion = new Map(files.map((file) => [file.version, file]));
  for (const row of rows) {
    const file = byVersion.get(row.version);
    if (!file) {
      throw new MigrationError(`Migration ${row.version}_${row.name} is applied to the database but missing from this build`);
    }
    if (file.checksum !== row.checksum && !FORMER_CHECKSUMS[row.version]?.includes(row.checksum)) {
      throw new MigrationError(
        `Migration ${row.version}_${row.name} was changed after it was applied (checksum mismatch); add a new migration instead`,
      );
    }
  }
}
