import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { readJson } from '../support/http';
import { useTestHost } from '../support/testHost';

/**
 * The served document as client tooling sees it: Redocly's recommended rules find nothing, and
 * a client typed by openapi-typescript compiles a real call (numbers for numeric parameters) and
 * refuses a wrong one. The tools run from node_modules, offline.
 */
const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');
const bin = (path: string) => join(ROOT, 'node_modules', path);
const QUIET = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string; location: { pointer?: string }[] }[];
}

/** A command that may fail: its exit code and output, never a throw. */
async function attempt(file: string, args: string[], cwd: string): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, [file, ...args], { cwd, env: QUIET, maxBuffer: 32 * 1024 * 1024 });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '' };
  }
}

describe('the OpenAPI document in client tooling', () => {
  let dir: string;
  const host = useTestHost();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'openapi-clients-'));
    const document = await readJson<unknown>(await host.request('GET', '/api/openapi.json'));
    await writeFile(join(dir, 'openapi.json'), JSON.stringify(document));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const { stdout } = await attempt(
      bin('@redocly/cli/bin/cli.js'),
      ['lint', '--extends=recommended', '--format=json', 'openapi.json'],
      dir,
    );
    const report = JSON.parse(stdout) as LintReport;
    expect(report.problems.map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('and Redocly does report a document that breaks its rules', async () => {
    await writeFile(
      join(dir, 'broken.json'),
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'x', version: '1' },
        paths: { '/x': { get: { responses: { 200: { description: 'ok' } } } } },
      }),
    );
    const { stdout } = await attempt(
      bin('@redocly/cli/bin/cli.js'),
      ['lint', '--extends=recommended', '--format=json', 'broken.json'],
      dir,
    );
    const report = JSON.parse(stdout) as LintReport;
    expect(report.totals.errors).toBeGreaterThan(0);
    expect(report.problems.map((problem) => problem.ruleId)).toEqual(expect.arrayContaining(['no-empty-servers', 'security-defined']));
  });

  it('types a generated client: numeric parameters take numbers, a string for one does not compile', async () => {
    const generated = await attempt(bin('openapi-typescript/bin/cli.js'), ['openapi.json', '-o', 'api.d.ts'], dir);
    expect(generated.code).toBe(0);
    const calls = [
      "import createClient from 'openapi-fetch';",
      "import type { components, paths } from './api';",
      "const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:7071' });",
      'export async function inbox(): Promise<components["schemas"]["NotificationRecord"][]> {',
      "  const { data } = await client.GET('/api/notifications', { params: { query: { limit: 20, unread: 'true' } } });",
      '  return data?.items ?? [];',
      '}',
      'export async function challenges(): Promise<string | null | undefined> {',
      "  const { data } = await client.GET('/api/challenges', { params: { query: { limit: 100, status: 'active' } } });",
      '  return data?.nextCursor;',
      '}',
      'export async function costs(): Promise<number[]> {',
      "  const { data, error } = await client.GET('/api/admin/v1/costs/timeseries', { params: { query: { days: 7 } } });",
      '  if (error) throw new Error(error.title);',
      '  return data.points.map((point) => point.cost);',
      '}',
      'export async function join(id: string): Promise<boolean | undefined> {',
      "  const { data } = await client.POST('/api/challenges/{id}/join', { params: { path: { id } } });",
      '  return data?.shareGlobally;',
      '}',
      'export async function stringLimit(): Promise<void> {',
      "  await client.GET('/api/notifications', { params: { query: { limit: '20' } } });",
      '}',
      '',
    ];
    await writeFile(join(dir, 'calls.ts'), calls.join('\n'));
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          skipLibCheck: true,
          types: [],
          paths: { 'openapi-fetch': [bin('openapi-fetch')] },
        },
        files: ['calls.ts'],
      }),
    );
    const compiled = await attempt(bin('typescript/bin/tsc'), ['-p', 'tsconfig.json', '--pretty', 'false'], dir);
    const errors = compiled.stdout.split('\n').filter((line) => line.includes('error TS'));
    // Only the call that passes the limit as text fails, and for its type.
    const stringLimitLine = calls.findIndex((line) => line.includes("limit: '20'")) + 1;
    expect(errors).toEqual([`calls.ts(${stringLimitLine},63): error TS2322: Type 'string' is not assignable to type 'number'.`]);
    // Generating and type-checking take a few seconds alone, far longer on a busy machine.
  }, 180_000);
});
