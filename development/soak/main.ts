import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeSql } from '../../shared/db/client';
import { migrate } from '../../shared/db/migrate';
import { createFakeTls } from '../costsFake/certificate';
import { createScratchDatabase, type ScratchDatabase } from '../local/scratchDatabase';
import { prepareLocalEnvironment } from '../local/environment';
import { formatFigures } from './stats';
import { runSoak, type PhaseResult } from './soak';

/**
 * `npm run soak -- --seconds N [--flood-seconds M] [--concurrency C] [--reports R] [--clubs K]`:
 * mixed traffic (inbox reads, settings writes, box reports, ingest batches through the local hub,
 * cost dashboard loads against the fake provider) against the local host for N seconds; then,
 * unless --flood-seconds 0, one box sends R concurrent reports of K clubs for M seconds while user
 * routes are measured, first with the per-box limit and the bulk pool off, then on. Runs on a
 * throw-away database on the local PostgreSQL server (DATABASE_URL or the embedded one).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '60' },
      'flood-seconds': { type: 'string', default: '20' },
      concurrency: { type: 'string', default: '8' },
      reports: { type: 'string', default: '40' },
      clubs: { type: 'string', default: '10000' },
    },
  });
  const number = (name: keyof typeof values) => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`);
    return value;
  };
  const environment = await prepareLocalEnvironment({ storage: true });
  const serverUrl = new URL(process.env['DATABASE_URL'] ?? '');
  let database: ScratchDatabase | undefined;
  try {
    database = await createScratchDatabase(serverUrl.toString(), `soak_${Date.now().toString(36)}`, migrate);
    const tls = await createFakeTls(mkdtempSync(path.join(os.tmpdir(), 'soak-tls-')));
    const floodSeconds = number('flood-seconds');
    const result = await runSoak({
      databaseUrl: database.url,
      storageConnection: process.env['AzureWebJobsStorage'] ?? '',
      caFile: tls.caFile,
      seconds: number('seconds'),
      concurrency: number('concurrency'),
      ...(floodSeconds > 0
        ? { flood: { seconds: floodSeconds, reports: number('reports'), clubsPerReport: number('clubs'), userConcurrency: 4 } }
        : {}),
      progress: (line) => console.log(line),
    });
    const show = (phase: PhaseResult) => {
      console.log(`\n== ${phase.name} (${phase.seconds} s) ==`);
      console.log(formatFigures(phase.figures));
      const { start, end } = phase.memory;
      console.log(`host memory: rss ${start.rssMb} -> ${end.rssMb} MB, heap used ${start.heapUsedMb} -> ${end.heapUsedMb} MB`);
    };
    show(result.mixed);
    console.log(`ingest: ${result.ingest.applied} of ${result.ingest.evenings} evenings applied completely`);
    if (result.flood) {
      show(result.flood.unlimited);
      show(result.flood.limited);
      const { userP99UnlimitedMs: off, userP99LimitedMs: on } = result.flood;
      console.log(
        `\nuser routes p99 while a box floods: limits off ${off} ms, limits on ${on} ms (ratio ${(off / Math.max(on, 0.1)).toFixed(1)})`,
      );
    }
  } finally {
    await database?.drop().catch(() => undefined);
    await closeSql();
    await environment.release();
  }
}

main().catch((error: unknown) => {
  console.error(`Soak failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
