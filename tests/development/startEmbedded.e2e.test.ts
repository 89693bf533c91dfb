import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { PREFERRED_POSTGRES_PORT as PREFERRED_PORT } from '../../development/local/defaults';
import { freePort, isListening } from '../../development/local/net';

const root = path.resolve(__dirname, '..', '..');

interface Started {
  child: ChildProcess;
  port: number;
  output(): string;
}

/**
 * `npm start` as a new user runs it: no DATABASE_URL and no storage setting, so it starts the
 * embedded PostgreSQL and Azurite itself. The run gets its own data folder (LOCAL_DATA_DIR), so
 * it shares nothing with the checkout's .data or with other checkouts testing on this machine.
 */
describe('npm start with the embedded defaults', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'local-data-'));
  // Run as root, PostgreSQL's initdb works as the postgres user, which must reach the folder.
  chmodSync(dataDir, 0o755);
  const children: ChildProcess[] = [];

  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<Started> {
    const port = await freePort();
    // Empty values count as set, so a developer's local.settings.json cannot fill them in.
    const env = { ...process.env, DATABASE_URL: '', AzureWebJobsStorage: '', LOCAL_DATA_DIR: dataDir, PORT: String(port) };
    const child = spawn(process.execPath, [require.resolve('tsx/cli'), 'development/start.ts'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const started = { child, port, output: () => output };
    await waitUntilListening(started);
    return started;
  }

  async function health(port: number): Promise<{ status: number; body?: { components: Record<string, { status: string }> } }> {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      return { status: response.status, body: (await response.json()) as { components: Record<string, { status: string }> } };
    } catch {
      return { status: 0 };
    }
  }

  async function waitUntilListening(started: Started): Promise<void> {
    // Polls until the host answers (initdb on a first start takes a while); fails early when it exits.
    for (;;) {
      if (started.child.exitCode !== null) throw new Error(`npm start exited: ${started.output()}`);
      if (started.output().includes('Listening:')) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  async function stop(started: Started): Promise<void> {
    const exited = new Promise<void>((resolve) => started.child.once('exit', () => resolve()));
    started.child.kill('SIGINT');
    await exited;
  }

  /** Plays another checkout's server on the preferred port, unless something holds it already. */
  async function holdPreferredPort(): Promise<() => Promise<void>> {
    if (await isListening(PREFERRED_PORT)) return () => Promise.resolve();
    const other = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      other.once('error', reject);
      other.listen(PREFERRED_PORT, '127.0.0.1', resolve);
    });
    return () => new Promise((resolve) => other.close(() => resolve()));
  }

  it('serves /healthz with the database and storage up, and a second start reuses them without stopping them', async () => {
    const releasePort = await holdPreferredPort();
    let first: Started;
    try {
      first = await start();
    } finally {
      await releasePort();
    }
    // Another server held the preferred port: this data folder's server moved to a free one.
    const databaseLine =
      /Database: +embedded PostgreSQL postgres:\/\/postgres@127\.0\.0\.1:(\d+)\/shooting_club \(data in .*; started\)/.exec(first.output());
    expect(databaseLine?.[1]).toBeDefined();
    expect(Number(databaseLine?.[1])).not.toBe(PREFERRED_PORT);
    expect(first.output()).toMatch(/Storage: +Azurite on 127\.0\.0\.1:\d+-\d+ \(data in .*; started on/);
    const firstHealth = await health(first.port);
    expect(firstHealth).toMatchObject({ status: 200, body: { components: { database: { status: 'up' }, storage: { status: 'up' } } } });

    const second = await start();
    expect(second.output()).toMatch(
      /Database: +embedded PostgreSQL .*reused the server already running on it \(pid \d+; its owner stops it\)/,
    );
    expect(second.output()).toMatch(/Storage: +Azurite .*reused the instance already running on it/);
    expect((await health(second.port)).status).toBe(200);

    // The second command stops only what it started: nothing. The first keeps working.
    await stop(second);
    expect(await health(first.port)).toMatchObject({
      status: 200,
      body: { components: { database: { status: 'up' }, storage: { status: 'up' } } },
    });

    // The first stops what it started: the server of its data folder and its Azurite.
    await stop(first);
    expect(first.output()).toContain('SIGINT: stopping');
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'azurite', 'instance.json'))).toBe(false);
  }, 180_000);
});
