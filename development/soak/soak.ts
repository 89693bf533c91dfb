import { startIpcChild } from '../local/ipcChild';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { EventHubProducerClient } from '@azure/event-hubs';
import postgres from 'postgres';
import { createEdgeToken } from '../../shared/clubMaster/edgeTokens';
import { getSettings } from '../../shared/config/settings';
import { readFakeTls } from '../costsFake/certificate';
import { demoDataset } from '../costsFake/demoData';
import { startFakeCostProvider } from '../costsFake/server';
import { trainingEvening } from '../ingest/debeziumEvents';
import { sendChangeEvents } from '../ingest/sendChangeEvents';
import { startLocalEventHubs } from '../local/eventHubs/localEventHubs';
import { signLocalToken } from '../local/localToken';
import { repoRoot } from '../local/paths';
import { createRecorder, type Recorder, type RouteFigures } from './stats';

export interface SoakOptions {
  /** A migrated database the soak may write to (boxes, users' inboxes and settings, ingested rows). */
  databaseUrl: string;
  /** AzureWebJobsStorage of the host (health only). */
  storageConnection: string;
  /** CA file of the fake cost provider's certificate (development/costsFake/certificate.ts). */
  caFile: string;
  /** Length of the mixed-traffic phase. */
  seconds: number;
  /** Callers running at once in the mixed phase. */
  concurrency?: number;
  /** The flood phases: one box sends `reports` concurrent reports of `clubsPerReport` clubs. */
  flood?: { seconds: number; reports: number; clubsPerReport: number; userConcurrency: number };
  progress?: (line: string) => void;
}

export interface Memory {
  rssMb: number;
  heapUsedMb: number;
}

export interface PhaseResult {
  name: string;
  seconds: number;
  figures: RouteFigures[];
  memory: { start: Memory; end: Memory };
}

export interface SoakResult {
  mixed: PhaseResult;
  ingest: { evenings: number; applied: number };
  flood?: { unlimited: PhaseResult; limited: PhaseResult; userP99UnlimitedMs: number; userP99LimitedMs: number };
}

/** Settings that switch the per-box report limit and the separate bulk pool off (the behaviour before them). */
export const LIMITS_OFF = {
  DATABASE_BULK_POOL_MAX: '0',
  CLUB_MASTER_SYNC_RUNNING_PER_BOX: '64',
  CLUB_MASTER_SYNC_WAITING_PER_BOX: '10000',
};

const HUB = 'club-data';
/** The combined figures of the user routes (inbox and settings). */
export const USER_ROUTES = 'user routes (inbox + settings)';

interface SoakHost {
  url: string;
  memory(): Promise<Memory>;
  stop(): Promise<void>;
}

/**
 * Starts development/soak/host.ts as a child process with `env`; resolves once it listens.
 * SOAK_HOST_PROFILE=<dir> writes a CPU profile of each phase's host there.
 */
async function startHost(env: NodeJS.ProcessEnv): Promise<SoakHost> {
  const profile = process.env['SOAK_HOST_PROFILE'];
  const profiling = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child = await startIpcChild<string>(path.join(repoRoot, 'development/soak/host.ts'), {
    readyField: 'url',
    label: 'soak host',
    nodeArgs: [...profiling, '--expose-gc'],
    cwd: repoRoot,
    env,
  });
  const toMb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
  return {
    url: child.ready,
    memory: async () => {
      const memory = await child.ask<NodeJS.MemoryUsage>('memory', 'memory');
      return { rssMb: toMb(memory.rss), heapUsedMb: toMb(memory.heapUsed) };
    },
    stop: child.stop,
  };
}

/** Calls and records the answer's status and latency under each of `routes`. */
async function timed(recorder: Recorder, routes: string | string[], call: () => Promise<Response>): Promise<Response | undefined> {
  const started = performance.now();
  const record = (status: number, retryAfter = false) => {
    for (const route of [routes].flat()) recorder.record(route, status, performance.now() - started, retryAfter);
  };
  try {
    const response = await call();
    await response.arrayBuffer();
    record(response.status, response.headers.has('retry-after'));
    return response;
  } catch {
    record(0);
    return undefined;
  }
}

/** Runs `worker` `count` times in parallel until `deadline`. */
async function loop(count: number, deadline: number, worker: (index: number, round: number) => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      for (let round = 0; performance.now() < deadline; round += 1) await worker(index, round);
    }),
  );
}

const clubList = (tag: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({ vereinsId: `${tag}-${i}`, name: `Soak club ${tag} ${i}` }));

/**
 * Mixed traffic against the local host for `seconds`, then (with `flood`) one box flooding
 * reports while user routes are measured, once with the per-box limit and bulk pool off and
 * once with them on. Every phase runs its own host process; its memory is read at start and end.
 */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const progress = options.progress ?? (() => undefined);
  const settings = getSettings();
  const sql = postgres(options.databaseUrl, { max: 2, onnotice: () => undefined });
  const hub = await startLocalEventHubs({ port: 0, eventHubs: { [HUB]: { partitionCount: 2, consumerGroups: ['$Default'] } } });
  const { cert, key } = readFakeTls(options.caFile);
  const costSecret = randomBytes(18).toString('base64url');
  const fake = await startFakeCostProvider({
    tls: { cert, key },
    dataset: demoDataset(),
    tenantId: 'soak-tenant',
    clientId: 'soak-client',
    clientSecret: costSecret,
    subscriptionId: '00000000-0000-0000-0000-000000000000',
  });
  const producer = new EventHubProducerClient(hub.connectionString(), HUB);
  const baseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: options.databaseUrl,
    AzureWebJobsStorage: options.storageConnection,
    INGEST_EVENTHUB_CONNECTION: hub.connectionString(),
    INGEST_EVENTHUB_NAME: HUB,
    INGEST_EVENTHUB_CONSUMER_GROUP: '$Default',
    INTERNAL_CLOUD_COST_TENANT_ID: 'soak-tenant',
    INTERNAL_CLOUD_COST_CLIENT_ID: 'soak-client',
    INTERNAL_CLOUD_COST_CLIENT_SECRET: costSecret,
    INTERNAL_CLOUD_COST_SUBSCRIPTION_ID: '00000000-0000-0000-0000-000000000000',
    INTERNAL_CLOUD_COST_AUTH_URL: fake.authUrl,
    INTERNAL_CLOUD_COST_API_URL: fake.apiUrl,
    NODE_EXTRA_CA_CERTS: options.caFile,
    LOG_LEVEL: 'error',
  };

  const mint = (sub: string, roles: string[] = []) => signLocalToken(settings, sub, { roles });
  const run = randomBytes(3).toString('hex');
  const users = await Promise.all(Array.from({ length: 20 }, (_, i) => mint(`soak-${run}-user-${i}`)));
  const admin = await mint(`soak-${run}-admin`, ['platform_admin']);
  const newBox = async () => {
    const clubId = randomUUID();
    await sql`insert into club (id, name, status) values (${clubId}, ${`Soak box ${clubId.slice(0, 8)}`}, 'active')`;
    return (await createEdgeToken(sql, clubId)).token;
  };
  const boxes = [await newBox(), await newBox(), await newBox()];
  const zones = ['Europe/Berlin', 'Europe/Vienna', 'UTC'];

  const phase = async (
    name: string,
    seconds: number,
    env: NodeJS.ProcessEnv,
    drive: (host: SoakHost, recorder: Recorder, deadline: number) => Promise<void>,
  ) => {
    const host = await startHost(env);
    try {
      // One request first, so the start figure is the memory of a host that has served.
      await fetch(`${host.url}/healthz`).then((response) => response.arrayBuffer());
      const start = await host.memory();
      const recorder = createRecorder();
      progress(`${name}: ${seconds} s against ${host.url}`);
      await drive(host, recorder, performance.now() + seconds * 1000);
      const end = await host.memory();
      return { name, seconds, figures: recorder.figures(), memory: { start, end } } satisfies PhaseResult;
    } finally {
      await host.stop();
    }
  };

  const userCall = (host: SoakHost, recorder: Recorder, user: number, round: number) => {
    const authorization = `Bearer ${users[user % users.length]}`;
    return round % 3 === 2
      ? timed(recorder, ['PATCH /api/user/settings', USER_ROUTES], () =>
          fetch(`${host.url}/api/user/settings`, {
            method: 'PATCH',
            headers: { authorization, 'content-type': 'application/json' },
            body: JSON.stringify({ timeZone: zones[round % zones.length] }),
          }),
        )
      : timed(recorder, ['GET /api/notifications', USER_ROUTES], () =>
          fetch(`${host.url}/api/notifications`, { headers: { authorization } }),
        );
  };

  const evenings: { club: string; hits: number }[] = [];
  try {
    const mixed = await phase('mixed', options.seconds, baseEnv, async (host, recorder, deadline) => {
      const report = (round: number) => JSON.stringify({ clubs: clubList(`m${round % 5}`, 200) });
      await loop(options.concurrency ?? 8, deadline, async (worker, round) => {
        // Each worker cycles through all ten kinds; their starts are spread (3 apart), so even a
        // short run on a slow machine reaches every kind in its first rounds.
        const kind = (worker * 3 + round) % 10;
        if (kind < 4) return void (await userCall(host, recorder, worker * 7 + round, round));
        if (kind < 6) {
          return void (await timed(recorder, 'POST /api/edge/clubs/sync', () =>
            fetch(`${host.url}/api/edge/clubs/sync`, {
              method: 'POST',
              headers: { authorization: `Bearer ${boxes[round % boxes.length]}`, 'content-type': 'application/json' },
              body: report(round),
            }),
          ));
        }
        if (kind < 8) {
          return void (await timed(recorder, 'GET /api/admin/v1/costs/summary', () =>
            fetch(`${host.url}/api/admin/v1/costs/summary`, { headers: { authorization: `Bearer ${admin}` } }),
          ));
        }
        const club = `9${randomBytes(4).readUInt32BE(0)}`;
        const evening = trainingEvening({ clubId: club, startsAt: new Date('2026-11-20T18:30:00Z'), shooters: 1, seed: round + 1 });
        const started = performance.now();
        try {
          await sendChangeEvents(producer, evening, { headersAsBytes: true });
          evenings.push({ club, hits: evening.filter((change) => change.entity === 'hits' && change.body?.op === 'c').length });
          recorder.record('ingest batch (send to hub)', 200, performance.now() - started);
        } catch {
          recorder.record('ingest batch (send to hub)', 0, performance.now() - started);
        }
      });
      // The feed catches up: every evening sent is applied before the host stops.
      const wanted = new Map(evenings.map((evening) => [evening.club, evening.hits]));
      const catchUp = performance.now() + 60_000;
      while (performance.now() < catchUp) {
        const rows = await sql<{ club: string; n: number }[]>`
          select source_club_id as club, count(*)::int as n from club_data_hit
          where source_club_id = any(${sql.array([...wanted.keys()])}::text[]) group by source_club_id`;
        if (rows.filter((row) => row.n === wanted.get(row.club)).length === wanted.size) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    });
    const rows = await sql<{ club: string; n: number }[]>`
      select source_club_id as club, count(*)::int as n from club_data_hit
      where source_club_id = any(${sql.array(evenings.map((evening) => evening.club))}::text[]) group by source_club_id`;
    const applied = evenings.filter((evening) => rows.some((row) => row.club === evening.club && row.n === evening.hits)).length;
    const result: SoakResult = { mixed, ingest: { evenings: evenings.length, applied } };

    if (options.flood) {
      const flood = options.flood;
      const floodBox = await newBox();
      const body = JSON.stringify({ clubs: clubList(`f${run}`, flood.clubsPerReport) });
      const drive = async (host: SoakHost, recorder: Recorder, deadline: number) => {
        await Promise.all([
          loop(flood.reports, deadline, async () => {
            const response = await timed(recorder, 'POST /api/edge/clubs/sync (flood)', () =>
              fetch(`${host.url}/api/edge/clubs/sync`, {
                method: 'POST',
                headers: { authorization: `Bearer ${floodBox}`, 'content-type': 'application/json' },
                body,
              }),
            );
            // A box that ignores Retry-After: it sends again after a short pause.
            if (response?.status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
          }),
          loop(flood.userConcurrency, deadline, async (user, round) => void (await userCall(host, recorder, user, round))),
        ]);
      };
      // No ingest feed in the flood phases: a new host would read the hub from the start again
      // (checkpoints are in memory) and replay the mixed phase's events into the measurement.
      const floodEnv = { ...baseEnv, INGEST_EVENTHUB_CONNECTION: '' };
      const unlimited = await phase('flood, limits off', flood.seconds, { ...floodEnv, ...LIMITS_OFF }, drive);
      const limited = await phase('flood, limits on', flood.seconds, floodEnv, drive);
      result.flood = { unlimited, limited, userP99UnlimitedMs: userP99(unlimited), userP99LimitedMs: userP99(limited) };
    }
    return result;
  } finally {
    await producer.close();
    await fake.close();
    await hub.close();
    await sql.end({ timeout: 5 });
  }
}

/** p99 over every user-route call of a phase. */
function userP99(result: PhaseResult): number {
  return result.figures.find((figure) => figure.route === USER_ROUTES)?.p99Ms ?? 0;
}
