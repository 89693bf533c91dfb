import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  connectorDefinition,
  planConnector,
  resnapshotAllowed,
  sameConfig,
  type ConnectorState,
  type ConsentState,
} from '../../shared/boxConnector/consentGate';

const connectorFile = JSON.parse(
  readFileSync(path.resolve(__dirname, '..', '..', 'infra', 'connector', 'debezium-club-data.json'), 'utf8'),
) as unknown;

describe('the consent gate plan', () => {
  const observed = (
    state: ConnectorState,
    taskStates: string[] = state === 'ABSENT' || state === 'STOPPED' ? [] : [state],
    configMatches?: boolean,
  ) => ({
    state,
    taskStates,
    configMatches,
  });

  it.each<[ConsentState, ConnectorState, string[]]>([
    ['NONE', 'ABSENT', []],
    ['NONE', 'RUNNING', ['pause']],
    ['NONE', 'UNASSIGNED', ['pause']],
    ['NONE', 'FAILED', ['pause']],
    ['NONE', 'PAUSED', []],
    ['NONE', 'STOPPED', []],
    ['REVOKED', 'ABSENT', []],
    ['REVOKED', 'RUNNING', ['pause']],
    ['REVOKED', 'RESTARTING', ['pause']],
    ['REVOKED', 'PAUSED', []],
    ['GRANTED', 'ABSENT', ['put_config']],
    ['GRANTED', 'PAUSED', ['resume']],
    ['GRANTED', 'STOPPED', ['resume']],
    ['GRANTED', 'RUNNING', []],
    ['GRANTED', 'UNASSIGNED', []],
    ['GRANTED', 'FAILED', []],
  ])('consent %s, connector %s: %j', (consent, state, steps) => {
    const plan = planConnector(consent, observed(state));
    expect(plan.steps).toEqual(steps);
    expect(plan.gate).toBe(consent === 'GRANTED' ? 'open' : 'closed');
  });

  it('never creates, resumes or reconfigures the connector without GRANTED consent', () => {
    const states: ConnectorState[] = ['ABSENT', 'UNASSIGNED', 'RUNNING', 'PAUSED', 'STOPPED', 'FAILED', 'RESTARTING'];
    for (const consent of ['NONE', 'REVOKED'] as const) {
      for (const state of states) {
        for (const configMatches of [true, false, undefined]) {
          const { steps } = planConnector(consent, observed(state, undefined, configMatches));
          expect(steps.filter((step) => step !== 'pause')).toEqual([]);
        }
      }
    }
  });

  it('pauses a connector whose tasks still run although the connector shows PAUSED', () => {
    expect(planConnector('REVOKED', observed('PAUSED', ['RUNNING'])).steps).toEqual(['pause']);
  });

  it('brings a changed configuration back to the file before resuming, only with consent', () => {
    expect(planConnector('GRANTED', observed('PAUSED', ['PAUSED'], false)).steps).toEqual(['put_config', 'resume']);
    expect(planConnector('GRANTED', observed('RUNNING', ['RUNNING'], false)).steps).toEqual(['put_config']);
  });

  it('says in its reason why the connector is not running', () => {
    expect(planConnector('NONE', observed('ABSENT')).reason).toBe(
      'Not created: no data-sharing consent is recorded; score rows do not leave the club.',
    );
    expect(planConnector('REVOKED', observed('RUNNING')).reason).toBe(
      'Paused: the data-sharing consent is REVOKED; score rows do not leave the club.',
    );
    expect(planConnector('GRANTED', observed('FAILED')).reason).toMatch(/FAILED/);
  });

  it('allows a re-snapshot only with GRANTED consent', () => {
    expect([resnapshotAllowed('NONE'), resnapshotAllowed('REVOKED'), resnapshotAllowed('GRANTED')]).toEqual([false, false, true]);
  });
});

describe('the connector definition from infra/connector/debezium-club-data.json', () => {
  it('puts the club number into the name and leaves every other ${env:…} to Kafka Connect', () => {
    const { name, config } = connectorDefinition(connectorFile, '4711');
    expect(name).toBe('club-data-4711');
    expect(config['connector.class']).toBe('io.debezium.connector.postgresql.PostgresConnector');
    expect(config['database.password']).toBe('${env:MIRROR_DB_PASSWORD}');
    expect(config['slot.name']).toBe('club_data_${env:SVC_CLUB_ID}');
    expect(config['table.include.list']).toBe('public.hits,public.shooters');
  });

  it('rejects files Kafka Connect would not take', () => {
    expect(() => connectorDefinition([], '1')).toThrow(/"name"/);
    expect(() => connectorDefinition({ name: 'x' }, '1')).toThrow(/"config"/);
    expect(() => connectorDefinition({ name: 'x', config: { 'tasks.max': 1 } }, '1')).toThrow(/tasks.max/);
    expect(() => connectorDefinition({ name: 'a/b', config: {} }, '1')).toThrow(/letters, digits/);
  });

  it('compares a stored configuration with the file, ignoring the name Kafka Connect adds', () => {
    const { name, config } = connectorDefinition(connectorFile, '4711');
    expect(sameConfig({ ...config, name }, config, name)).toBe(true);
    expect(sameConfig({ ...config, name, 'tasks.max': '2' }, config, name)).toBe(false);
    const { ['heartbeat.interval.ms']: _dropped, ...fewer } = config;
    expect(sameConfig({ ...fewer, name }, config, name)).toBe(false);
  });
});
