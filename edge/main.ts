import path from 'node:path';
import { parseEdgeConfig, withEnvFile } from './config';
import { parseEdgeConnectorConfig } from './connectorConfig';
import { connectorSetupFrom } from './connectorSetup';
import { parseEdgeFreshnessConfig } from './freshnessConfig';
import { exitOnStartupFailure } from '../shared/process/startupFailure';
import { runBoxAgent } from './run';
import { runHashPasswordCommand } from './boxUiHashCommand';

/**
 * The box agent's production entry, bundled to dist/edge-agent.js (`npm run build`) and started
 * with `node edge-agent.js`: settings from the environment over the `.env` next to the bundle.
 * It reads the club software's mirror PostgreSQL at SVC_MIRROR_DATABASE_URL; the embedded
 * fallback of `npm run edge` lives in development/edge.ts so this bundle carries no dev tooling.
 */
async function main(): Promise<void> {
  const env = withEnvFile(process.env, path.join(__dirname, '.env'));
  const config = parseEdgeConfig(env);
  const freshness = parseEdgeFreshnessConfig(env);
  const mirrorDatabaseUrl = config.mirrorDatabaseUrl;
  if (!mirrorDatabaseUrl) {
    throw new Error(
      "SVC_MIRROR_DATABASE_URL is required: the connection string of the club software's mirror PostgreSQL (set it in .env).",
    );
  }
  const connector = parseEdgeConnectorConfig(env);
  await runBoxAgent(
    { ...config, mirrorDatabaseUrl },
    {
      mirrorDescription: 'SVC_MIRROR_DATABASE_URL',
      freshness,
      // The connector file, the consent and its audit log live next to the bundle unless the settings say otherwise.
      connector: connectorSetupFrom(connector, {
        configFile: path.join(__dirname, 'debezium-club-data.json'),
        stateFile: path.join(__dirname, 'connector-state.json'),
      }),
      telemetryConnectionString: env['APPLICATIONINSIGHTS_CONNECTION_STRING']?.trim() || undefined,
    },
  );
}

if (process.argv[2] === 'hash-password') {
  void runHashPasswordCommand().then((code) => process.exit(code));
} else {
  main().catch(exitOnStartupFailure);
}
