import { randomBytes } from 'node:crypto';
import { closeSql, type Queryable } from '../../shared/db/client';
import { migrate } from '../../shared/db/migrate';
import { getSettings, overrideSettings } from '../../shared/config/settings';
import { createScratchDatabase } from '../../development/local/scratchDatabase';

/** One checksum per application table: the row count and an md5 over every row, in a stable order. */
export type DbFingerprint = Record<string, { rows: number; checksum: string }>;

/**
 * Columns that record that a credential was used, not what the service holds: an edge token's
 * `last_used_at` is set by the guard (throttled) before a request can be refused for its input.
 * Everything else counts.
 */
export const BOOKKEEPING_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  edge_token: ['last_used_at'],
};

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * Every base table outside the system schemas, each as row count and md5 over its rows' JSON
 * text (sorted), in one statement. Sequences are left out: a refused insert may use up a number.
 */
export async function dbFingerprint(sql: Queryable): Promise<DbFingerprint> {
  const tables = await sql<{ schema: string; name: string }[]>`
    select table_schema as schema, table_name as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
    order by 1, 2`;
  if (tables.length === 0) return {};
  const parts = tables.map(({ schema, name }) => {
    const ignored = BOOKKEEPING_COLUMNS[name] ?? [];
    const row = ignored.length ? `(to_jsonb(t) - array[${ignored.map(literal).join(', ')}]::text[])::text` : 'to_jsonb(t)::text';
    return `select ${literal(`${schema}.${name}`)} as name, count(*)::int as rows,
      md5(coalesce(string_agg(${row}, E'\\n' order by ${row}), '')) as checksum
      from ${quote(schema)}.${quote(name)} as t`;
  });
  const result = await sql.unsafe<{ name: string; rows: number; checksum: string }[]>(parts.join('\nunion all\n'));
  return Object.fromEntries(result.map(({ name, rows, checksum }) => [name, { rows, checksum }]));
}

/** The tables whose rows differ between two fingerprints (added or dropped tables included). */
export function changedTables(before: DbFingerprint, after: DbFingerprint): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name]?.checksum !== after[name]?.checksum || before[name]?.rows !== after[name]?.rows).sort();
}

export interface PrivateDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A migrated database of this test file's own on the run's server, the DATABASE_URL of the
 * settings until `drop()`. A fingerprint taken there changes only through this file's requests,
 * while other files run in parallel.
 */
export async function usePrivateDatabase(prefix: string): Promise<PrivateDatabase> {
  const serverUrl = getSettings().DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is not set: run through jest (tests/support/globalSetup.ts)');
  const database = await createScratchDatabase(serverUrl, `${prefix}_${randomBytes(5).toString('hex')}`, migrate);
  await closeSql();
  const restoreSettings = overrideSettings({ DATABASE_URL: database.url });
  return {
    url: database.url,
    async drop() {
      await closeSql();
      restoreSettings();
      await database.drop();
    },
  };
}

const WRITES_SEQUENCE = 'fingerprint_writes';

/**
 * The fingerprint of a private database, taken again only after a statement that may have
 * written. Every base table gets a statement-level trigger that advances one sequence on insert,
 * update, delete and truncate; sequences are not transactional, so a statement that wrote and was
 * rolled back advances it too. An unchanged sequence therefore proves that no statement wrote, and
 * the last fingerprint still holds; any other case takes a full one. The hostile tests compare
 * thousands of states, nearly all unchanged: this keeps each check as exact as a full
 * fingerprint at a small part of its cost.
 */
export interface FingerprintWatch {
  /** The fingerprint now: the last one when no statement has written since it was taken. */
  current(): Promise<DbFingerprint>;
  /** How many full fingerprints were taken (for the watch's own test). */
  readonly taken: number;
}

export async function watchFingerprint(sql: Queryable): Promise<FingerprintWatch> {
  const tables = await sql<{ schema: string; name: string }[]>`
    select table_schema as schema, table_name as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`;
  await sql.unsafe(`
    create sequence if not exists ${WRITES_SEQUENCE};
    create or replace function fingerprint_write_seen() returns trigger language plpgsql as $$
    begin
      perform nextval('${WRITES_SEQUENCE}');
      return null;
    end $$;
    ${tables
      .map(
        ({ schema, name }) => `create or replace trigger fingerprint_write_seen
          after insert or update or delete or truncate on ${quote(schema)}.${quote(name)}
          for each statement execute function fingerprint_write_seen();`,
      )
      .join('\n')}`);
  const writes = async () => {
    const [row] = await sql.unsafe<{ mark: string }[]>(`select last_value::text || ':' || is_called::text as mark from ${WRITES_SEQUENCE}`);
    return row?.mark ?? '';
  };
  let last: { mark: string; fingerprint: DbFingerprint } | undefined;
  let taken = 0;
  return {
    get taken() {
      return taken;
    },
    async current() {
      // The mark first: a write that lands while the fingerprint is taken changes the mark again.
      const mark = await writes();
      if (last?.mark === mark) return last.fingerprint;
      taken += 1;
      last = { mark, fingerprint: await dbFingerprint(sql) };
      return last.fingerprint;
    },
  };
}
