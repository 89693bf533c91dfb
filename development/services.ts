import { getSettings } from '../shared/config/settings';
import { closeSql, getSql } from '../shared/db/client';
import { migrate } from '../shared/db/migrate';
import { hubsTheAppReads } from './local/eventHubs/appHubs';
import { ensureLocalEventHubs } from './local/eventHubs/developmentHub';
import { prepareLocalEnvironment } from './local/environment';
import { stopOnSignals } from '../shared/process/signals';
import { exitOnStartupFailure } from '../shared/process/startupFailure';
import { leaveSignalsToCommand } from './local/embeddedPostgres';

/**
 * `npm run services`: only the local backing services (PostgreSQL, Azurite, and the local Event
 * Hubs endpoint when INGEST_EVENTHUB_CONNECTION is the development connection string), migrated
 * and kept running until Ctrl-C, for working with `func start` from the Core Tools: every trigger
 * of the app then has what it reads under the real host.
 */
async function main(): Promise<void> {
  const environment = await prepareLocalEnvironment({ storage: true });
  let eventHubs: Awaited<ReturnType<typeof ensureLocalEventHubs>>;
  try {
    await migrate(getSql());
    await closeSql();
    const settings = getSettings();
    eventHubs = await ensureLocalEventHubs(
      settings.INGEST_EVENTHUB_CONNECTION,
      hubsTheAppReads(settings, (name) => process.env[name]),
    );
  } catch (error) {
    await environment.release();
    throw error;
  }
  console.log(`Database: ${environment.database.description}`);
  console.log(`Storage:  ${environment.storage?.description}`);
  if (eventHubs) console.log(`Events:   ${eventHubs.description}`);
  console.log(`For func start, set in local.settings.json: "DATABASE_URL": "${environment.database.url}"`);
  if (environment.storage && environment.storage.connectionString !== 'UseDevelopmentStorage=true') {
    // Not printed: it carries the instance's account key.
    console.log('and "AzureWebJobsStorage": the connectionString in .data/azurite/instance.json');
  }
  if (eventHubs) console.log(`and "INGEST_EVENTHUB_CONNECTION": "${eventHubs.connectionString}"`);
  console.log('Ctrl-C stops them.');
  leaveSignalsToCommand();
  stopOnSignals(
    () => eventHubs?.release(),
    () => environment.release(),
  );
  setInterval(() => undefined, 1 << 30);
}

main().catch(exitOnStartupFailure);
