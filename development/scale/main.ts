import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { EventHubProducerClient } from '@azure/event-hubs';
import postgres from 'postgres';
import { getSettings } from '../../shared/config/settings';
import { connect } from '../../shared/db/client';
import { prepareLocalEnvironment } from '../local/environment';
import { startIpcChild } from '../local/ipcChild';
import { signLocalToken } from '../local/localToken';
import { quoteIdentifier } from '../local/scratchDatabase';
import { formatReport, type LagSample, type ScaleFigures } from './figures';
import { activeClubCount } from './hitRows';
import { parseScaleOptions, scaleDatabaseName } from './options';
import { preload, TRACKED_CLUBS } from './preload';
import { probeUntil } from './probes';
import { bytesPerMillion, freshnessTimes, inboxFirstPage, leaderboardFirstPage } from './quietFigures';
import { measureRetentionDrop, type RetentionFigure } from './retentionDrop';
import { sampleActivity } from './dbActivity';
import { drainQueue } from './drainQueue';

/**
 * `npm run scale [-- --hits N --rate R --seconds S --partitions P --reuse --only preload|quiet|live --drop]`: the federation
 * run (docs/benchmarks.md, "Federation run"). Preloads (or with --reuse keeps) a year at a tenth of
 * the federation, reads the quiet figures, then runs the hub, the service and the sender in three
 * processes of their own while this one samples the apply lag, probes send-to-board latency and
 * drops the oldest month halfway through. Prints the figures and a markdown block.
 */
const HUB = 'club-data';
const SAMPLE_MS = 5000;

/** SCALE_PROFILE=<dir> writes a V8 CPU profile of the hub's and the service's process there. */
const profiled = (name: string) => {
  const dir = process.env['SCALE_PROFILE'];
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(dir, name)}`] : [];
};

async function main(): Promise<void> {
  const options = parseScaleOptions(process.argv.slice(2));
  const log = (line: string) => console.log(`[scale ${new Date().toISOString().slice(11, 19)}] ${line}`);
  const loadBefore = os.loadavg();
  const environment = await prepareLocalEnvironment({ storage: false });
  const name = scaleDatabaseName(options);
  const shape = { hits: options.hits, catalogClubs: options.catalogClubs, shootersPerClub: options.shootersPerClub };
  const children: { stop(): Promise<void> }[] = [];
  try {
    log(`preloading ${options.hits.toLocaleString('en')} hits into ${name}${options.reuse ? ' (--reuse: kept when already there)' : ''}`);
    const preloadStarted = performance.now();
    const preloaded = await preload(
      environment.database.url,
      name,
      shape,
      { reuse: options.reuse, asIs: options.only !== null && options.only !== 'preload' },
      log,
    );
    log(`preload ${preloaded.reused ? 'reused' : 'done'} in ${((performance.now() - preloadStarted) / 1000).toFixed(0)} s`);
    if (options.only === 'preload') {
      if (preloaded.rowsPerSecond) log(`hits loaded at ${preloaded.rowsPerSecond.toLocaleString('en')} rows/s (indexes included)`);
      return;
    }

    const sql = connect({ url: preloaded.url, max: 2 });
    const probeSql = connect({ url: preloaded.url, max: 1 });
    const bytes = await bytesPerMillion(sql);
    log(`${bytes.rows.toLocaleString('en')} hits in ${bytes.partitions} partitions: ${bytes.totalMiB.toFixed(0)} MiB per million`);
    async function quietFigures() {
      const freshnessMs = await freshnessTimes(sql);
      log(`freshness check: median ${[...freshnessMs].sort((a, b) => a - b)[freshnessMs.length >> 1]?.toFixed(0)} ms`);
      const leaderboard = await leaderboardFirstPage(sql, preloaded.globalChallengeId);
      const unprepared = postgres(preloaded.url, { max: 1, prepare: false, onnotice: () => undefined });
      const inbox = await inboxFirstPage(sql, unprepared, preloaded.inboxUserId).finally(() => unprepared.end());
      log(
        `first pages: leaderboard ${(leaderboard.subjectMs / leaderboard.baselineMs).toFixed(2)}× (${leaderboard.subjectMs.toFixed(2)} / ${leaderboard.baselineMs.toFixed(2)} ms), ` +
          `inbox ${(inbox.subjectMs / inbox.baselineMs).toFixed(2)}× (${inbox.subjectMs.toFixed(2)} / ${inbox.baselineMs.toFixed(2)} ms)`,
      );
      return { freshnessMs, leaderboard, inbox };
    }
    const quiet = options.only === 'live' ? undefined : await quietFigures();
    if (options.only === 'quiet') {
      await sql.end();
      await probeSql.end();
      return;
    }

    const keep = Math.ceil(((options.rate * (options.seconds + 10)) / options.partitions) * 1.5) + 10_000;
    const hub = await startIpcChild<string>(path.join(__dirname, 'hubProcess.ts'), {
      readyField: 'connectionString',
      label: 'scale hub',
      args: [HUB, String(options.partitions), String(keep)],
      nodeArgs: ['--max-old-space-size=8192', ...profiled('hub')],
    });
    children.push(hub);
    const service = await startIpcChild<string>(path.join(__dirname, 'serviceProcess.ts'), {
      readyField: 'url',
      label: 'scale service',
      nodeArgs: profiled('service'),
      env: {
        ...process.env,
        DATABASE_URL: preloaded.url,
        INGEST_EVENTHUB_CONNECTION: hub.ready,
        INGEST_EVENTHUB_NAME: HUB,
        INGEST_EVENTHUB_CONSUMER_GROUP: '$Default',
        SVC_INGEST_STATUS_ENABLED: 'true',
        WEBSITE_INSTANCE_ID: 'scale-service',
        LOG_LEVEL: 'error',
      },
    });
    children.push(service);
    // Record ids of this run: above every earlier run's and the preload's.
    const firstRecord = (Math.floor(Date.now() / 1000) - 1_750_000_000) * 10_000_000;
    const sender = await startIpcChild<boolean>(path.join(__dirname, 'senderProcess.ts'), {
      readyField: 'ready',
      label: 'scale sender',
      args: [
        hub.ready,
        HUB,
        String(options.rate),
        String(options.seconds),
        String(activeClubCount(shape)),
        String(options.shootersPerClub),
        String(options.partitions),
        TRACKED_CLUBS.join(','),
        String(firstRecord),
      ],
    });
    children.push(sender);
    const producer = new EventHubProducerClient(hub.ready, HUB);
    children.push({ stop: () => producer.close() });
    const settings = getSettings();
    const tracked = await Promise.all(
      preloaded.tracked.map(async (member) => ({ ...member, token: await signLocalToken(settings, member.userId) })),
    );

    const partitionIds = Array.from({ length: options.partitions }, (_, index) => String(index));
    const samples: LagSample[] = [];
    const started = performance.now();
    const sample = async () => {
      const properties = await Promise.all(partitionIds.map((id) => producer.getPartitionProperties(id)));
      const progress = await service.ask<{ applied: Record<string, number> }>('progress', 'progress');
      const sent = properties.reduce((sum, p) => sum + (p.isEmpty ? 0 : p.lastEnqueuedSequenceNumber + 1), 0);
      const applied = partitionIds.reduce((sum, id) => sum + (progress.applied[id] ?? -1) + 1, 0);
      const drain = await drainQueue(probeSql);
      const at = { atSeconds: (performance.now() - started) / 1000, sent, applied, drain };
      samples.push(at);
      log(
        `${at.atSeconds.toFixed(0)} s: sent ${sent.toLocaleString('en')}, applied ${applied.toLocaleString('en')}, behind ${(sent - applied).toLocaleString('en')}; ` +
          `drain queue ${drain.queued.toLocaleString('en')} shooters, longest waiting ${drain.oldestSeconds.toFixed(1)} s`,
      );
      return at;
    };
    // A queue an earlier run left behind would put every probe behind its backlog: the live run
    // starts from an empty queue (what those shooters' boards miss, the next sweep evaluates).
    const leftOver = await sql`delete from challenge_progress_touched`;
    if (leftOver.count > 0) log(`emptied the progress queue: ${leftOver.count.toLocaleString('en')} shooters left by an earlier run`);
    log(`sending ${options.rate} events/s for ${options.seconds} s over ${options.partitions} partitions; service at ${service.ready}`);
    await sample();
    const done = sender.ask<{ sent: number; seconds: number }>('go', 'done');
    const deadline = started + options.seconds * 1000;
    let sendDone = false;
    void done.then(() => (sendDone = true));
    // Samples through the send window, then until every sent event is applied or the drain time is up.
    const sampling = (async (): Promise<number | null> => {
      for (;;) {
        const toDeadline = deadline + 50 - performance.now();
        await new Promise((resolve) => setTimeout(resolve, toDeadline > 0 ? Math.min(SAMPLE_MS, toDeadline) : SAMPLE_MS));
        const last = await sample();
        if (!sendDone) continue;
        const after = last.atSeconds - options.seconds;
        if (last.applied >= last.sent) return Math.max(0, after);
        if (after > options.drainSeconds) return null;
      }
    })();
    const activity = sampleActivity(probeSql, sampling);
    const probing = probeUntil(deadline, tracked, {
      baseUrl: service.ready,
      producer,
      partitions: options.partitions,
      shooterIndex: options.shootersPerClub - 1,
      firstRecord: firstRecord + 5_000_000,
    });
    const retention = new Promise<RetentionFigure>((resolve, reject) =>
      setTimeout(
        () => {
          log('dropping the oldest month while ingest runs');
          measureRetentionDrop(sql, probeSql).then((figure) => {
            log(
              `retention drop of ${figure.partition}: ${figure.dropMs.toFixed(0)} ms${figure.skipped ? ' (skipped)' : ''}, slowest insert beside it ${figure.insertWaitMs.toFixed(1)} ms`,
            );
            resolve(figure);
          }, reject);
        },
        (options.seconds * 1000) / 2,
      ),
    );
    const sent = await done;
    log(`sender done: ${sent.sent.toLocaleString('en')} events in ${sent.seconds.toFixed(1)} s`);
    const [drainedAfterSeconds, probes, activityShares] = await Promise.all([sampling, probing, activity]);
    const retentionFigure = await retention;
    const finalBytes = await bytesPerMillion(sql);
    await sql.end();
    await probeSql.end();

    const figures: ScaleFigures = {
      command: `npm run scale -- ${process.argv.slice(2).join(' ')}`.trim(),
      date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
      machine: `${os.cpus().length} cores, load average ${loadBefore.map((l) => l.toFixed(1)).join(' / ')} before, ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' / ')} after; PostgreSQL at ${new URL(environment.database.url).host}`,
      preload: {
        hits: Math.round(bytes.rows),
        partitions: bytes.partitions,
        seconds: preloaded.hitSeconds,
        rowsPerSecond: preloaded.rowsPerSecond,
        reused: preloaded.reused,
      },
      catalogClubs: options.catalogClubs,
      members: activeClubCount(shape) * options.shootersPerClub,
      rate: options.rate,
      seconds: options.seconds,
      partitions: options.partitions,
      samples,
      drainedAfterSeconds,
      latenciesMs: probes.latenciesMs,
      probesUnseen: probes.unseen,
      freshnessMs: quiet?.freshnessMs ?? [],
      leaderboard: quiet?.leaderboard ?? { subjectMs: Number.NaN, baselineMs: Number.NaN },
      inbox: quiet?.inbox ?? { subjectMs: Number.NaN, baselineMs: Number.NaN },
      retention: retentionFigure,
      bytesPerMillion: bytes,
      activity: activityShares,
    };
    log(`after the run: ${finalBytes.rows.toLocaleString('en')} hits in ${finalBytes.partitions} partitions`);
    console.log('\n' + formatReport(figures) + '\n');
    if (options.drop) {
      const admin = postgres(environment.database.url, { max: 1, onnotice: () => undefined });
      await admin.unsafe(`drop database if exists ${quoteIdentifier(name)} with (force)`);
      await admin.end();
    }
  } finally {
    for (const child of children.reverse()) await child.stop().catch(() => undefined);
    await environment.release();
  }
}

main().catch((error: unknown) => {
  console.error(`Scale run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
