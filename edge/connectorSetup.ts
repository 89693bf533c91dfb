import { readFile } from 'node:fs/promises';
import { connectorDefinition } from '../shared/boxConnector/consentGate';
import type { Logger } from '../shared/log/logger';
import { systemClock, type Clock } from './clock';
import { createConnectorManager, type ConnectorManager } from './connectorManager';
import { createKafkaConnectClient } from './kafkaConnect';

/** What the agent needs to manage the score-data connector; the entry points resolve the file paths. */
export interface ConnectorSetup {
  kafkaConnectUrl: string;
  clubId: string;
  /** The connector configuration file (infra/connector/debezium-club-data.json). */
  configFile: string;
  /** Where the consent is kept. */
  stateFile: string;
  checkSeconds: number;
  /** Timeout of one Kafka Connect call. */
  timeoutSeconds?: number;
  /** 409 handling of the client (tests shorten the pause). */
  conflictAttempts?: number;
  conflictDelayMs?: number;
}

/** Reads the connector file (a missing or invalid file is a start-up error naming it) and builds the manager. */
export async function loadConnectorManager(setup: ConnectorSetup, log: Logger, clock: Clock = systemClock): Promise<ConnectorManager> {
  let file: unknown;
  try {
    file = JSON.parse(await readFile(setup.configFile, 'utf8'));
  } catch (error) {
    throw new Error(
      `The connector configuration file ${setup.configFile} could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const { name, config } = connectorDefinition(file, setup.clubId);
  return createConnectorManager({
    client: createKafkaConnectClient({
      baseUrl: setup.kafkaConnectUrl,
      timeoutSeconds: setup.timeoutSeconds ?? 30,
      conflictAttempts: setup.conflictAttempts,
      conflictDelayMs: setup.conflictDelayMs,
    }),
    kafkaConnectUrl: setup.kafkaConnectUrl,
    name,
    config,
    stateFile: setup.stateFile,
    checkIntervalSeconds: setup.checkSeconds,
    now: () => clock.now(),
    log: log.with({ component: 'connector' }),
  });
}
