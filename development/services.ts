import { closeSql, getSql } from '../shared/db/client';
import { migrate } from '../shared/db/migrate';
import { prepareLocalEnvironment } from './local/environment';
import { stopOnSignals } from '../shared/process/signals';
import { leaveSignalsToCommand } from './local/embeddedPostgres';

/**
 * `npm run services`: only the local backing services (PostgreSQL, Azurite), migrated and kept
 * running until Ctrl-C, for working with `func start` from the Core Tools.
 */
async function main(): Promise<void> {
  const environment = await prepareLocalEnvironment({ storage: true });
  await migrate(getSql());
  await closeSql();
  console.log(`Database: ${environment.database.description}`);
  console.log(`Storage:  ${environment.storage?.description}`);
  console.log(`For func start, set in local.settings.json: "DATABASE_URL": "${environment.database.url}"`);
  if (environment.storage && environment.storage.connectionString !== 'UseDevelopmentStorage=true') {
    // Not printed: it carries the instance's account key.
    console.log('and "AzureWebJobsStorage": the connectionString in .data/azurite/instance.json');
  }
  console.log('Ctrl-C stops them.');
  leaveSignalsToCommand();
  stopOnSignals(() => environment.release());
  setInterval(() => undefined, 1 << 30);
}

main().catch((error: unknown) => {
  console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
