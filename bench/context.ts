import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { connect, type Sql } from '../shared/db/client';
import { migrate } from '../shared/db/migrate';
import { quoteIdentifier } from '../development/local/embeddedPostgres';

export interface BenchContext {
  /** A pool on a fresh, migrated database that is dropped after the run. */
  sql: Sql;
  /** The same database's URL, for code that opens its own pool from settings (the app's functions). */
  url: string;
}

/** Creates a throw-away database on the server behind `serverUrl` for one benchmark run. */
export async function createBenchDatabase(serverUrl: string): Promise<{ context: BenchContext; drop(): Promise<void> }> {
  const name = `bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${quoteIdentifier(name)}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const sql = connect({ url: url.toString(), max: 4 });
  await migrate(sql);
  return {
    context: { sql, url: url.toString() },
    drop: async () => {
      await sql.end({ timeout: 5 });
      await admin.unsafe(`drop database if exists ${quoteIdentifier(name)} with (force)`);
      await admin.end();
    },
  };
}
