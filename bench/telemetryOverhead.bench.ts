import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startChildServer, type ChildServer } from './childServer';
import type { BenchContext } from './context';
import type { Comparison } from './harness';
import { LOAD_CONNECTIONS, LOAD_ROUNDS, LOAD_SECONDS, loadRun, mean, measuredRuns, median, type LoadRun } from './loadRuns';
import { startFakeAppInsights } from '../development/appInsightsFake/server';
import { createFakeTls } from '../development/costsFake/certificate';
import { bearer } from '../tests/support/tokens';

const ENTRIES = 1_000;
const USER = 'bench-telemetry-user';

type Run = LoadRun;

type Host = ChildServer;

async function startHost(side: 'on' | 'sampled' | 'off', env: NodeJS.ProcessEnv): Promise<Host> {
  const profile = process.env['BENCH_CPU_PROF']
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env['BENCH_CPU_PROF']}`, `--cpu-prof-name=${side}.cpuprofile`]
    : [];
  return startChildServer(path.join(__dirname, 'telemetryOverhead', 'host.ts'), [side], { env, nodeArgs: profile, label: `${side} host` });
}

const load = (host: Host, path_: string, headers: Record<string, string>, seconds: number) =>
  loadRun(host, host.url + path_, headers, { seconds });

const describeRuns = (runs: Run[]) =>
  runs
    .map((run) => `${Math.round(run.requestsPerSecond)} req/s p99 ${run.p99Ms} ms ${Math.round(run.cpuMicrosPerRequest)} µs CPU/req`)
    .join('; ');

/**
 * What telemetry costs on the whole request path: the inbox's first page (limit 50, 1,000 entries)
 * through the local host with telemetry off, `on` (every trace kept, through the Azure Monitor
 * distro's whole pipeline, each envelope built, serialised and handed to an in-memory HTTP client:
 * the worst case; BENCH_TELEMETRY_ON_EXPORT=https sends it to the local ingestion endpoint instead)
 * and `sampled` (the distro's production sampler, at most 5 traces per second, exported to the
 * local ingestion endpoint over HTTPS), under LOAD_CONNECTIONS concurrent connections, the sides taking
 * turns. Figures: off req/s ÷ on req/s and off req/s ÷ sampled req/s, with the host's CPU time per
 * request beside them.
 */
export default async function telemetryOverhead({ sql, url }: BenchContext): Promise<Comparison[]> {
  await sql`
    insert into notification (user_id, title, body, tone, kind, category, source, created_at)
    select ${USER}, 'Entry ' || n, 'Body of entry ' || n, 'info', 'member', 'club', 'bench', now() - make_interval(mins => n)
    from generate_series(1, ${ENTRIES}) as n`;
  await sql`vacuum analyze notification`;
  const headers = await bearer(USER, { expiresIn: '2h' });

  const tlsDirectory = mkdtempSync(path.join(os.tmpdir(), 'bench-telemetry-'));
  const tls = await createFakeTls(tlsDirectory);
  const ingestion = await startFakeAppInsights({ tls, keep: 1_000 });
  const { APPLICATIONINSIGHTS_CONNECTION_STRING: _configured, ...environment } = process.env;
  const withTelemetry = {
    ...environment,
    DATABASE_URL: url,
    APPLICATIONINSIGHTS_CONNECTION_STRING: ingestion.connectionString,
    NODE_EXTRA_CA_CERTS: tls.caFile,
  };
  const hosts = await Promise.all([
    startHost('off', { ...environment, DATABASE_URL: url }),
    startHost('on', withTelemetry),
    startHost('sampled', withTelemetry),
  ]);
  try {
    const path_ = '/api/notifications?limit=50';
    const runs: Run[][] = hosts.map(() => []);
    for (const host of hosts) await load(host, path_, headers, 1);
    for (let round = 0; round < LOAD_ROUNDS; round += 1) {
      // Each side goes first once in three rounds, so that no side always meets a warmer machine.
      for (let turn = 0; turn < hosts.length; turn += 1) {
        const side = (round + turn) % hosts.length;
        runs[side]?.push(await load(hosts[side] as Host, path_, headers, LOAD_SECONDS));
      }
    }
    const [offRuns = [], onRuns = [], sampledRuns = []] = runs;
    const failed = runs.flat().reduce((sum, run) => sum + run.failed, 0);
    if (failed) throw new Error(`telemetry overhead: ${failed} responses were not 2xx (or failed)`);
    if (ingestion.envelopes.length === 0) throw new Error('telemetry overhead: the telemetry side sent nothing to the ingestion endpoint');
    const offRps = mean(offRuns.map((run) => run.requestsPerSecond));
    const offCpu = median(offRuns.map((run) => run.cpuMicrosPerRequest));
    const figure = (side: string, sideRuns: Run[], name: string): Comparison => {
      const sideCpu = median(sideRuns.map((run) => run.cpuMicrosPerRequest));
      return {
        title: `Inbox first page through the local host, telemetry ${side} vs off (${LOAD_CONNECTIONS} connections, ${LOAD_ROUNDS} × ${LOAD_SECONDS} s per side): off req/s ÷ ${side} req/s`,
        baseline: measuredRuns('telemetry off (latency p50/p90)', offRuns),
        subject: measuredRuns(`${name} (latency p50/p90)`, sideRuns),
        ratio: offRps / mean(sideRuns.map((run) => run.requestsPerSecond)),
        target: 1.1,
        detail: [
          `off runs: ${describeRuns(offRuns)}`,
          `${side} runs: ${describeRuns(sideRuns)}`,
          `host CPU per request (median): ${Math.round(sideCpu)} µs ${side} against ${Math.round(offCpu)} µs off: ${(sideCpu / offCpu).toFixed(2)}×`,
          `p99 ${median(sideRuns.map((run) => run.p99Ms))} ms ${side} against ${median(offRuns.map((run) => run.p99Ms))} ms off`,
        ],
      };
    };
    const exported = await hosts[1]?.ask<{ requests: number; characters: number; envelopes: number }>('exported', 'exported');
    const overHttps = process.env['BENCH_TELEMETRY_ON_EXPORT'] === 'https';
    if (!overHttps && !exported?.requests) throw new Error('telemetry overhead: the on side exported nothing');
    const envelopes = `${ingestion.envelopes.length} envelopes reached the ingestion endpoint (last 1,000 kept)`;
    const all = figure('on', onRuns, `telemetry on: every trace kept and exported ${overHttps ? 'over HTTPS' : 'to memory'}`);
    if (exported?.requests) {
      all.detail?.push(
        `on side's exporters handed over ${exported.requests} requests, ${Math.round(exported.characters / 1e6)} M characters of envelopes (${exported.envelopes} in the last 4)`,
      );
    }
    const sampled = figure('sampled', sampledRuns, 'telemetry on: the production sampler (5 traces per second)');
    return [all, { ...sampled, detail: [...(sampled.detail ?? []), envelopes] }];
  } finally {
    await Promise.all(hosts.map((host) => host.stop()));
    await ingestion.close();
    rmSync(tlsDirectory, { recursive: true, force: true });
  }
}
