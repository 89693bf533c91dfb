import postgres from 'postgres';

export interface ScratchDatabase {
  /** The new database's URL: the server's, with the database name swapped in. */
  url: string;
  /** Ends `sqls` (pools on the database), then drops the database with whatever is still connected. */
  drop(...sqls: { end(options?: { timeout?: number }): Promise<void> }[]): Promise<void>;
}

/**
 * Creates the database `name` on the server behind `serverUrl` for a run of its own (a benchmark,
 * a soak, a test file's mirror) and prepares it through a one-connection pool that is closed again.
 */
export async function createScratchDatabase(
  serverUrl: string,
  name: string,
  prepare: (sql: postgres.Sql) => Promise<unknown> = () => Promise.resolve(),
): Promise<ScratchDatabase> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${quoteIdentifier(name)}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const preparing = postgres(url.toString(), { max: 1, onnotice: () => undefined });
  try {
    await prepare(preparing);
  } finally {
    await preparing.end();
  }
  return {
    url: url.toString(),
    async drop(...sqls) {
      for (const sql of sqls) await sql.end({ timeout: 5 });
      await admin.unsafe(`drop database if exists ${quoteIdentifier(name)} with (force)`);
      await admin.end();
    },
  };
}

/** A database name as an identifier, refusing any name that would need more than quotes. */
export function quoteIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Unsafe database name: ${name}`);
  return `"${name}"`;
}
