import path from 'node:path';
import { startChildServer, type ChildServer } from './childServer';
import type { BenchContext } from './context';
import type { Comparison } from './harness';
import { LOAD_CONNECTIONS, LOAD_ROUNDS, LOAD_SECONDS, loadRun, mean, measuredRuns, median, type LoadRun } from './loadRuns';
import { benchChallenge, seedInbox } from './seed';
import type { Sql } from '../shared/db/client';
import { bearer } from '../tests/support/tokens';

const INBOX_ENTRIES = 1_000;
const PARTICIPANTS = 100_000;
const USER = 'bench-path-user';

interface Run extends LoadRun {
  /** The server's young-generation collections during the run: how many, and their mean pause in ms. */
  youngCollections: number;
  youngPauseMs: number;
}

interface YoungCollections {
  count: number;
  pauseMs: number;
}

type Server = ChildServer;

/** Starts bench/requestPath/server.ts as `side` on the bench database; resolves once it listens. */
async function startServer(side: 'host' | 'bare', databaseUrl: string): Promise<Server> {
  // BENCH_CPU_PROF=<dir>: both sides write a V8 CPU profile when they stop (host.cpuprofile,
  // bare.cpuprofile), to compare where each spends its time; BENCH_HOST_PROFILE=<dir>: the host only.
  const both = process.env['BENCH_CPU_PROF'];
  const hostOnly = process.env['BENCH_HOST_PROFILE'];
  const profiling = both
    ? ['--cpu-prof', `--cpu-prof-dir=${both}`, `--cpu-prof-name=${side}.cpuprofile`]
    : hostOnly && side === 'host'
      ? ['--cpu-prof', `--cpu-prof-dir=${hostOnly}`]
      : [];
  return startChildServer(path.join(__dirname, 'requestPath', 'server.ts'), [side], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    nodeArgs: profiling,
    label: `${side} server`,
  });
}

/** Requests each side answers before the measured runs: the host's code is compiled and optimised on first use. */
const WARM_UP_REQUESTS = Number(process.env['BENCH_REQUEST_WARM_UP'] ?? 6_000);

async function load(
  server: Server,
  url: string,
  headers: Record<string, string>,
  length: { seconds: number } | { requests: number },
): Promise<Run> {
  const youngBefore = await server.ask<YoungCollections>('gc', 'youngCollections');
  const run = await loadRun(server, url, headers, length);
  const youngAfter = await server.ask<YoungCollections>('gc', 'youngCollections');
  const youngCollections = youngAfter.count - youngBefore.count;
  return { ...run, youngCollections, youngPauseMs: (youngAfter.pauseMs - youngBefore.pauseMs) / Math.max(youngCollections, 1) };
}

const cpuMs = (run: Run) => run.cpuMicrosPerRequest / 1000;

function describe(runs: Run[]): string {
  return runs
    .map(
      (run) =>
        `${Math.round(run.requestsPerSecond)} req/s p99 ${run.p99Ms} ms cpu ${cpuMs(run).toFixed(3)} ms/req` +
        ` young GC ${run.youngCollections} × ${run.youngPauseMs.toFixed(1)} ms`,
    )
    .join('; ');
}

/**
 * One route under `LOAD_CONNECTIONS` concurrent connections: `LOAD_ROUNDS` runs of `LOAD_SECONDS` per side,
 * the service (through the local host, with a real token) and the bare server alternating, each
 * side's first run preceded by a warm-up of WARM_UP_REQUESTS requests. Two figures: throughput (bare req/s over the
 * service's, so that lower is better like every other ratio: 1.25 is 0.8× the bare throughput)
 * and p99 (the service's median p99 over the bare one's).
 */
async function compareRoute(
  title: string,
  service: { server: Server; url: string; headers: Record<string, string> },
  bare: { server: Server; url: string },
): Promise<Comparison[]> {
  const serviceRuns: Run[] = [];
  const bareRuns: Run[] = [];
  await load(service.server, service.url, service.headers, { requests: WARM_UP_REQUESTS });
  await load(bare.server, bare.url, {}, { requests: WARM_UP_REQUESTS });
  for (let round = 0; round < LOAD_ROUNDS; round += 1) {
    const sides = [
      async () => serviceRuns.push(await load(service.server, service.url, service.headers, { seconds: LOAD_SECONDS })),
      async () => bareRuns.push(await load(bare.server, bare.url, {}, { seconds: LOAD_SECONDS })),
    ];
    for (const side of round % 2 === 0 ? sides : sides.reverse()) await side();
  }
  const failed = [...serviceRuns, ...bareRuns].reduce((sum, run) => sum + run.failed, 0);
  if (failed) throw new Error(`${title}: ${failed} responses were not 2xx (or failed)`);
  const serviceRps = mean(serviceRuns.map((run) => run.requestsPerSecond));
  const bareRps = mean(bareRuns.map((run) => run.requestsPerSecond));
  const serviceP99 = median(serviceRuns.map((run) => run.p99Ms));
  const bareP99 = median(bareRuns.map((run) => run.p99Ms));
  const serviceCpu = median(serviceRuns.map(cpuMs));
  const bareCpu = median(bareRuns.map(cpuMs));
  const servicePause = median(serviceRuns.map((run) => run.youngPauseMs));
  const barePause = median(bareRuns.map((run) => run.youngPauseMs));
  const detail = [
    `service runs: ${describe(serviceRuns)}`,
    `bare runs:    ${describe(bareRuns)}`,
    `throughput ${Math.round(serviceRps)} against ${Math.round(bareRps)} req/s: ${(serviceRps / bareRps).toFixed(2)}× bare (target ≥ 0.8×); p99 ${serviceP99} against ${bareP99} ms`,
    `server CPU per request ${serviceCpu.toFixed(3)} against ${bareCpu.toFixed(3)} ms: ${(serviceCpu / bareCpu).toFixed(2)}× bare`,
    // Each young-generation pause stalls every request in flight: it is what the p99 mostly is.
    `young-generation pause ${servicePause.toFixed(1)} against ${barePause.toFixed(1)} ms (median of the runs' means)`,
  ];
  const load_ = `${LOAD_CONNECTIONS} connections, ${LOAD_ROUNDS} × ${LOAD_SECONDS} s per side`;
  return [
    {
      title: `${title}, throughput (${load_}): bare req/s ÷ service req/s`,
      baseline: measuredRuns('bare node:http + postgres.js, same queries and JSON (latency p50/p90)', bareRuns),
      subject: measuredRuns('local host with a real token (latency p50/p90)', serviceRuns),
      ratio: bareRps / serviceRps,
      target: 1.25,
      detail,
    },
    {
      title: `${title}, p99 latency (${load_}): service p99 ÷ bare p99`,
      baseline: measuredRuns('bare server', bareRuns),
      subject: measuredRuns('local host', serviceRuns),
      ratio: serviceP99 / Math.max(bareP99, 1),
      target: 1.5,
    },
    {
      // What a loaded machine leaves meaningful: the CPU each side spends per answer does not
      // depend on how long the process waited for a core.
      title: `${title}, server CPU time per request (${load_}): service ÷ bare`,
      baseline: { name: 'bare server (CPU ms per request as the median)', medianMs: bareCpu, p90Ms: bareCpu, samples: bareRuns.length },
      subject: {
        name: 'local host (CPU ms per request as the median)',
        medianMs: serviceCpu,
        p90Ms: serviceCpu,
        samples: serviceRuns.length,
      },
      ratio: serviceCpu / bareCpu,
    },
  ];
}

/** A global challenge with PARTICIPANTS participations, 70 % shared globally; USER ranks on the first page. */
async function seedBoard(sql: Sql): Promise<string> {
  const challenge = await benchChallenge(sql, { title: 'Bench request path', defaultVisibility: 'global' });
  await sql`
    insert into challenge_participation (challenge_id, user_id, rules, reward_xp, deadline_at, score, score_reached_at, share_within_club, share_globally)
    select ${challenge.id}, case when n = 31 then ${USER} else 'path-user-' || n end, '{"goal":{"metric":"shots","target":1000}}', 500,
           now() + interval '30 days', (n * 7919) % 501, timestamp '2026-01-01' + make_interval(secs => n), false, n % 20 < 14
    from generate_series(1, ${PARTICIPANTS}) as n`;
  await sql`vacuum analyze challenge_participation`;
  return challenge.id;
}

/**
 * The whole request path under concurrent load, measured from outside with autocannon: the inbox
 * first page (limit 50, 1,000 entries) and a leaderboard's first page (limit 20, 100,000
 * participations, the viewer on that page) through the local host against a bare server running
 * the same queries (bench/requestPath/server.ts). BENCH_REQUEST_LOAD_SECONDS and BENCH_REQUEST_LOAD_ROUNDS
 * lengthen the runs; BENCH_CPU_PROF=<dir> writes a CPU profile of each side there
 * (BENCH_HOST_PROFILE=<dir> of the host only).
 */
export default async function requestPath({ sql, url }: BenchContext): Promise<Comparison[]> {
  await seedInbox(sql, USER, INBOX_ENTRIES);
  await sql`vacuum analyze notification`;
  const challengeId = await seedBoard(sql);
  // As the member app sends them: the token and the language it shows (texts are in the reader's language).
  const headers = { ...(await bearer(USER, { expiresIn: '2h' })), 'accept-language': 'de' };
  const host = await startServer('host', url);
  const bare = await startServer('bare', url);
  try {
    const inbox = await compareRoute(
      `Inbox first page (limit 50, ${INBOX_ENTRIES.toLocaleString('en')} entries) through the local host`,
      { server: host, url: `${host.url}/api/notifications?limit=50`, headers },
      { server: bare, url: `${bare.url}/inbox?user=${USER}` },
    );
    const board = await compareRoute(
      `Leaderboard first page (limit 20, ${PARTICIPANTS.toLocaleString('en')} participations) through the local host`,
      { server: host, url: `${host.url}/api/challenges/${challengeId}/leaderboard?scope=global&limit=20`, headers },
      { server: bare, url: `${bare.url}/leaderboard?challenge=${challengeId}&user=${USER}` },
    );
    return [...inbox, ...board];
  } finally {
    await Promise.all([host.stop(), bare.stop()]);
  }
}
