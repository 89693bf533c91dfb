import path from 'node:path';
import postgres from 'postgres';
import { MIRROR_HIT_TABLE_DDL } from '../edge/boxFreshness';
import { parseEdgeConfig, withEnvFile } from '../edge/config';
import { parseEdgeConnectorConfig } from '../edge/connectorConfig';
import type { ConnectorSetup } from '../edge/connectorSetup';
import { parseEdgeFreshnessConfig } from '../edge/freshnessConfig';
import { MIRROR_CLUB_TABLE_DDL } from '../edge/mirror';
import { MIRROR_STARTERLIST_TABLE_DDL } from '../edge/starterlistPush';
import { exitOnStartupFailure, runBoxAgent } from '../edge/run';
import { createDatabaseIfMissing, ensureDatabase } from './local/embeddedPostgres';
import { startKafkaConnectFake } from './kafkaConnectFake/fake';
import { localDataDir, repoRoot } from './local/paths';

const LOCAL_MIRROR_DATABASE = 'box_mirror';

/**
 * `npm run edge`: the box agent from source with settings from edge/.env and the environment.
 * Without SVC_MIRROR_DATABASE_URL it uses the embedded PostgreSQL of this checkout (database
 * box_mirror, with an empty club_software_club table) so it starts without any setup; it stops
 * that server on exit only if it started it. `--fake-kafka-connect` puts the wire-level Kafka
 * Connect fake (development/kafkaConnectFake/) behind the connector management, so the consent gate
 * and Reset and Re-Snapshot can be tried without Kafka Connect.
 */
async function main(): Promise<void> {
  const env = withEnvFile(process.env, path.join(repoRoot, 'edge', '.env'));
  const config = parseEdgeConfig(env);
  const freshness = parseEdgeFreshnessConfig(env);
  const connectorConfig = parseEdgeConnectorConfig(env);
  const useFake = process.argv.slice(2).includes('--fake-kafka-connect');
  if (useFake && !(connectorConfig.enabled && connectorConfig.clubId)) {
    throw new Error('--fake-kafka-connect needs SVC_CONNECTOR_ENABLED=true and SVC_CLUB_ID (edge/.env or the environment).');
  }
  const fake = useFake ? await startKafkaConnectFake() : undefined;
  if (fake) console.log(`Kafka Connect fake: ${fake.url} (nothing leaves this machine)`);
  // In a checkout the connector file is the repository's and the consent lives under .data/edge.
  const connector: ConnectorSetup | undefined =
    connectorConfig.enabled && connectorConfig.clubId
      ? {
          kafkaConnectUrl: fake?.url ?? connectorConfig.kafkaConnectUrl,
          clubId: connectorConfig.clubId,
          configFile: connectorConfig.configFile ?? path.join(repoRoot, 'infra', 'connector', 'debezium-club-data.json'),
          stateFile: connectorConfig.stateFile ?? path.join(localDataDir(), 'edge', 'connector-state.json'),
          checkSeconds: connectorConfig.checkSeconds,
        }
      : undefined;
  if (config.mirrorDatabaseUrl) {
    await runBoxAgent(
      { ...config, mirrorDatabaseUrl: config.mirrorDatabaseUrl },
      { mirrorDescription: 'SVC_MIRROR_DATABASE_URL', freshness, connector, release: () => fake?.close() ?? Promise.resolve() },
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
      },
    );
  } catch (error) {
    await embedded.release();
    throw error;
  }
}

main().catch(exitOnStartupFailure);
