import * as v from 'valibot';
import { flag, optionalText, readEnvSettings, wholeNumber as integer } from '../shared/config/envValues';

/** Settings of the box's connector management, from the same .env and environment as EdgeConfig. */
export const EdgeConnectorConfigSchema = v.pipe(
  v.object({
    /**
     * Lets the agent manage the score-data connector from the file: create it, keep its
     * configuration, resume it and re-snapshot it while the consent is GRANTED. The consent gate
     * does not depend on it: it always pauses a score-capturing connector without GRANTED consent.
     */
    SVC_CONNECTOR_ENABLED: flag(false),
    /** The box's Kafka Connect REST API. */
    SVC_KAFKA_CONNECT_URL: v.optional(
      v.pipe(v.string(), v.trim(), v.url('must be a URL'), v.regex(/^https?:/i, 'must be http or https')),
      'http://127.0.0.1:8083',
    ),
    /** The club number the box publishes for: `${env:SVC_CLUB_ID}` of the connector file. */
    SVC_CLUB_ID: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^[A-Za-z0-9_]{1,32}$/, 'must be 1-32 letters, digits or _'))),
    /** The connector configuration file (infra/connector/debezium-club-data.json). */
    SVC_CONNECTOR_CONFIG_FILE: optionalText,
    /** Where the agent keeps the club's data-sharing consent. */
    SVC_CONNECTOR_STATE_FILE: optionalText,
    /** Seconds between two gate checks while the consent is GRANTED. */
    SVC_CONNECTOR_CHECK_SECONDS: integer(60, 5, 3600),
    /** Seconds between two gate checks while the consent is not GRANTED: how long a connector resumed by hand may run. */
    SVC_CONNECTOR_WATCH_SECONDS: integer(5, 1, 60),
  }),
  v.check(
    (config) => !config.SVC_CONNECTOR_ENABLED || config.SVC_CLUB_ID !== undefined,
    'SVC_CLUB_ID is required when SVC_CONNECTOR_ENABLED is true',
  ),
);

export interface EdgeConnectorConfig {
  enabled: boolean;
  kafkaConnectUrl: string;
  clubId: string | undefined;
  /** Undefined: the caller's default (next to the bundle, or infra/connector/ in a checkout). */
  configFile: string | undefined;
  stateFile: string | undefined;
  checkSeconds: number;
  watchSeconds: number;
}

export const EDGE_CONNECTOR_SETTING_NAMES = Object.keys(EdgeConnectorConfigSchema.pipe[0].entries);

export function parseEdgeConnectorConfig(env: Record<string, string | undefined>): EdgeConnectorConfig {
  const reading = readEnvSettings(EdgeConnectorConfigSchema, EDGE_CONNECTOR_SETTING_NAMES, env, { emptyIsUnset: true });
  if (!reading.ok) throw new Error(`Invalid box settings: ${reading.problems.map((p) => `${p.setting} ${p.message}`).join('; ')}`);
  const value = reading.value;
  return {
    enabled: value.SVC_CONNECTOR_ENABLED,
    kafkaConnectUrl: value.SVC_KAFKA_CONNECT_URL.replace(/\/+$/, ''),
    clubId: value.SVC_CLUB_ID,
    configFile: value.SVC_CONNECTOR_CONFIG_FILE,
    stateFile: value.SVC_CONNECTOR_STATE_FILE,
    checkSeconds: value.SVC_CONNECTOR_CHECK_SECONDS,
    watchSeconds: value.SVC_CONNECTOR_WATCH_SECONDS,
  };
}
