import path from 'node:path';
import postgres from 'postgres';
import { MIRROR_HIT_TABLE_DDL } from '../edge/boxFreshness';
import { parseEdgeConfig, withEnvFile } from '../edge/config';
import { parseEdgeConnectorConfig } from '../edge/connectorConfig';
import { connectorSetupFrom } from '../edge/connectorSetup';
import { parseEdgeFreshnessConfig } from '../edge/freshnessConfig';
import { withLocalCloudDefault } from '../edge/localCloud';
import { MIRROR_CLUB_TABLE_DDL } from '../edge/mirror';
import { MIRROR_STARTERLIST_TABLE_DDL } from '../edge/starterlistPush';
import { exitOnStartupFailure } from '../shared/process/startupFailure';
import { runBoxAgent } from '../edge/run';
import { runHashPasswordCommand } from '../edge/boxUiHashCommand';
import { createDatabaseIfMissing, ensureDatabase } from './local/embeddedPostgres';
import { startKafkaConnectFake } from './kafkaConnectFake/fake';
import { localDataDir, repoRoot } from './local/paths';

const LOCAL_MIRROR_DATABASE = 'box_mirror';

/**
 * `npm run edge`: the box agent from source with settings from edge/.env and the environment.
 * Without SVC_MIRROR_DATABASE_URL it uses the embedded PostgreSQL of this checkout (database
 * box_mirror, with an empty club_software_club table) so it starts without any setup; it stops
 * that server on exit only if it started it. Without SVC_CLOUD_BASE_URL it pushes to the local host
 * of `npm start` on its PORT. `--fake-kafka-connect` puts the wire-level Kafka Connect fake
 * (development/kafkaConnectFake/) behind the consent gate, so the gate and (with
 * SVC_CONNECTOR_ENABLED) Reset and Re-Snapshot can be tried without Kafka Connect.
 */
async function main(): Promise<void> {
  const env = withLocalCloudDefault(withEnvFile(process.env, path.join(repoRoot, 'edge', '.env')), [
    path.join(repoRoot, 'local.settings.json'),
    path.join(repoRoot, 'local.settings.sample.json'),
  ]);
  const config = parseEdgeConfig(env);
  const freshness = parseEdgeFreshnessConfig(env);
  const connectorConfig = parseEdgeConnectorConfig(env);
  // From the environment only (`npm run telemetry:local -- --only` prints it): never the app's local settings.
  const telemetryConnectionString = process.env['APPLICATIONINSIGHTS_CONNECTION_STRING']?.trim() || undefined;
  const useFake = process.argv.slice(2).includes('--fake-kafka-connect');
  const fake = useFake ? await startKafkaConnectFake() : undefined;
  if (fake) console.log(`Kafka Connect fake: ${fake.url} (nothing leaves this machine)`);
  // In a checkout the connector file is the repository's and the consent lives under .data/edge.
  const connector = connectorSetupFrom(connectorConfig, {
    configFile: path.join(repoRoot, 'infra', 'connector', 'debezium-club-data.json'),
    stateFile: path.join(localDataDir(), 'edge', 'connector-state.json'),
    kafkaConnectUrl: fake?.url,
  });
  if (config.mirrorDatabaseUrl) {
    await runBoxAgent(
      { ...config, mirrorDatabaseUrl: config.mirrorDatabaseUrl },
      {
        mirrorDescription: 'SVC_MIRROR_DATABASE_URL',
        freshness,
        connector,
        release: () => fake?.close() ?? Promise.resolve(),
        telemetryConnectionString,
      },
    );
    return;
  }
  const embedded = await ensureDatabase(undefined);
  try {
    const mirrorDatabaseUrl = embedded.serverUrl(LOCAL_MIRROR_DATABASE);
    await createDatabaseIfMissing(LOCAL_MIRROR_DATABASE, embedded.serverUrl());
    const setup = postgres(mirrorDatabaseUrl, { max: 1, onnotice: () => undefined });
    await setup
      .unsafe(MIRROR_CLUB_TABLE_DDL)
      .then(() => setup.unsafe(MIRROR_STARTERLIST_TABLE_DDL))
      .then(() => setup.unsafe(MIRROR_HIT_TABLE_DDL))
      .finally(() => setup.end());
    await runBoxAgent(
      { ...config, mirrorDatabaseUrl },
      {
        mirrorDescription: embedded.description.replace(embedded.url, mirrorDatabaseUrl),
        release: async () => {
          await fake?.close();
          await embedded.release();
        },
        freshness,
        connector,
        telemetryConnectionString,
      },
    );
  } catch (error) {
    await embedded.release();
    throw error;
  }
}

if (process.argv.slice(2).includes('hash-password')) {
  void runHashPasswordCommand().then((code) => process.exit(code));
} else {
  main().catch(exitOnStartupFailure);
}
