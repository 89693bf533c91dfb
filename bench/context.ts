import { randomBytes } from 'node:crypto';
import { connect, type Sql } from '../shared/db/client';
import { migrate } from '../shared/db/migrate';
import { createScratchDatabase } from '../development/local/scratchDatabase';

export interface BenchContext {
  /** A pool on a fresh, migrated database that is dropped after the run. */
  sql: Sql;
  /** The same database's URL, for code that opens its own pool from settings (the app's functions). */
  url: string;
}

/** Creates a throw-away database on the server behind `serverUrl` for one benchmark run. */
export async function createBenchDatabase(serverUrl: string): Promise<{ context: BenchContext; drop(): Promise<void> }> {
  const database = await createScratchDatabase(serverUrl, `bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`);
  const sql = connect({ url: database.url, max: 4 });
  await migrate(sql);
  return { context: { sql, url: database.url }, drop: () => database.drop(sql) };
}
