import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { SignJWT } from 'jose';
import type { BenchContext } from './context';
import type { Comparison, Measured } from './harness';
import { startFakeAppInsights } from '../development/appInsightsFake/server';
import { createFakeTls } from '../development/costsFake/certificate';
import { getSettings } from '../shared/config/settings';

/** Seconds of load per run and side (BENCH_REQUEST_SECONDS), runs per side (BENCH_REQUEST_ROUNDS). */
const SECONDS = Number(process.env['BENCH_REQUEST_SECONDS'] ?? 3);
const ROUNDS = Number(process.env['BENCH_REQUEST_ROUNDS'] ?? 3);
const CONNECTIONS = 16;
const ENTRIES = 1_000;
const USER = 'bench-telemetry-user';

interface Run {
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  failed: number;
}

interface Host {
  url: string;
  stop(): Promise<void>;
}

async function startHost(side: 'on' | 'off', env: NodeJS.ProcessEnv): Promise<Host> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'telemetryOverhead', 'host.ts'), side], {
    env,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the ${side} host exited (${code})`))));
  exited.catch(() => undefined);
  const url = await Promise.race([
    new Promise<string>((resolve) => child.on('message', (message: { url?: string }) => message.url && resolve(message.url))),
    exited,
  ]);
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('stop');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

async function load(url: string, headers: Record<string, string>, seconds: number): Promise<Run> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);
const measured = (name: string, runs: Run[]): Measured => ({
  name,
  medianMs: median(runs.map((run) => run.p50Ms)),
  p90Ms: median(runs.map((run) => run.p90Ms)),
  samples: runs.length,
});
const describeRuns = (runs: Run[]) => runs.map((run) => `${Math.round(run.requestsPerSecond)} req/s p99 ${run.p99Ms} ms`).join('; ');

/**
 * What telemetry costs on the whole request path: the inbox's first page (limit 50, 1,000 entries)
 * through the local host with telemetry on (every span and log record kept and exported: the
 * distro to a local ingestion endpoint, plus in-memory exporters) against the same host with it
 * off, under CONNECTIONS concurrent connections, the two alternating. Figure: off req/s ÷ on req/s.
 */
export default async function telemetryOverhead({ sql, url }: BenchContext): Promise<Comparison[]> {
  await sql`
    insert into notification (user_id, title, body, tone, kind, category, source, created_at)
    select ${USER}, 'Entry ' || n, 'Body of entry ' || n, 'info', 'member', 'club', 'bench', now() - make_interval(mins => n)
    from generate_series(1, ${ENTRIES}) as n`;
  await sql`vacuum analyze notification`;
  const settings = getSettings();
  const token = await new SignJWT({ roles: [] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(USER)
    .setIssuer(settings.AUTH_ISSUER)
    .setAudience(settings.AUTH_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(new TextEncoder().encode(settings.AUTH_JWT_SECRET ?? ''));
  const headers = { authorization: `Bearer ${token}` };

  const tlsDirectory = mkdtempSync(path.join(os.tmpdir(), 'bench-telemetry-'));
  const tls = await createFakeTls(tlsDirectory);
  const ingestion = await startFakeAppInsights({ tls, keep: 1_000 });
  const { APPLICATIONINSIGHTS_CONNECTION_STRING: _configured, ...environment } = process.env;
  const off = await startHost('off', { ...environment, DATABASE_URL: url });
  const on = await startHost('on', {
    ...environment,
    DATABASE_URL: url,
    APPLICATIONINSIGHTS_CONNECTION_STRING: ingestion.connectionString,
    NODE_EXTRA_CA_CERTS: tls.caFile,
  });
  try {
    const path_ = '/api/notifications?limit=50';
    const offRuns: Run[] = [];
    const onRuns: Run[] = [];
    await load(off.url + path_, headers, 1);
    await load(on.url + path_, headers, 1);
    for (let round = 0; round < ROUNDS; round += 1) {
      const sides = [
        async () => offRuns.push(await load(off.url + path_, headers, SECONDS)),
        async () => onRuns.push(await load(on.url + path_, headers, SECONDS)),
      ];
      for (const side of round % 2 === 0 ? sides : sides.reverse()) await side();
    }
    const failed = [...offRuns, ...onRuns].reduce((sum, run) => sum + run.failed, 0);
    if (failed) throw new Error(`telemetry overhead: ${failed} responses were not 2xx (or failed)`);
    if (ingestion.envelopes.length === 0) throw new Error('telemetry overhead: the telemetry side sent nothing to the ingestion endpoint');
    const offRps = mean(offRuns.map((run) => run.requestsPerSecond));
    const onRps = mean(onRuns.map((run) => run.requestsPerSecond));
    return [
      {
        title: `Inbox first page through the local host, telemetry on vs off (${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s per side): off req/s ÷ on req/s`,
        baseline: measured('telemetry off (latency p50/p90)', offRuns),
        subject: measured('telemetry on: every span exported (latency p50/p90)', onRuns),
        ratio: offRps / onRps,
        target: 1.1,
        detail: [
          `off runs: ${describeRuns(offRuns)}`,
          `on runs:  ${describeRuns(onRuns)}`,
          `p99 ${median(onRuns.map((run) => run.p99Ms))} ms on against ${median(offRuns.map((run) => run.p99Ms))} ms off; ${ingestion.envelopes.length} envelopes reached the ingestion endpoint (last ${1_000} kept)`,
        ],
      },
    ];
  } finally {
    await Promise.all([off.stop(), on.stop()]);
    await ingestion.close();
    rmSync(tlsDirectory, { recursive: true, force: true });
  }
}
