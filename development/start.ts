import path from 'node:path';
import { functionDefinitions } from '../functions/definitions';
import { closeSql, getSql } from '../shared/db/client';
import { migrate } from '../shared/db/migrate';
import { getSettings } from '../shared/config/settings';
import { startDevHost, type DevHost } from './devhost/host';
import { readEventHubTriggerSettings } from './devhost/hostJson';
import { startLocalEmailFake } from './acsEmailFake/local';
import type { FakeAcsEmail } from './acsEmailFake/server';
import { hubsTheAppReads } from './local/eventHubs/appHubs';
import { ensureLocalEventHubs, type RunningEventHubs } from './local/eventHubs/developmentHub';
import { prepareLocalEnvironment } from './local/environment';
import { repoRoot } from './local/paths';
import { stopOnSignals } from '../shared/process/signals';
import { secretValues, startTelemetry, stopTelemetry } from '../shared/telemetry/startup';
import { leaveSignalsToCommand } from './local/embeddedPostgres';

/**
 * `npm start`: settings from local.settings(.sample).json, PostgreSQL (DATABASE_URL or embedded),
 * Azurite, migrations, the local Event Hubs endpoint when INGEST_EVENTHUB_CONNECTION is the
 * development connection string, then the local host on 127.0.0.1:PORT, feeding the eventHub
 * functions from their hubs. Ctrl-C stops all of it.
 */
async function main(): Promise<void> {
  const environment = await prepareLocalEnvironment({ storage: true });
  let eventHubs: RunningEventHubs | undefined;
  let emailFake: FakeAcsEmail | undefined;
  const shutdown = async () => {
    await stopTelemetry();
    await emailFake?.close();
    await eventHubs?.release();
    await closeSql();
    await environment.release();
  };
  let host: DevHost;
  try {
    const migrations = await migrate(getSql());
    emailFake = await startLocalEmailFake();
    const settings = getSettings();
    // As the deployed app does, with the connection string set (docs/observability.md).
    const telemetry = await startTelemetry({
      connectionString: settings.APPLICATIONINSIGHTS_CONNECTION_STRING,
      secrets: secretValues(settings),
      serviceName: 'shooting-club-backend',
      onError: (error) => console.error(`Telemetry did not start: ${error instanceof Error ? error.message : String(error)}`),
    });
    const setting = (name: string) => process.env[name];
    eventHubs = await ensureLocalEventHubs(settings.INGEST_EVENTHUB_CONNECTION, hubsTheAppReads(settings, setting));
    // The hub may have moved to a free port: the functions' connection setting follows it.
    if (eventHubs) process.env['INGEST_EVENTHUB_CONNECTION'] = eventHubs.connectionString;
    // The admin portal's files, fresh from portal/src (the app serves dist/portal; docs/portal.md).
    const { buildPortal } = await import('../portal/build.mjs');
    await buildPortal({ outdir: path.join(repoRoot, 'dist', 'portal') });
    const port = settings.PORT;
    host = await startDevHost(functionDefinitions, {
      port,
      log: environment.log,
      setting,
      eventHubTriggers: readEventHubTriggerSettings(path.join(repoRoot, 'host.json')),
    }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      throw new Error(`port ${port} is already in use (EADDRINUSE); set PORT to a free port, e.g. PORT=${port + 10} npm start`);
    });
    console.log(`Settings:  ${environment.settingsFile}`);
    console.log(`Database:  ${environment.database.description} (${migrations.applied.length} migration(s) applied)`);
    console.log(`Storage:   ${environment.storage?.description}`);
    if (eventHubs) {
      console.log(`Events:    ${eventHubs.description}`);
      console.log(`           INGEST_EVENTHUB_CONNECTION=${eventHubs.connectionString}`);
    }
    if (emailFake)
      console.log(`Email:     local Communication Services fake on ${emailFake.endpoint} (npm run emails lists what was sent)`);
    if (host.eventHubFeeds.length) console.log(`Triggers:  ${host.eventHubFeeds.join(', ')}`);
    if (telemetry) console.log(`Telemetry: OpenTelemetry to ${ingestionEndpointOf(settings.APPLICATIONINSIGHTS_CONNECTION_STRING)}`);
    console.log(`Functions: ${functionDefinitions.map((d) => `${d.name} [${d.kind}]`).join(', ')}`);
    console.log(`Listening: ${host.url}  (try ${host.url}/healthz)`);
    console.log(`Portal:    ${host.url}/portal/  (sign in with a token from npm run token)`);
  } catch (error) {
    // Whatever this run started (embedded PostgreSQL, Azurite) must not outlive a failed start.
    await shutdown();
    throw error;
  }
  leaveSignalsToCommand();
  stopOnSignals(async () => {
    await host.close();
    await shutdown();
  });
}

main().catch((error: unknown) => {
  console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

/** Where telemetry goes, without the instrumentation key. */
function ingestionEndpointOf(connectionString: string | undefined): string {
  return /IngestionEndpoint=([^;]+)/i.exec(connectionString ?? '')?.[1] ?? 'Application Insights (the connection string names no endpoint)';
}
