import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startKafkaConnectFake } from '../../development/kafkaConnectFake/fake';
import { freePort } from '../../development/local/net';
import { useAround } from '../support/around';
import { useBundles } from '../support/bundles';

const root = path.resolve(__dirname, '..', '..');

/**
 * The agent bundle as a box runs it, with the connector file and the consent file beside it (their
 * defaults when the settings leave them empty), managing the connector on a Kafka Connect kafkaConnect().
 */
describe('the box agent bundle with connector management', () => {
  const bundles = useBundles('edge-connector-bundle');
  const kafkaConnect = useAround(
    'the Kafka Connect fake',
    () => startKafkaConnectFake(),
    (started) => started.close(),
  );

  const startBundle = (env: Record<string, string>) => bundles.start('edge-agent', env);

  const settings = (port: number) => ({
    SVC_MIRROR_DATABASE_URL: process.env['DATABASE_URL'] ?? '',
    SVC_EDGE_PORT: String(port),
    SVC_CONNECTOR_ENABLED: 'true',
    SVC_CLUB_ID: '4711',
    SVC_KAFKA_CONNECT_URL: kafkaConnect().url,
  });

  it('refuses to start without the connector file beside it, naming the file', async () => {
    const agent = startBundle(settings(await freePort()));
    expect(await agent.exited).toBe(1);
    expect(agent.output()).toContain(
      `Start-up failed: The connector configuration file ${path.join(bundles.outdir, 'debezium-club-data.json')} could not be read`,
    );
  }, 30_000);

  it('reads the connector file beside it, keeps the consent beside it and creates the connector once GRANTED', async () => {
    copyFileSync(path.join(root, 'infra', 'connector', 'debezium-club-data.json'), path.join(bundles.outdir, 'debezium-club-data.json'));
    const port = await freePort();
    const agent = startBundle(settings(port));
    await agent.printed('manages the score-data connector');

    const answer = await fetch(`http://127.0.0.1:${port}/api/connector/consent`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'GRANTED', by: 'Club board' }),
    });
    expect(answer.status).toBe(200);
    expect(kafkaConnect().connector('club-data-4711')).toMatchObject({ target: 'STARTED' });
    const stateFile = path.join(bundles.outdir, 'connector-state.json');
    expect(existsSync(stateFile)).toBe(true);
    expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toMatchObject({ consent: { state: 'GRANTED', changedBy: 'Club board' } });
    expect(JSON.parse(readFileSync(path.join(bundles.outdir, 'connector-state.audit.jsonl'), 'utf8'))).toMatchObject({
      by: 'Club board',
      from: 'NONE',
      to: 'GRANTED',
    });

    agent.child.kill('SIGTERM');
    expect(await agent.exited).toBe(0);
  }, 60_000);

  it('gates by default: without SVC_CONNECTOR_ENABLED it pauses a score connector running without consent', async () => {
    const { config } = JSON.parse(readFileSync(path.join(root, 'infra', 'connector', 'debezium-club-data.json'), 'utf8')) as {
      config: Record<string, string>;
    };
    kafkaConnect().seed('club-data-by-hand', config);
    const port = await freePort();
    const agent = startBundle({
      SVC_MIRROR_DATABASE_URL: process.env['DATABASE_URL'] ?? '',
      SVC_EDGE_PORT: String(port),
      SVC_KAFKA_CONNECT_URL: kafkaConnect().url,
      // A state file of its own: the previous case left a GRANTED consent beside the bundle.
      SVC_CONNECTOR_STATE_FILE: path.join(bundles.outdir, 'gate-only-state.json'),
    });
    await agent.printed('manages no connector (SVC_CONNECTOR_ENABLED=false)');
    for (let attempt = 0; attempt < 100 && kafkaConnect().connector('club-data-by-hand')?.target !== 'PAUSED'; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(kafkaConnect().connector('club-data-by-hand')?.target).toBe('PAUSED');

    agent.child.kill('SIGTERM');
    expect(await agent.exited).toBe(0);
  }, 60_000);
});
