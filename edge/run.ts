import { stopOnSignals } from '../shared/process/signals';
import { createLogger } from '../shared/log/logger';
import { startTelemetry, stopTelemetry } from '../shared/telemetry/startup';
import type { EdgeConfig } from './config';
import type { ConnectorSetup } from './connectorSetup';
import type { EdgeFreshnessConfig } from './freshnessConfig';
import { startAgent } from './startAgent';

/**
 * Runs the box agent as this process's one job: starts it, prints where it answers, and on
 * SIGINT/SIGTERM closes it, then whatever the caller set up for it (`release`).
 */
export async function runBoxAgent(
  config: EdgeConfig & { mirrorDatabaseUrl: string },
  options: {
    mirrorDescription: string;
    release?: () => Promise<void>;
    freshness?: EdgeFreshnessConfig;
    connector?: ConnectorSetup;
    /** APPLICATIONINSIGHTS_CONNECTION_STRING of the box's settings; unset: no telemetry, nothing loaded or sent. */
    telemetryConnectionString?: string;
  },
): Promise<void> {
  const log = createLogger({ minLevel: 'info', fields: { component: 'club-master-agent' } });
  // Before the agent starts, so its first push is traced; a long-running process pays the load once.
  const telemetry = await startTelemetry({
    connectionString: options.telemetryConnectionString,
    secrets: [config.edgeApiToken, config.mirrorDatabaseUrl, options.telemetryConnectionString].filter(
      (secret): secret is string => secret !== undefined && secret !== '',
    ),
    serviceName: 'shooting-club-box-agent',
    onError: (error) => log.warn('telemetry_start_failed', { error }),
  });
  const agent = await startAgent(config, log, undefined, options.freshness, options.connector).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw new Error(`${config.host}:${config.port} is already in use (EADDRINUSE); set SVC_EDGE_PORT to a free port`);
  });
  console.log(`Box agent: ${agent.url}  (GET ${agent.url}/api/club-master-sync/status)`);
  console.log(
    `UI:        ${
      config.uiPasswordHash ? `${agent.url}/ui` : 'off: no SVC_BOX_UI_PASSWORD_HASH (`node edge-agent.js hash-password` prints one)'
    }`,
  );
  console.log(`Cloud:     ${config.cloudBaseUrl}`);
  console.log(`Mirror:    ${options.mirrorDescription}`);
  console.log(
    `Telemetry: ${telemetry ? 'the calls of the cloud and of Kafka Connect to Application Insights' : 'off (no APPLICATIONINSIGHTS_CONNECTION_STRING)'}`,
  );
  console.log(
    `Push:      ${config.syncEnabled ? `enabled, every ${config.syncIntervalSeconds} s` : 'disabled (SVC_CLUB_MASTER_SYNC_ENABLED=false)'}`,
  );
  console.log(
    `Connector: ${
      options.connector
        ? `consent gate on ${options.connector.kafkaConnectUrl} (GET ${agent.url}/api/connector/status; consent in ${options.connector.stateFile}); ${
            options.connector.managed ? 'manages the score-data connector' : 'manages no connector (SVC_CONNECTOR_ENABLED=false)'
          }`
        : 'no consent gate'
    }`,
  );
  stopOnSignals(
    () => agent.close(),
    stopTelemetry,
    () => options.release?.(),
  );
}
