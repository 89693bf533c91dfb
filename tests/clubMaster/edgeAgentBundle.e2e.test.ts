import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { getSql } from '../../shared/db/client';
import { MIRROR_CLUB_TABLE_DDL } from '../../edge/mirror';
import { freePort } from '../../scripts/local/net';
import { startTestHost, type TestHost } from '../support/testHost';
import { activeVereinsIds, createBox, uniqueTag } from './fixtures';

const root = path.resolve(__dirname, '..', '..');

/**
 * The box agent as a box runs it: the bundle `npm run build` emits, copied nowhere near the
 * repository's node_modules and started with plain `node` (no tsx, no devDependencies), pushing
 * to the cloud served by the local host.
 */
describe('the box agent bundle', () => {
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'edge-bundle-'));
  const bundle = path.join(outdir, 'edge-agent.js');
  let cloud: TestHost;
  let admin: postgres.Sql;
  let mirror: postgres.Sql;
  let mirrorUrl: string;
  const mirrorDatabase = `mirror_${uniqueTag()}`;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, ['scripts/build.mjs', '--outdir', outdir], { cwd: root });
    cloud = await startTestHost();
    admin = postgres(process.env['DATABASE_URL'] ?? '', { max: 1, onnotice: () => undefined });
    // The name is built from [a-z0-9_] only (uniqueTag is hex), so quoting is all it needs.
    await admin.unsafe(`create database "${mirrorDatabase}"`);
    const url = new URL(process.env['DATABASE_URL'] ?? '');
    url.pathname = `/${mirrorDatabase}`;
    mirrorUrl = url.toString();
    mirror = postgres(mirrorUrl, { max: 1, onnotice: () => undefined });
    await mirror.unsafe(MIRROR_CLUB_TABLE_DDL);
  }, 60_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await mirror.end();
    await admin.unsafe(`drop database if exists "${mirrorDatabase}" with (force)`);
    await admin.end();
    await cloud.close();
    rmSync(outdir, { recursive: true, force: true });
  });

  /** Starts the bundle with only these variables (and PATH): nothing of the test's environment leaks in. */
  function startBundle(env: Record<string, string>): { child: ChildProcess; output(): string; exited: Promise<number | null> } {
    const child = spawn(process.execPath, [bundle], {
      cwd: outdir,
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, output: () => output, exited };
  }

  /** Resolves once the output contains `text`; rejects when the process ends first. */
  function outputContains(started: ReturnType<typeof startBundle>, text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (started.output().includes(text)) resolve();
      };
      started.child.stdout?.on('data', check);
      started.child.once('exit', () => reject(new Error(`The agent exited: ${started.output()}`)));
      check();
    });
  }

  it('starts with node alone, pushes the mirror clubs to the cloud and stops on SIGTERM', async () => {
    const box = await createBox(getSql());
    await mirror`insert into club_software_club (vereins_id, name) values ('5001', 'SV Bündel'), ('5002', 'SV Paket')`;
    const port = await freePort();
    // As on a box: the settings in the .env next to the bundle, the environment overriding one.
    const envFile = path.join(outdir, '.env');
    writeFileSync(
      envFile,
      [
        `SVC_MIRROR_DATABASE_URL=${mirrorUrl}`,
        `SVC_EDGE_API_TOKEN=${box.token}`,
        `SVC_CLOUD_BASE_URL=${cloud.url}`,
        'SVC_CLUB_MASTER_SYNC_ENABLED=true',
        'SVC_EDGE_PORT=1',
      ].join('\n'),
    );
    const agent = startBundle({ SVC_EDGE_PORT: String(port) });
    await outputContains(agent, 'Box agent:');

    // Joins the start-up push when it is still running, else pushes again: either way the clubs landed.
    const run = await fetch(`http://127.0.0.1:${port}/api/club-master-sync/run`, { method: 'POST' });
    expect(run.status).toBe(200);
    expect(await activeVereinsIds(getSql(), box.clubId)).toEqual(['5001', '5002']);
    const status = (await (await fetch(`http://127.0.0.1:${port}/api/club-master-sync/status`)).json()) as Record<string, unknown>;
    expect(status).toMatchObject({ enabled: true, lastError: null, lastResult: { reported: 2 } });

    agent.child.kill('SIGTERM');
    expect(await agent.exited).toBe(0);
    expect(agent.output()).toContain('SIGTERM: stopping');
    expect(agent.output()).not.toContain(box.token);
    rmSync(envFile);
  }, 60_000);

  it('refuses to start without the mirror database, naming the setting', async () => {
    const agent = startBundle({ SVC_EDGE_PORT: String(await freePort()) });
    expect(await agent.exited).toBe(1);
    expect(agent.output()).toContain('Start-up failed: SVC_MIRROR_DATABASE_URL is required');
  }, 30_000);
});
