import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { EXIT, parseSnooze, runFreshnessAlarm } from '../../ops/freshnessAlarm';
import { runCommandInProcess } from '../support/commandInProcess';

const NOW = new Date('2026-11-19T06:00:00Z');
const overview = (status: string, stale = 0) => ({ status, checked: 3, fresh: 3 - stale, stale, unknown: 0, checkedAt: NOW.toISOString() });
const staleClub = {
  clubId: 'c1',
  vereinsId: '1001',
  name: 'SV Eins',
  status: 'stale',
  lastArrivalAt: '2026-11-11T18:00:00.000Z',
  evening: { start: '2026-11-18T17:00:00.000Z', end: '2026-11-18T19:00:00.000Z' },
  hint: { code: 'shot_path_broken', message: 'The box lives and the shot-data path (event hub) is broken.' },
};

/** A fake deployment answering the two endpoints the alarm reads. */
function fakeFetch(health: { status: number; body: unknown }, summaryStatus = 200): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  const fake = ((input: string | URL, init?: RequestInit) => {
    const url = input.toString();
    calls.push(url + (new Headers(init?.headers).get('authorization') ? ' (with token)' : ''));
    if (url.endsWith('/healthz/data-freshness')) return Promise.resolve(Response.json(health.body, { status: health.status }));
    if (url.includes('/api/admin/diagnostics/summary')) {
      return Promise.resolve(Response.json({ dataFreshness: { clubs: [staleClub], nextOffset: null } }, { status: summaryStatus }));
    }
    return Promise.resolve(new Response('not found', { status: 404 }));
  }) as typeof fetch;
  return { fetch: fake, calls };
}

describe('parseSnooze', () => {
  it.each<[string | undefined, string | undefined]>([
    [undefined, undefined],
    ['', undefined],
    ['  ', undefined],
    ['2026-12-27', '2026-12-27T00:00:00.000Z'],
    ['2026-12-27T12:00:00Z', '2026-12-27T12:00:00.000Z'],
    ['2026-12-27T12:00:00+01:00', '2026-12-27T11:00:00.000Z'],
  ])('%p → %p', (value, expected) => {
    const parsed = parseSnooze(value);
    expect(parsed instanceof Date ? parsed.toISOString() : parsed).toBe(expected);
  });

  it.each([['tomorrow'], ['2026-02-30'], ['27.12.2026'], ['2026-12-27 12:00']])('refuses %p', (value) => {
    expect(parseSnooze(value)).toBeInstanceOf(Error);
  });
});

describe('runFreshnessAlarm', () => {
  const run = (fetchImpl: typeof fetch, extra: { token?: string; snoozeUntil?: string } = {}) =>
    runFreshnessAlarm({ url: 'https://svc.example/', now: NOW, fetch: fetchImpl, ...extra });

  it.each<[string, { status: number; body: unknown }, number]>([
    ['ok', { status: 200, body: overview('ok') }, EXIT.ok],
    ['unknown (no club delivered yet)', { status: 200, body: { ...overview('unknown'), fresh: 0, unknown: 3 } }, EXIT.ok],
    ['stale', { status: 200, body: overview('stale', 1) }, EXIT.stale],
    ['error (503)', { status: 503, body: { ...overview('error'), checked: 0, fresh: 0 } }, EXIT.error],
    ['an answer that is no freshness result', { status: 502, body: { message: 'bad gateway' } }, EXIT.error],
  ])('%s', async (_label, health, exitCode) => {
    expect((await run(fakeFetch(health).fetch)).exitCode).toBe(exitCode);
  });

  it('prints each stale club with its hint when it has a token', async () => {
    const { fetch: fake, calls } = fakeFetch({ status: 200, body: overview('stale', 1) });
    const result = await run(fake, { token: 'token-1' });
    expect(result.exitCode).toBe(EXIT.stale);
    expect(result.lines).toEqual([
      'Data freshness STALE: checked 3, fresh 2, stale 1, unknown 0.',
      'STALE 1001 SV Eins: evening 2026-11-18T17:00:00.000Z, last arrival 2026-11-11T18:00:00.000Z - shot_path_broken: The box lives and the shot-data path (event hub) is broken.',
    ]);
    expect(calls).toEqual([
      'https://svc.example/healthz/data-freshness',
      'https://svc.example/api/admin/diagnostics/summary?status=stale&limit=1000&offset=0 (with token)',
    ]);
  });

  it('without a token says how to get the club list, and still fails', async () => {
    const result = await run(fakeFetch({ status: 200, body: overview('stale', 2) }).fetch);
    expect(result.exitCode).toBe(EXIT.stale);
    expect(result.lines[1]).toContain('FRESHNESS_CHECK_TOKEN');
  });

  it('a refused summary still leaves the run red', async () => {
    const result = await run(fakeFetch({ status: 200, body: overview('stale', 1) }, 403).fetch, { token: 'expired' });
    expect(result.exitCode).toBe(EXIT.stale);
    expect(result.lines[1]).toContain('answered 403');
  });

  it('an unreachable deployment is an error', async () => {
    const failing = (() => Promise.reject(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') }))) as typeof fetch;
    const result = await run(failing);
    expect(result.exitCode).toBe(EXIT.error);
    expect(result.lines[0]).toContain('ECONNREFUSED');
  });

  it('while snoozed exits 0 with a clear line and asks nothing', async () => {
    const { fetch: fake, calls } = fakeFetch({ status: 200, body: overview('stale', 1) });
    const result = await run(fake, { snoozeUntil: '2026-12-27' });
    expect(result).toEqual({
      exitCode: EXIT.ok,
      lines: ['Freshness alarm snoozed until 2026-12-27T00:00:00.000Z (SVC_FRESHNESS_SNOOZE_UNTIL); not checked.'],
    });
    expect(calls).toEqual([]);
  });

  it('a snooze that has ended no longer mutes the alarm', async () => {
    const result = await run(fakeFetch({ status: 200, body: overview('stale', 1) }).fetch, { snoozeUntil: '2026-11-19' });
    expect(result.exitCode).toBe(EXIT.stale);
  });

  it('a malformed snooze is a usage error, not a silent mute', async () => {
    const result = await run(fakeFetch({ status: 200, body: overview('ok') }).fetch, { snoozeUntil: 'next monday' });
    expect(result.exitCode).toBe(EXIT.usage);
  });
});

describe('npm run freshness:check (the script)', () => {
  const script = path.join(__dirname, '../../development/ops.ts');
  const tsx = path.join(__dirname, '../../node_modules/.bin/tsx');
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(overview('stale', 1)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // A real start of the script costs about two CPU-seconds: the stale case starts it; the others
  // run the same command in this process.
  const runScript = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        tsx,
        [script, 'freshness:check', ...args],
        { env: { ...process.env, SVC_FRESHNESS_SNOOZE_UNTIL: '', FRESHNESS_CHECK_TOKEN: '', ...env } },
        (error, stdout, stderr) => resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr }),
      );
    });
  const runInProcess = (args: string[], env: Record<string, string> = {}) =>
    runCommandInProcess(['freshness:check', ...args], {
      ...process.env,
      SVC_FRESHNESS_SNOOZE_UNTIL: '',
      FRESHNESS_CHECK_TOKEN: '',
      ...env,
    });

  it('exits 1 on stale', async () => {
    const result = await runScript(['--url', base]);
    expect(result.code).toBe(EXIT.stale);
    expect(result.stderr).toContain('Data freshness STALE');
  }, 60_000);

  it('exits 0 with a clear line while snoozed', async () => {
    const result = await runInProcess(['--url', base], { SVC_FRESHNESS_SNOOZE_UNTIL: '2999-01-01' });
    expect(result.code).toBe(EXIT.ok);
    expect(result.stdout).toContain('Freshness alarm snoozed until 2999-01-01');
  }, 60_000);

  it('exits 64 without --url', async () => {
    const result = await runInProcess([]);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toContain('Usage');
  }, 60_000);
});
