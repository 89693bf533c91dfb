import { parseEdgeConnectorConfig } from '../../edge/connectorConfig';
import { REBALANCE_MESSAGE, startKafkaConnectFake, type KafkaConnectFake } from '../../development/kafkaConnectFake/fake';

/**
 * The fake answers as Kafka Connect 3.7+ does (ConnectorsResource and the herders): these are the
 * status codes and bodies the agent's client is written against.
 */
describe('the Kafka Connect fake on the wire', () => {
  let fake: KafkaConnectFake;
  beforeAll(async () => {
    fake = await startKafkaConnectFake();
  });
  afterAll(() => fake.close());

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(fake.url + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  };
  const config = { 'connector.class': 'io.debezium.connector.postgresql.PostgresConnector', 'table.include.list': 'public.hits' };

  it('answers unknown connectors with 404 and Kafka Connect error bodies', async () => {
    expect(await call('GET', '/connectors/x/config')).toEqual({ status: 404, body: { error_code: 404, message: 'Connector x not found' } });
    expect(await call('GET', '/connectors/x/status')).toEqual({
      status: 404,
      body: { error_code: 404, message: 'No status found for connector x' },
    });
    expect(await call('DELETE', '/connectors/x')).toEqual({ status: 404, body: { error_code: 404, message: 'Connector x not found' } });
    expect(await call('PUT', '/connectors/x/pause')).toEqual({ status: 404, body: { error_code: 404, message: 'Unknown connector x' } });
  });

  it('creates with PUT config (201), updates (200), pauses and resumes (202, no body), deletes (204)', async () => {
    const created = await call('PUT', '/connectors/a/config', config);
    expect(created).toEqual({
      status: 201,
      body: { name: 'a', config: { ...config, name: 'a' }, tasks: [{ connector: 'a', task: 0 }], type: 'source' },
    });
    expect((await call('PUT', '/connectors/a/config', config)).status).toBe(200);
    expect(await call('GET', '/connectors/a/status')).toEqual({
      status: 200,
      body: {
        name: 'a',
        connector: { state: 'RUNNING', worker_id: '127.0.0.1:8083' },
        tasks: [{ id: 0, state: 'RUNNING', worker_id: '127.0.0.1:8083' }],
        type: 'source',
      },
    });
    expect(await call('PUT', '/connectors/a/pause')).toEqual({ status: 202, body: undefined });
    expect(((await call('GET', '/connectors/a/status')).body as { connector: { state: string } }).connector.state).toBe('PAUSED');
    expect(await call('PUT', '/connectors/a/resume')).toEqual({ status: 202, body: undefined });
    expect(await call('DELETE', '/connectors/a')).toEqual({ status: 204, body: undefined });
  });

  it('rejects a duplicate POST with 409 and an offsets reset of a running connector with 400', async () => {
    expect((await call('POST', '/connectors', { name: 'b', config })).status).toBe(201);
    expect(await call('POST', '/connectors', { name: 'b', config })).toEqual({
      status: 409,
      body: { error_code: 409, message: 'Connector b already exists' },
    });
    const reset = await call('DELETE', '/connectors/b/offsets');
    expect(reset.status).toBe(400);
    expect((reset.body as { message: string }).message).toMatch(/^Connectors must be in the STOPPED state/);
    expect((await call('PUT', '/connectors/b/stop')).status).toBe(204);
    expect((await call('DELETE', '/connectors/b/offsets')).status).toBe(200);
  });

  it('creates a connector STOPPED (initial_state, KIP-980) with no tasks', async () => {
    expect((await call('POST', '/connectors', { name: 'c', config, initial_state: 'STOPPED' })).status).toBe(201);
    expect(await call('GET', '/connectors/c/status')).toMatchObject({ status: 200, body: { connector: { state: 'STOPPED' }, tasks: [] } });
  });

  it('answers 409 with the rebalance message when told to', async () => {
    fake.rebalance(1);
    expect(await call('PUT', '/connectors/c/resume')).toEqual({ status: 409, body: { error_code: 409, message: REBALANCE_MESSAGE } });
    expect((await call('PUT', '/connectors/c/resume')).status).toBe(202);
  });
});

describe('parseEdgeConnectorConfig', () => {
  it('is off by default and needs SVC_CLUB_ID when enabled', () => {
    expect(parseEdgeConnectorConfig({})).toEqual({
      enabled: false,
      kafkaConnectUrl: 'http://127.0.0.1:8083',
      clubId: undefined,
      configFile: undefined,
      stateFile: undefined,
      checkSeconds: 60,
      watchSeconds: 5,
    });
    expect(() => parseEdgeConnectorConfig({ SVC_CONNECTOR_ENABLED: 'true' })).toThrow(/SVC_CLUB_ID is required/);
    expect(() => parseEdgeConnectorConfig({ SVC_CONNECTOR_ENABLED: 'true', SVC_CLUB_ID: '' })).toThrow(/SVC_CLUB_ID is required/);
    // An empty value, as the settings sample writes it, counts as unset.
    expect(parseEdgeConnectorConfig({ SVC_CLUB_ID: '', SVC_CONNECTOR_STATE_FILE: ' ', SVC_CONNECTOR_WATCH_SECONDS: '' })).toMatchObject({
      clubId: undefined,
      stateFile: undefined,
      watchSeconds: 5,
    });
    expect(() => parseEdgeConnectorConfig({ SVC_CONNECTOR_WATCH_SECONDS: '0' })).toThrow(/SVC_CONNECTOR_WATCH_SECONDS/);
    expect(() => parseEdgeConnectorConfig({ SVC_CLUB_ID: '47 11' })).toThrow(/SVC_CLUB_ID/);
    expect(() => parseEdgeConnectorConfig({ SVC_KAFKA_CONNECT_URL: 'ftp://box' })).toThrow(/SVC_KAFKA_CONNECT_URL/);
    expect(
      parseEdgeConnectorConfig({ SVC_CONNECTOR_ENABLED: 'true', SVC_CLUB_ID: '4711', SVC_KAFKA_CONNECT_URL: 'http://connect:8083/' }),
    ).toMatchObject({
      enabled: true,
      clubId: '4711',
      kafkaConnectUrl: 'http://connect:8083',
    });
  });
});
