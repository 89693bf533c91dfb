import path from 'node:path';
import { functionDefinitions } from '../functions/definitions';
import { closeSql, getSql } from '../shared/db/client';
import { migrate } from '../shared/db/migrate';
import { getSettings } from '../shared/config/settings';
import { startDevHost, type DevHost } from './devhost/host';
import { readEventHubTriggerSettings } from './devhost/hostJson';
import { startLocalEmailFake } from './acsEmailFake/local';
import type { FakeAcsEmail } from './acsEmailFake/server';
import { startLocalOidcProvider } from './oidcProvider/local';
import type { RunningOidcProvider } from './oidcProvider/server';
import { startLocalPushFakes, trustedLocalTls, type LocalPushFakes } from './pushFakes/local';
import { hubsTheAppReads } from './local/eventHubs/appHubs';
import { ensureLocalEventHubs, type RunningEventHubs } from './local/eventHubs/developmentHub';
import { prepareLocalEnvironment } from './local/environment';
import { followLocalPort } from './local/publicBaseUrl';
import { repoRoot } from './local/paths';
import { stopOnSignals } from '../shared/process/signals';
import { exitOnStartupFailure } from '../shared/process/startupFailure';
import { DEMO_CLUB, seedDemo } from './demo/seed';
import { secretValues, startTelemetry, stopTelemetry } from '../shared/telemetry/startup';
import { leaveSignalsToCommand } from './local/embeddedPostgres';
import { assertPinnedNode } from './local/nodeRuntime';
import { buildThenSwap } from './local/siteSwap';

/**
 * `npm start`: settings from local.settings(.sample).json, PostgreSQL (DATABASE_URL or embedded),
 * Azurite, migrations, the local Event Hubs endpoint when INGEST_EVENTHUB_CONNECTION is the
 * development connection string, then the local host on 127.0.0.1:PORT, feeding the eventHub
 * functions from their hubs. Ctrl-C stops all of it.
 */
async function main(): Promise<void> {
  const node = assertPinnedNode();
  // Then: this may start the process again with the push fakes' certificate trusted.
  const tls = await trustedLocalTls();
  const environment = await prepareLocalEnvironment({ storage: true });
  followLocalPort(process.env);
  let eventHubs: RunningEventHubs | undefined;
  let emailFake: FakeAcsEmail | undefined;
  let oidcProvider: RunningOidcProvider | undefined;
  let pushFakes: LocalPushFakes | undefined;
  const shutdown = async () => {
    await oidcProvider?.close();
    await stopTelemetry();
    await emailFake?.close();
    await pushFakes?.close();
    await eventHubs?.release();
    await closeSql();
    await environment.release();
  };
  let host: DevHost;
  try {
    const migrations = await migrate(getSql());
    // The demo club and its users' shots, challenges and boards (docs/clubs.md, "The local demo").
    const demo = await seedDemo(getSql());
    emailFake = await startLocalEmailFake();
    pushFakes = await startLocalPushFakes(tls);
    // Before the host reads its settings: the API verifies the local provider's tokens.
    oidcProvider = await startLocalOidcProvider(getSettings().PORT);
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
    await buildThenSwap(path.join(repoRoot, 'dist', 'portal'), (outdir) => buildPortal({ outdir }));
    // The member app's files, likewise (the app serves dist/app; docs/member-app.md).
    const { buildMemberApp } = await import('../app/build.mjs');
    await buildThenSwap(path.join(repoRoot, 'dist', 'app'), (outdir) => buildMemberApp({ outdir }));
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
    console.log(`Node.js:   ${node} (.nvmrc)`);
    console.log(`Settings:  ${environment.settingsFile}`);
    console.log(`Database:  ${environment.database.description} (${migrations.applied.length} migration(s) applied)`);
    console.log(`Storage:   ${environment.storage?.description}`);
    if (eventHubs) {
      console.log(`Events:    ${eventHubs.description}`);
      console.log(`           INGEST_EVENTHUB_CONNECTION=${eventHubs.connectionString}`);
    }
    if (emailFake)
      console.log(`Email:     local Communication Services fake on ${emailFake.endpoint} (npm run emails lists what was sent)`);
    if (pushFakes.hub) console.log(`Push:      local Notification Hubs fake on ${pushFakes.hub.endpoint} (hub ${pushFakes.hub.hubName})`);
    if (pushFakes.webPush)
      console.log(`           local Web Push service fake on ${pushFakes.webPush.origin} (npm run pushes lists what was sent)`);
    if (host.eventHubFeeds.length) console.log(`Triggers:  ${host.eventHubFeeds.join(', ')}`);
    if (telemetry) console.log(`Telemetry: OpenTelemetry to ${ingestionEndpointOf(settings.APPLICATIONINSIGHTS_CONNECTION_STRING)}`);
    console.log(
      `Functions: ${functionDefinitions
        .filter((d) => host.functions.includes(d.name))
        .map((d) => `${d.name} [${d.kind}]`)
        .join(', ')}`,
    );
    console.log(`Listening: ${host.url}  (try ${host.url}/healthz)`);
    if (oidcProvider) {
      console.log(`Sign-in:   local OpenID provider ${oidcProvider.issuer} (demo users in README.md, password demo)`);
    }
    console.log(`Portal:    ${host.url}/portal/  (Sign in as demo-admin; npm run token -- --user demo-admin for curl)`);
    console.log(`App:       ${host.url}/app/  (the member app; sign in as demo-member-1; docs/member-app.md)`);
    console.log(
      `Demo:      club ${DEMO_CLUB.id}: demo-leader leads it, demo-member-1 and demo-member-2 are members (${demo.hits} shots, ${demo.participations} participations, ${demo.completed} completed now)`,
    );
  } catch (error) {
    // Whatever this run started (embedded PostgreSQL, Azurite) must not outlive a failed start.
    await shutdown();
    throw error;
  }
  leaveSignalsToCommand();
  stopOnSignals(() => host.close(), shutdown);
}

main().catch(exitOnStartupFailure);

/** Where telemetry goes, without the instrumentation key. */
function ingestionEndpointOf(connectionString: string | undefined): string {
  return /IngestionEndpoint=([^;]+)/i.exec(connectionString ?? '')?.[1] ?? 'Application Insights (the connection string names no endpoint)';
}
