import { getIngestWorkerSettings, getSettings } from '../shared/config/settings';
import { closeSql, getSql } from '../shared/db/client';
import { migrate } from '../shared/db/migrate';
import { stopOnSignals } from '../shared/process/signals';
import { exitOnStartupFailure } from '../shared/process/startupFailure';
import { leaveSignalsToCommand } from './local/embeddedPostgres';
import { runIngestWorkerFromSettings } from '../workers/ingest/run';
import { effectiveConnectionString, ensureLocalEventHubs, type RunningEventHubs } from './local/eventHubs/developmentHub';
import { prepareLocalEnvironment } from './local/environment';

/**
 * `npm run worker`: the staging ingest worker from source with local defaults: settings from
 * local.settings(.sample).json, PostgreSQL (DATABASE_URL or embedded), Azurite for the
 * checkpoints, migrations, and the hub of this checkout's running `npm start` (or a local hub
 * of its own when none runs) for the development connection string. Ctrl-C stops it as SIGTERM
 * stops the container.
 */
async function main(): Promise<void> {
  const environment = await prepareLocalEnvironment({ storage: true });
  let eventHubs: RunningEventHubs | undefined;
  const shutdown = async () => {
    await closeSql();
    await eventHubs?.release();
    await environment.release();
  };
  try {
    const migrations = await migrate(getSql());
    const configured = process.env['INGEST_EVENTHUB_CONNECTION'];
    const hubOfStart = effectiveConnectionString(configured);
    if (hubOfStart !== configured) {
      process.env['INGEST_EVENTHUB_CONNECTION'] = hubOfStart;
    } else {
      const settings = getSettings();
      const groups = [settings.INGEST_EVENTHUB_CONSUMER_GROUP, settings.INGEST_BACKFILL_CONSUMER_GROUP];
      eventHubs = await ensureLocalEventHubs(configured, { [settings.INGEST_EVENTHUB_NAME]: { consumerGroups: groups } });
      if (eventHubs) process.env['INGEST_EVENTHUB_CONNECTION'] = eventHubs.connectionString;
    }
    const running = await runIngestWorkerFromSettings(getIngestWorkerSettings(), environment.log);
    console.log(`Settings:  ${environment.settingsFile}`);
    console.log(`Database:  ${environment.database.description} (${migrations.applied.length} migration(s) applied)`);
    console.log(`Storage:   ${environment.storage?.description}`);
    console.log(`Events:    ${eventHubs?.description ?? 'the hub of the running npm start'}`);
    console.log(`Ingest worker: ${running.description}`);
    leaveSignalsToCommand();
    stopOnSignals(() => running.stop(), shutdown);
  } catch (error) {
    await shutdown();
    throw error;
  }
}

main().catch(exitOnStartupFailure);
