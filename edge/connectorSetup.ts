import { readFile } from 'node:fs/promises';
import { connectorDefinition } from '../shared/boxConnector/consentGate';
import type { Logger } from '../shared/log/logger';
import { systemClock, type Clock } from './clock';
import { createConnectorManager, type ConnectorManager } from './connectorManager';
import type { EdgeConnectorConfig } from './connectorConfig';
import { createKafkaConnectClient } from './kafkaConnect';

/**
 * What the agent needs for the consent gate and, when it manages the score-data connector, for
 * that connector; the entry points resolve the file paths.
 */
export interface ConnectorSetup {
  kafkaConnectUrl: string;
  /** Where the consent (and beside it its audit log) is kept. */
  stateFile: string;
  /** Between two gate checks while the consent is GRANTED. */
  checkSeconds: number;
  /** Between two gate checks while it is not (default 5). */
  watchSeconds?: number;
  /** The managed connector (SVC_CONNECTOR_ENABLED); without it the agent only gates. */
  managed?: {
    clubId: string;
    /** The connector configuration file (infra/connector/debezium-club-data.json). */
    configFile: string;
  };
  /** Timeout of one Kafka Connect call. */
  timeoutSeconds?: number;
  /** 409 handling of the client (tests shorten the pause). */
  conflictAttempts?: number;
  conflictDelayMs?: number;
}

/** Reads the connector file when one is managed (a missing or invalid file is a start-up error naming it) and builds the manager. */
export async function loadConnectorManager(setup: ConnectorSetup, log: Logger, clock: Clock = systemClock): Promise<ConnectorManager> {
  let managed: { name: string; config: Record<string, string> } | undefined;
  if (setup.managed) {
    let file: unknown;
    try {
      file = JSON.parse(await readFile(setup.managed.configFile, 'utf8'));
    } catch (error) {
      throw new Error(
        `The connector configuration file ${setup.managed.configFile} could not be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    managed = connectorDefinition(file, setup.managed.clubId);
  }
  return createConnectorManager({
    client: createKafkaConnectClient({
      baseUrl: setup.kafkaConnectUrl,
      // The gate watches every few seconds: a hung call must not hold it much longer than that.
      timeoutSeconds: setup.timeoutSeconds ?? 10,
      conflictAttempts: setup.conflictAttempts,
      conflictDelayMs: setup.conflictDelayMs,
    }),
    kafkaConnectUrl: setup.kafkaConnectUrl,
    managed,
    stateFile: setup.stateFile,
    checkIntervalSeconds: setup.checkSeconds,
    watchIntervalSeconds: setup.watchSeconds ?? 5,
    now: () => clock.now(),
    log: log.with({ component: 'connector' }),
  });
}

/**
 * The setup from the settings and the entry point's default paths: the gate always (it watches
 * Kafka Connect whenever the box could publish score data), the managed connector only with
 * SVC_CONNECTOR_ENABLED and SVC_CLUB_ID.
 */
export function connectorSetupFrom(
  settings: EdgeConnectorConfig,
  defaults: { configFile: string; stateFile: string; kafkaConnectUrl?: string },
): ConnectorSetup {
  return {
    kafkaConnectUrl: defaults.kafkaConnectUrl ?? settings.kafkaConnectUrl,
    stateFile: settings.stateFile ?? defaults.stateFile,
    checkSeconds: settings.checkSeconds,
    watchSeconds: settings.watchSeconds,
    ...(settings.enabled && settings.clubId
      ? { managed: { clubId: settings.clubId, configFile: settings.configFile ?? defaults.configFile } }
      : {}),
  };
}
