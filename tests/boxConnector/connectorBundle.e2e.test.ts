import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startKafkaConnectFake, type KafkaConnectFake } from '../../scripts/kafkaConnectFake/fake';
import { freePort } from '../../scripts/local/net';

const root = path.resolve(__dirname, '..', '..');

/**
 * The agent bundle as a box runs it, with the connector file and the consent file beside it (their
 * defaults when the settings leave them empty), managing the connector on a Kafka Connect fake.
 */
describe('the box agent bundle with connector management', () => {
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'edge-connector-bundle-'));
  const bundle = path.join(outdir, 'edge-agent.js');
  const children: ChildProcess[] = [];
  let fake: KafkaConnectFake;

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, ['scripts/build.mjs', '--outdir', outdir], { cwd: root });
    fake = await startKafkaConnectFake();
  }, 60_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await fake.close();
    rmSync(outdir, { recursive: true, force: true });
  });

  function startBundle(env: Record<string, string>) {
    const child = spawn(process.execPath, [bundle], {
      cwd: outdir,
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const printed = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => output.includes(text) && resolve();
        child.stdout?.on('data', check);
        child.once('exit', () => reject(new Error(`The agent exited: ${output}`)));
        check();
      });
    return { child, output: () => output, exited, printed };
  }

  const settings = (port: number) => ({
    SVC_MIRROR_DATABASE_URL: process.env['DATABASE_URL'] ?? '',
    SVC_EDGE_PORT: String(port),
    SVC_CONNECTOR_ENABLED: 'true',
    SVC_CLUB_ID: '4711',
    SVC_KAFKA_CONNECT_URL: fake.url,
  });

  it('refuses to start without the connector file beside it, naming the file', async () => {
    const agent = startBundle(settings(await freePort()));
    expect(await agent.exited).toBe(1);
    expect(agent.output()).toContain(
      `Start-up failed: The connector configuration file ${path.join(outdir, 'debezium-club-data.json')} could not be read`,
    );
  }, 30_000);

  it('reads the connector file beside it, keeps the consent beside it and creates the connector once GRANTED', async () => {
    copyFileSync(path.join(root, 'infra', 'connector', 'debezium-club-data.json'), path.join(outdir, 'debezium-club-data.json'));
    const port = await freePort();
    const agent = startBundle(settings(port));
    await agent.printed('Connector: managed on');

    const answer = await fetch(`http://127.0.0.1:${port}/api/connector/consent`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'GRANTED', by: 'Club board' }),
    });
    expect(answer.status).toBe(200);
    expect(fake.connector('club-data-4711')).toMatchObject({ target: 'STARTED' });
    const stateFile = path.join(outdir, 'connector-state.json');
    expect(existsSync(stateFile)).toBe(true);
    expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toMatchObject({ consent: { state: 'GRANTED', changedBy: 'Club board' } });

    agent.child.kill('SIGTERM');
    expect(await agent.exited).toBe(0);
  }, 60_000);
});
