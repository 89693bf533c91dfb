import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { connect } from '../../shared/db/client';
import { migrate } from '../../shared/db/migrate';
import { applyIngestBatch, type ApplyOptions } from '../../shared/ingest/apply';
import { sampleHitMessage } from '../ingest/sampleHits';
import { prepareLocalEnvironment } from '../local/environment';
import { createScratchDatabase } from '../local/scratchDatabase';

/**
 * `npx tsx development/scale/hitStorage.ts [hits] [clubs]`: the bytes the database spends per
 * million hits, for docs/capacity.md. Sends `hits` (default 200,000) hit events of `clubs` clubs
 * (default 100, 40 shooters each) through the apply core in batches of 500 into a fresh database
 * on the local server, then reads the size of club_data_hit's partitions with their indexes and
 * TOAST. The database is dropped afterwards.
 */
const BATCH = 500;

async function main(): Promise<void> {
  const hits = Number(process.argv[2] ?? 200_000);
  const clubs = Number(process.argv[3] ?? 100);
  const environment = await prepareLocalEnvironment({ storage: false });
  const database = await createScratchDatabase(environment.database.url, `hitsize_${randomBytes(3).toString('hex')}`);
  const sql = connect({ url: database.url, max: 2 });
  try {
    await migrate(sql);
    const options: ApplyOptions = {
      runner: { id: 'event:hit-storage', kind: 'event' },
      statusEnabled: false,
      thresholds: { rejectingThreshold: 2, quarantineThreshold: 5, windowSeconds: 300, driftQuietSeconds: 900 },
      rejectLogMax: 1000,
    };
    const perClub = Math.ceil(hits / clubs);
    const started = performance.now();
    for (let club = 0; club < clubs; club += 1) {
      const number = String(100_000 + club);
      const messages = Array.from({ length: perClub }, (_, index) => sampleHitMessage(number, index, Date.now() - index * 20_000));
      for (let start = 0; start < messages.length; start += BATCH)
        await applyIngestBatch(sql, messages.slice(start, start + BATCH), options);
    }
    const seconds = (performance.now() - started) / 1000;
    await sql`vacuum analyze club_data_hit`;
    const [size] = await sql<{ rows: number; heap: number; indexes: number; total: number }[]>`
      select sum(c.reltuples)::float8 as rows,
             sum(pg_relation_size(c.oid) + coalesce(pg_relation_size(c.reltoastrelid), 0))::float8 as heap,
             sum(pg_indexes_size(c.oid))::float8 as indexes,
             sum(pg_total_relation_size(c.oid))::float8 as total
      from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'club_data_hit'::regclass`;
    const rows = size?.rows ?? 0;
    const perMillion = (bytes: number) => ((bytes / rows) * 1_000_000) / 2 ** 20;
    console.log(`${rows} hits of ${clubs} clubs applied in ${seconds.toFixed(1)} s (${Math.round(rows / seconds)} hits/s, one connection)`);
    console.log(
      `per million hits: heap ${perMillion(size?.heap ?? 0).toFixed(0)} MiB, indexes ${perMillion(size?.indexes ?? 0).toFixed(0)} MiB, total ${perMillion(size?.total ?? 0).toFixed(0)} MiB (${((size?.total ?? 0) / rows).toFixed(0)} bytes per hit)`,
    );
  } finally {
    await database.drop(sql);
    await environment.release();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
