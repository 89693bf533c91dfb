import { readdirSync } from 'node:fs';
import path from 'node:path';
import { createBenchDatabase, type BenchContext } from './context';
import { formatComparison, type Comparison } from './harness';
import { prepareLocalEnvironment } from '../development/local/environment';
import { trustedLocalTls } from '../development/pushFakes/local';

/**
 * `npm run bench [-- name-filter]`: runs every bench/*.bench.ts against a fresh database on
 * DATABASE_URL's server (else the embedded one) and prints each figure as a ratio.
 */
async function main(): Promise<void> {
  const filter = process.argv[2];
  // The delivery bench's fakes serve https: this may start the run again with their certificate trusted.
  if (!filter || 'delivery.bench.ts'.includes(filter)) await trustedLocalTls();
  const environment = await prepareLocalEnvironment({ storage: false });
  const database = await createBenchDatabase(environment.database.url);
  const files = readdirSync(__dirname)
    .filter((file) => file.endsWith('.bench.ts'))
    .filter((file) => !filter || file.includes(filter))
    .sort();
  const results: Comparison[] = [];
  try {
    for (const file of files) {
      const bench = (await import(path.join(__dirname, file))) as {
        default: (context: BenchContext) => Promise<Comparison | Comparison[]>;
      };
      const outcome = await bench.default(database.context);
      for (const result of Array.isArray(outcome) ? outcome : [outcome]) {
        results.push(result);
        console.log(formatComparison(result) + '\n');
      }
    }
  } finally {
    await database.drop();
    await environment.release();
  }
  const missed = results.filter((result) => result.failed || (result.target !== undefined && result.ratio > result.target));
  if (missed.length) console.log(`Targets missed: ${missed.map((result) => result.title).join('; ')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
