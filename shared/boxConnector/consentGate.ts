/**
 * The data-sharing consent gate of the box's score-data connector (Debezium over Kafka Connect):
 * score rows (hits, shooters) leave the club only while the club's consent is GRANTED. Pure: the
 * box agent (edge/connectorManager.ts) observes Kafka Connect, asks `planConnector` what to do and
 * carries it out. The club master and starter-list channels carry no personal data and are not
 * gated (they never pass through here).
 */

/**
 * The club's data-sharing consent as the box keeps it. NONE: no decision recorded yet (a new box);
 * GRANTED: score rows may leave the club; REVOKED: consent was withdrawn. Only GRANTED opens the gate.
 */
export const CONSENT_STATES = ['NONE', 'GRANTED', 'REVOKED'] as const;
export type ConsentState = (typeof CONSENT_STATES)[number];

/** Kafka Connect's connector states (GET /connectors/{name}/status), plus ABSENT for a 404. */
export type ConnectorState = 'ABSENT' | 'UNASSIGNED' | 'RUNNING' | 'PAUSED' | 'STOPPED' | 'FAILED' | 'RESTARTING';

export interface ObservedConnector {
  state: ConnectorState;
  /** States of the connector's tasks; empty while none are assigned. */
  taskStates: readonly string[];
  /** false when the stored configuration differs from the configuration file; undefined when unknown. */
  configMatches?: boolean;
}

/** One step against the Kafka Connect REST API. */
export type ConnectorStep =
  /** PUT /connectors/{name}/config: creates the connector (201) or replaces its configuration (200). */
  | 'put_config'
  /** PUT /connectors/{name}/resume */
  | 'resume'
  /** PUT /connectors/{name}/pause */
  | 'pause';

export interface ConnectorPlan {
  /** What the gate wants: the connector running, or not producing (paused or absent). */
  gate: 'open' | 'closed';
  /** The steps, in order; empty when the connector already is where it should be. */
  steps: ConnectorStep[];
  /** One sentence for the box interface's status. */
  reason: string;
}

/**
 * What to do with the score-data connector for this consent and what Kafka Connect reports.
 *
 * | consent          | connector                   | steps                  | gate   |
 * | ---------------- | --------------------------- | ---------------------- | ------ |
 * | not GRANTED      | ABSENT                      | none (never created)   | closed |
 * | not GRANTED      | PAUSED (tasks paused/none)  | none                   | closed |
 * | not GRANTED      | STOPPED                     | none                   | closed |
 * | not GRANTED      | anything else               | pause                  | closed |
 * | GRANTED          | ABSENT                      | put_config (creates)   | open   |
 * | GRANTED          | config differs              | put_config, then below | open   |
 * | GRANTED          | PAUSED or STOPPED           | resume                 | open   |
 * | GRANTED          | RUNNING/UNASSIGNED/...      | none                   | open   |
 *
 * A closed gate never creates or resumes the connector and never changes its configuration: a
 * configuration change restarts the tasks, so it waits for consent too. FAILED while GRANTED is
 * left for the operator (the status carries Kafka Connect's trace); a re-snapshot recreates it.
 */
export function planConnector(consent: ConsentState, observed: ObservedConnector): ConnectorPlan {
  if (consent !== 'GRANTED') {
    const why = consent === 'NONE' ? 'no data-sharing consent is recorded' : 'the data-sharing consent is REVOKED';
    if (observed.state === 'ABSENT') {
      return { gate: 'closed', steps: [], reason: `Not created: ${why}; score rows do not leave the club.` };
    }
    // STOPPED (no tasks at all) is as closed as PAUSED; pausing it would start its tasks, paused.
    if (observed.state === 'STOPPED') {
      return { gate: 'closed', steps: [], reason: `Stopped: ${why}; score rows do not leave the club.` };
    }
    const paused = observed.state === 'PAUSED' && observed.taskStates.every((state) => state === 'PAUSED');
    return {
      gate: 'closed',
      steps: paused ? [] : ['pause'],
      reason: `Paused: ${why}; score rows do not leave the club.`,
    };
  }
  if (observed.state === 'ABSENT') {
    return {
      gate: 'open',
      steps: ['put_config'],
      reason: 'Created: the data-sharing consent is GRANTED (initial snapshot, then changes).',
    };
  }
  const steps: ConnectorStep[] = [];
  if (observed.configMatches === false) steps.push('put_config');
  if (observed.state === 'PAUSED' || observed.state === 'STOPPED') steps.push('resume');
  const reason =
    observed.state === 'FAILED'
      ? 'Failed: the data-sharing consent is GRANTED but Kafka Connect reports the connector FAILED (see trace; a re-snapshot recreates it).'
      : observed.taskStates.includes('FAILED')
        ? 'Running with a FAILED task: see the task trace; a re-snapshot recreates the connector.'
        : 'Running: the data-sharing consent is GRANTED.';
  return { gate: 'open', steps, reason };
}

/** Whether a re-snapshot may run: it publishes every score row of the club again. */
export function resnapshotAllowed(consent: ConsentState): boolean {
  return consent === 'GRANTED';
}

/**
 * The connector's name and configuration from the configuration file (infra/connector/
 * debezium-club-data.json): `${env:SVC_CLUB_ID}` in the name is replaced with the club number,
 * because Kafka Connect resolves config providers in values but never in a connector's name.
 * Every other `${env:…}` stays for Kafka Connect's EnvVarConfigProvider to resolve on the Connect
 * worker, so the mirror's password never passes through the agent or the REST API.
 */
export function connectorDefinition(file: unknown, clubId: string): { name: string; config: Record<string, string> } {
  if (typeof file !== 'object' || file === null) throw new Error('The connector configuration file must hold a JSON object.');
  const { name, config } = file as { name?: unknown; config?: unknown };
  if (typeof name !== 'string' || name.trim() === '') throw new Error('The connector configuration file has no "name".');
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new Error('The connector configuration file has no "config" object.');
  }
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(config)) {
    if (typeof value !== 'string')
      throw new Error(`The connector configuration value "${key}" must be a string, as Kafka Connect takes it.`);
    values[key] = value;
  }
  const resolved = name.replaceAll('${env:SVC_CLUB_ID}', clubId);
  if (!/^[A-Za-z0-9._-]+$/.test(resolved)) throw new Error(`The connector name "${resolved}" must be letters, digits, ".", "_" or "-".`);
  return { name: resolved, config: values };
}

/** Whether the stored configuration is the file's (Kafka Connect adds `name` to what it stores). */
export function sameConfig(stored: Record<string, string>, wanted: Record<string, string>, name: string): boolean {
  const withName: Record<string, string> = { ...wanted, name };
  const keys = new Set([...Object.keys(stored), ...Object.keys(withName)]);
  for (const key of keys) if (stored[key] !== withName[key]) return false;
  return true;
}
