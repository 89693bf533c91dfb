import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { getSql } from '../../shared/db/client';
import { hashEdgeToken } from '../../shared/clubMaster/edgeTokens';
import { runCommandInProcess } from '../support/commandInProcess';
import { createServiceClub } from '../support/fixtures';

const run = promisify(execFile);
// The one start of the command (tsx) takes seconds on a busy machine.
jest.setTimeout(120_000);
const root = path.resolve(__dirname, '..', '..');

interface Outcome {
  stdout: string;
  stderr: string;
  code: number;
}

/** `npm run edge:token` as an operator runs it, against the test database: a process of its own. */
async function edgeTokenProcess(...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'development/ops.ts', 'edge:token', ...args],
      { cwd: root, env: { ...process.env } },
    );
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

/**
 * The same command run in this process (ops/runCommand, what `npm run edge:token` runs once its
 * local environment is ready): for the cases where only the arguments differ from the real start.
 */
async function edgeToken(...args: string[]): Promise<Outcome> {
  return edgeTokenWith(process.env, ...args);
}

async function edgeTokenWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Outcome> {
  return runCommandInProcess(['edge:token', ...args], { ...env });
}

describe('npm run edge:token', () => {
  it('creates a token for a club, prints it once and stores only its hash; list and revoke work', async () => {
    const clubId = await createServiceClub(getSql());
    const created = await edgeTokenProcess('--club', clubId);
    expect(created.code).toBe(0);
    const token = created.stdout.trim().split('\n').at(-1)!;
    expect(token).toMatch(/^edge_[A-Za-z0-9_-]{43}$/);

    const rows = await getSql()<{ id: string; token_hash: string }[]>`select id, token_hash from edge_token where club_id = ${clubId}`;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(hashEdgeToken(token));
    // The token itself is in no column: the whole row as text does not contain it, nor its random part.
    const [stored] = await getSql()`
      select count(*)::int as count from edge_token e
      where e.club_id = ${clubId} and (strpos(e::text, ${token}) > 0 or strpos(e::text, ${token.slice('edge_'.length)}) > 0)`;
    expect(stored!['count']).toBe(0);
    expect(created.stdout.split(token)).toHaveLength(2);

    const listed = await edgeToken('--list', '--club', clubId);
    expect(listed.stdout).toContain(rows[0]!.id);
    expect(listed.stdout).not.toContain(token);

    const revoked = await edgeToken('--revoke', rows[0]!.id);
    expect(revoked.code).toBe(0);
    const [row] = await getSql()`select revoked_at from edge_token where id = ${rows[0]!.id}`;
    expect(row!['revoked_at']).toBeInstanceOf(Date);
    expect((await edgeToken('--revoke', rows[0]!.id)).code).not.toBe(0);
  });

  it('names the database it used, without its password', async () => {
    const url = new URL(process.env['DATABASE_URL']!);
    url.password = 'not-shown-anywhere';
    const clubId = await createServiceClub(getSql());
    const result = await edgeTokenWith({ ...process.env, DATABASE_URL: url.toString() }, '--list', '--club', clubId);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Database: PostgreSQL `);
    expect(result.stdout).toContain(`${url.hostname}:${url.port}`);
    expect(result.stdout + result.stderr).not.toContain('not-shown-anywhere');
  });

  it.each(['bad id', '', 'x'.repeat(33)])('refuses --vereins-id %j with the rules of the sync', async (vereinsId) => {
    const clubId = `cli-${Date.now()}-${Math.random().toString(16).slice(2)}`;
    const result = await edgeToken('--club', clubId, '--create-club', '--name', 'SV Kommando', '--vereins-id', vereinsId);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('--vereins-id');
    const [club] = await getSql()`select id from club where id = ${clubId}`;
    expect(club).toBeUndefined();
  });

  it('stores --vereins-id trimmed, as the sync would', async () => {
    const clubId = `cli-${Date.now()}-${Math.random().toString(16).slice(2)}`;
    const vereinsId = `v${Date.now()}`;
    const result = await edgeToken('--club', clubId, '--create-club', '--name', 'SV Kommando', '--vereins-id', ` ${vereinsId} `);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Created club ${clubId} (SV Kommando).`);
    const [club] = await getSql()`select vereins_id from club where id = ${clubId}`;
    expect(club!['vereins_id']).toBe(vereinsId);

    // A second run finds the club and says so instead of claiming to create it.
    const again = await edgeToken('--club', clubId, '--create-club', '--name', 'SV Other');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Club ${clubId} exists already; left as it is.`);
    expect(again.stdout).not.toContain('Created club');
  });

  it('refuses a club that does not exist', async () => {
    const result = await edgeToken('--club', 'no-such-club');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('No service club with id no-such-club');
  });
});
