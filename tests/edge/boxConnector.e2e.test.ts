import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEdgeConfig } from '../../edge/config';
import type { ConnectorStatusView } from '../../edge/connectorManager';
import type { ConnectorSetup } from '../../edge/connectorSetup';
import { startAgent, type RunningAgent } from '../../edge/startAgent';
import { createLogger } from '../../shared/log/logger';
import { freePort } from '../../development/local/net';
import { startKafkaConnectFake, type KafkaConnectFake } from '../../development/kafkaConnectFake/fake';

const root = path.resolve(__dirname, '..', '..');
const CONNECTOR_FILE = path.join(root, 'infra', 'connector', 'debezium-club-data.json');
const NAME = 'club-data-4711';
const STATUS = '/api/connector/status';
const RESNAPSHOT = '/api/connector/resnapshot';
const CONSENT = '/api/connector/consent';

interface ActionAnswer {
  ok: boolean;
  error?: { reason: string; message: string; httpStatus?: number; step?: string };
  action: { name: string; steps: string[]; ok: boolean } | null;
  status: ConnectorStatusView;
}

/**
 * The box agent's connector management over real HTTP: the agent's box interface in front, the
 * wire-level Kafka Connect fake behind (development/kafkaConnectFake/fake.ts), whose model of Debezium
 * shows which score rows left the club.
 */
describe('box agent: score-data connector and consent gate', () => {
  const quiet = createLogger({ minLevel: 'error', sink: () => undefined });
  const clock = { now: () => new Date('2026-03-04T19:00:00.000Z') };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'box-connector-'));
  const agents: RunningAgent[] = [];
  let fake: KafkaConnectFake;
  let stateFile: string;
  let fileCounter = 0;

  beforeEach(async () => {
    fake = await startKafkaConnectFake();
    fileCounter += 1;
    stateFile = path.join(dir, `consent-${fileCounter}.json`);
  });

  afterEach(async () => {
    await Promise.all(agents.splice(0).map((agent) => agent.close()));
    await fake.close();
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function agentWith(setup: Partial<ConnectorSetup> = {}, managed = true): Promise<RunningAgent> {
    const config = parseEdgeConfig({ SVC_EDGE_PORT: '0' });
    const agent = await startAgent(
      // The agent's other channels are off; the mirror is never queried by these tests.
      { ...config, mirrorDatabaseUrl: process.env['DATABASE_URL'] ?? '' },
      quiet,
      clock,
      undefined,
      {
        kafkaConnectUrl: fake.url,
        stateFile,
        // Only the start-up check runs unless a test shortens the intervals.
        checkSeconds: 3600,
        watchSeconds: 60,
        timeoutSeconds: 5,
        conflictAttempts: 3,
        conflictDelayMs: 10,
        ...(managed ? { managed: { clubId: '4711', configFile: CONNECTOR_FILE } } : {}),
        ...setup,
      },
    );
    agents.push(agent);
    return agent;
  }

  const status = async (agent: RunningAgent) => (await (await fetch(agent.url + STATUS)).json()) as ConnectorStatusView;
  const resnapshot = async (agent: RunningAgent) => {
    const response = await fetch(agent.url + RESNAPSHOT, { method: 'POST' });
    return { status: response.status, body: (await response.json()) as ActionAnswer };
  };
  const consent = async (agent: RunningAgent, state: string, by = 'Board resolution 2026-03-01') => {
    const response = await fetch(agent.url + CONSENT, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state, by }),
    });
    return { status: response.status, body: (await response.json()) as ActionAnswer & { consent: { state: string } } };
  };
  /** Waits (bounded) until the agent's start-up check has run; the check loop is not timed here. */
  async function settled(agent: RunningAgent, done: (view: ConnectorStatusView) => boolean): Promise<ConnectorStatusView> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const view = await status(agent);
      if (done(view)) return view;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`The agent never reached the expected state: ${JSON.stringify(await status(agent))}`);
  }
  const scoreRows = () => fake.published().map((record) => `${record.op} ${record.table}/${record.id}`);
  const mutations = () => fake.requests().filter((line) => !line.startsWith('GET '));

  it('without consent never creates the connector, and no hits change leaves the club', async () => {
    fake.change('shooters', 's1');
    fake.change('hits', 'h1');
    const agent = await agentWith();
    const view = await settled(agent, (current) => current.connector?.state === 'ABSENT');

    fake.change('hits', 'h2');
    expect(view).toMatchObject({
      managed: true,
      connectorName: NAME,
      consent: { state: 'NONE', changedAt: null, changedBy: null },
      gate: 'closed',
      connector: { state: 'ABSENT' },
      tasks: [],
      reason: 'Not created: no data-sharing consent is recorded; score rows do not leave the club.',
      observeError: null,
    });
    expect(scoreRows()).toEqual([]);
    expect(mutations()).toEqual([]);
    // The club master channel needs no consent: its routes answer as before.
    expect((await fetch(agent.url + '/api/club-master-sync/status')).status).toBe(200);
  });

  it('pauses a connector it finds running without consent, before any later change is published', async () => {
    const { config } = JSON.parse(readFileSync(CONNECTOR_FILE, 'utf8')) as { config: Record<string, string> };
    fake.seed(NAME, config);
    const agent = await agentWith();
    const view = await settled(agent, (current) => current.lastAction !== null);
    fake.change('hits', 'h-after-pause');

    expect(view.tasks.map((task) => task.state)).toEqual(['PAUSED']);
    expect(view.reason).toBe('Paused: no data-sharing consent is recorded; score rows do not leave the club.');
    expect(view.lastAction).toMatchObject({ name: 'pause', ok: true, steps: [`PUT /connectors/${NAME}/pause`], error: null });
    expect(scoreRows()).toEqual([]);
  });

  it('grant runs the connector (snapshot, then changes), revoke pauses it, and a restart keeps the revocation', async () => {
    fake.change('shooters', 's1');
    fake.change('hits', 'h1');
    const agent = await agentWith();
    await settled(agent, (current) => current.connector?.state === 'ABSENT');
    expect(scoreRows()).toEqual([]);

    const granted = await consent(agent, 'GRANTED');
    expect(granted.status).toBe(200);
    expect(granted.body.consent).toMatchObject({
      state: 'GRANTED',
      changedBy: 'Board resolution 2026-03-01',
      changedAt: '2026-03-04T19:00:00.000Z',
    });
    expect(granted.body.status).toMatchObject({ gate: 'open', connector: { state: 'RUNNING' }, tasks: [{ id: 0, state: 'RUNNING' }] });
    expect(granted.body.action).toMatchObject({ name: 'create', ok: true, steps: [`PUT /connectors/${NAME}/config`] });
    expect(fake.connector(NAME)?.config['connector.class']).toBe('io.debezium.connector.postgresql.PostgresConnector');
    fake.change('hits', 'h2');
    expect(scoreRows()).toEqual(['r shooters/s1', 'r hits/h1', 'c hits/h2']);

    const revoked = await consent(agent, 'REVOKED', 'Club board');
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toMatchObject({
      gate: 'closed',
      connector: { state: 'PAUSED' },
      reason: 'Paused: the data-sharing consent is REVOKED; score rows do not leave the club.',
      lastAction: { name: 'pause', ok: true, error: null },
    });
    fake.change('hits', 'h3');
    fake.change('shooters', 's2', 'u');
    expect(scoreRows()).toEqual(['r shooters/s1', 'r hits/h1', 'c hits/h2']);

    // The decision is on disk: a restarted agent keeps the gate closed and does not resume.
    expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toEqual({
      consent: { state: 'REVOKED', changedAt: '2026-03-04T19:00:00.000Z', changedBy: 'Club board' },
    });
    await agent.close();
    agents.splice(agents.indexOf(agent), 1);
    const restarted = await agentWith();
    const after = await status(restarted);
    expect(after).toMatchObject({ consent: { state: 'REVOKED' }, gate: 'closed', connector: { state: 'PAUSED' } });
    expect(scoreRows()).toHaveLength(3);

    // Granted again, the connector resumes where it stopped: what changed meanwhile leaves now.
    const regranted = await consent(restarted, 'GRANTED');
    expect(regranted.body.action).toMatchObject({ name: 'resume', ok: true });
    expect(scoreRows()).toEqual(['r shooters/s1', 'r hits/h1', 'c hits/h2', 'c hits/h3', 'u shooters/s2']);
  });

  it('brings a configuration changed by hand back to the file while consent is GRANTED', async () => {
    writeFileSync(stateFile, JSON.stringify({ consent: { state: 'GRANTED', changedAt: '2026-03-01T00:00:00.000Z', changedBy: 'x' } }));
    const { config } = JSON.parse(readFileSync(CONNECTOR_FILE, 'utf8')) as { config: Record<string, string> };
    fake.seed(NAME, { ...config, 'tasks.max': '4' }, 'PAUSED');
    const agent = await agentWith();
    const view = await settled(agent, (current) => current.lastAction !== null && current.connector?.state === 'RUNNING');
    expect(view.lastAction).toMatchObject({
      name: 'update_config',
      ok: true,
      steps: [`PUT /connectors/${NAME}/config`, `PUT /connectors/${NAME}/resume`],
    });
    expect(fake.connector(NAME)?.config['tasks.max']).toBe('1');
  });

  it('Reset and Re-Snapshot deletes, recreates and snapshots the club again', async () => {
    fake.change('shooters', 's1');
    fake.change('hits', 'h1');
    const agent = await agentWith();
    await consent(agent, 'GRANTED');
    expect(scoreRows()).toEqual(['r shooters/s1', 'r hits/h1']);
    const before = fake.requests().length;

    const answer = await resnapshot(agent);

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      ok: true,
      action: {
        name: 'resnapshot',
        ok: true,
        steps: [
          `DELETE /connectors/${NAME}`,
          'POST /connectors (initial_state STOPPED)',
          `DELETE /connectors/${NAME}/offsets`,
          `PUT /connectors/${NAME}/resume`,
        ],
      },
      status: { connector: { state: 'RUNNING' }, lastAction: { name: 'resnapshot', ok: true, error: null } },
    });
    expect(
      fake
        .requests()
        .slice(before)
        .filter((line) => !line.startsWith('GET ')),
    ).toEqual([
      `DELETE /connectors/${NAME} 204`,
      'POST /connectors 201',
      `DELETE /connectors/${NAME}/offsets 200`,
      `PUT /connectors/${NAME}/resume 202`,
    ]);
    // A full snapshot again, not a resume from the old offset.
    expect(scoreRows()).toEqual(['r shooters/s1', 'r hits/h1', 'r shooters/s1', 'r hits/h1']);
  });

  it('refuses a re-snapshot without GRANTED consent and calls nothing on Kafka Connect', async () => {
    fake.change('hits', 'h1');
    const agent = await agentWith();
    await settled(agent, (current) => current.connector?.state === 'ABSENT');

    const answer = await resnapshot(agent);

    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({ reason: 'consent_not_granted' });
    expect(answer.body.error?.message).toMatch(/NONE, not GRANTED/);
    expect(answer.body.status.lastAction).toMatchObject({ name: 'resnapshot', ok: false, error: { reason: 'consent_not_granted' } });
    expect(mutations()).toEqual([]);
    expect(scoreRows()).toEqual([]);
  });

  it('re-snapshots a connector that does not exist yet (DELETE answers 404)', async () => {
    writeFileSync(stateFile, JSON.stringify({ consent: { state: 'GRANTED', changedAt: '2026-03-01T00:00:00.000Z', changedBy: 'x' } }));
    fake.change('hits', 'h1');
    const agent = await agentWith();
    await settled(agent, (current) => current.connector?.state === 'RUNNING');
    // Deleted by hand on Kafka Connect before the operator presses the button.
    expect((await fetch(`${fake.url}/connectors/${NAME}`, { method: 'DELETE' })).status).toBe(204);

    const answer = await resnapshot(agent);

    expect(answer.status).toBe(200);
    expect(fake.requests()).toContain(`DELETE /connectors/${NAME} 404`);
  });

  it('retries a 409 (rebalance in progress) and succeeds', async () => {
    writeFileSync(stateFile, JSON.stringify({ consent: { state: 'GRANTED', changedAt: '2026-03-01T00:00:00.000Z', changedBy: 'x' } }));
    const agent = await agentWith();
    await settled(agent, (current) => current.connector?.state === 'RUNNING');
    fake.rebalance(2);

    const answer = await resnapshot(agent);

    expect(answer.status).toBe(200);
    expect(fake.requests().filter((line) => line.startsWith(`DELETE /connectors/${NAME} `))).toEqual([
      `DELETE /connectors/${NAME} 409`,
      `DELETE /connectors/${NAME} 409`,
      `DELETE /connectors/${NAME} 204`,
    ]);
  });

  it('reports a 409 that outlasts the retries, naming the step, in the answer and the status', async () => {
    writeFileSync(stateFile, JSON.stringify({ consent: { state: 'GRANTED', changedAt: '2026-03-01T00:00:00.000Z', changedBy: 'x' } }));
    const agent = await agentWith();
    await settled(agent, (current) => current.connector?.state === 'RUNNING');
    fake.failNext({ method: 'POST', path: /^\/connectors$/, status: 409, times: 3 });

    const answer = await resnapshot(agent);

    expect(answer.status).toBe(502);
    expect(answer.body.error).toEqual({
      reason: 'rebalance_in_progress',
      httpStatus: 409,
      step: 'POST /connectors (initial_state STOPPED)',
      message:
        'Kafka Connect POST /connectors answered 409: Cannot complete request momentarily due to stale configuration (typically caused by a concurrent config change) (still after 3 attempts).',
    });
    // The delete went through, the create did not: the status says the connector is gone and why.
    const view = await status(agent);
    expect(view.lastAction).toMatchObject({ name: 'resnapshot', ok: false, error: { reason: 'rebalance_in_progress' } });
    expect(view.connector).toMatchObject({ state: 'ABSENT' });
  });

  it('reports a 404 in the middle of a re-snapshot (the connector deleted by someone else)', async () => {
    writeFileSync(stateFile, JSON.stringify({ consent: { state: 'GRANTED', changedAt: '2026-03-01T00:00:00.000Z', changedBy: 'x' } }));
    const agent = await agentWith();
    await settled(agent, (current) => current.connector?.state === 'RUNNING');
    fake.failNext({ method: 'DELETE', path: /\/offsets$/, status: 404, message: `Connector ${NAME} not found` });

    const answer = await resnapshot(agent);

    expect(answer.status).toBe(502);
    expect(answer.body.error).toMatchObject({
      reason: 'connector_not_found',
      httpStatus: 404,
      step: `DELETE /connectors/${NAME}/offsets`,
      message: `Kafka Connect DELETE /connectors/${NAME}/offsets answered 404: Connector ${NAME} not found.`,
    });
  });

  it('reports Kafka Connect being down in status, re-snapshot and consent, and keeps the consent it was given', async () => {
    const agent = await agentWith({ kafkaConnectUrl: `http://127.0.0.1:${await freePort()}` });
    const view = await settled(agent, (current) => current.lastAction !== null);
    expect(view).toMatchObject({
      connector: null,
      tasks: [],
      observeError: { reason: 'connect_unreachable' },
      lastAction: { name: 'check', ok: false, error: { reason: 'connect_unreachable' } },
    });
    expect(view.reason).toMatch(/^Unknown: Kafka Connect at http:\/\/127\.0\.0\.1:\d+ could not be reached/);

    const granted = await consent(agent, 'GRANTED');
    expect(granted.status).toBe(502);
    expect(granted.body.consent).toMatchObject({ state: 'GRANTED' });
    expect(granted.body.error).toMatchObject({ reason: 'connect_unreachable' });

    const answer = await resnapshot(agent);
    expect(answer.status).toBe(502);
    expect(answer.body.error).toMatchObject({ reason: 'connect_unreachable', step: `DELETE /connectors/${NAME}` });
  });

  it('once Kafka Connect answers again, the status shows the pending pause and the next check enforces it', async () => {
    const port = await freePort();
    const agent = await agentWith({ kafkaConnectUrl: `http://127.0.0.1:${port}` });
    await settled(agent, (current) => current.lastAction !== null);
    const revoked = await consent(agent, 'REVOKED');
    expect(revoked.status).toBe(502);
    expect(revoked.body.consent.state).toBe('REVOKED');

    // Kafka Connect comes back on its port with the connector still running there.
    const { config } = JSON.parse(readFileSync(CONNECTOR_FILE, 'utf8')) as { config: Record<string, string> };
    const back = await startKafkaConnectFake({ port });
    try {
      back.seed(NAME, config);
      const pending = await status(agent);
      expect(pending).toMatchObject({ gate: 'closed', connector: { state: 'RUNNING' }, observeError: null });
      expect(pending.reason).toBe(
        'Paused: the data-sharing consent is REVOKED; score rows do not leave the club. (not yet: next step pause club-data-4711)',
      );

      // The same consent file, read by the agent's next start-up check: the connector is paused.
      await agent.close();
      agents.splice(agents.indexOf(agent), 1);
      const next = await agentWith({ kafkaConnectUrl: back.url });
      const view = await settled(next, (current) => current.lastAction !== null);
      expect(view).toMatchObject({
        consent: { state: 'REVOKED' },
        connector: { state: 'PAUSED' },
        lastAction: { name: 'pause', ok: true },
      });
    } finally {
      await Promise.all(agents.splice(0).map((running) => running.close()));
      await back.close();
    }
  });

  it('rejects a bad consent body, naming the field, and changes nothing', async () => {
    const agent = await agentWith();
    await settled(agent, (current) => current.connector?.state === 'ABSENT');
    const bad = await fetch(agent.url + CONSENT, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'granted', by: '' }),
    });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { errors: { path: string }[] };
    expect(body.errors.map((error) => error.path).sort()).toEqual(['body.by', 'body.state']);
    const notJson = await fetch(agent.url + CONSENT, { method: 'PUT', body: '{' });
    expect(notJson.status).toBe(400);
    expect((await fetch(agent.url + CONSENT, { method: 'POST' })).status).toBe(405);
    expect((await status(agent)).consent.state).toBe('NONE');
    expect(mutations()).toEqual([]);
  });

  it('fails closed on an unreadable consent file and says so', async () => {
    writeFileSync(stateFile, '{"consent": {"state": "YES"}}');
    const { config } = JSON.parse(readFileSync(CONNECTOR_FILE, 'utf8')) as { config: Record<string, string> };
    fake.seed(NAME, config);
    const agent = await agentWith();
    const view = await settled(agent, (current) => current.connector?.state === 'PAUSED');
    expect(view.consent).toMatchObject({ state: 'NONE', problem: `The consent file ${stateFile} holds no valid consent state.` });
  });

  it('without connector management still pauses a score connector created by hand, and leaves other connectors alone', async () => {
    const { config } = JSON.parse(readFileSync(CONNECTOR_FILE, 'utf8')) as { config: Record<string, string> };
    fake.seed('hand-made-scores', { ...config, 'table.include.list': 'public\\.hits' });
    fake.seed('other-tables', { ...config, 'table.include.list': 'public.lanes' });
    fake.seed('file-source', { 'connector.class': 'FileStreamSource', file: '/tmp/x', topic: 'x' });
    const agent = await agentWith({}, false);
    const view = await settled(agent, (current) => current.lastAction !== null);
    fake.change('hits', 'h-after-pause');

    expect(view).toMatchObject({ managed: false, connectorName: null, gate: 'closed', connector: null });
    expect(view.scoreConnectors).toEqual([{ name: 'hand-made-scores', state: 'PAUSED', managed: false }]);
    expect(view.lastAction).toMatchObject({ name: 'pause', ok: true, steps: ['PUT /connectors/hand-made-scores/pause'] });
    expect(fake.connector('other-tables')?.target).toBe('STARTED');
    expect(fake.connector('file-source')?.target).toBe('STARTED');
    expect(scoreRows().filter((row) => row.endsWith('h-after-pause'))).toEqual([]);
    // Without a managed connector there is nothing to re-snapshot; consent is still recorded.
    expect((await resnapshot(agent)).body.error).toMatchObject({ reason: 'connector_not_managed' });
    expect((await consent(agent, 'GRANTED')).status).toBe(200);
    // Granting does not resume a connector the agent does not manage: that stays the operator's.
    expect(fake.connector('hand-made-scores')?.target).toBe('PAUSED');
  });

  it('pauses again within the watch interval a connector resumed by hand while consent is REVOKED', async () => {
    const agent = await agentWith({ watchSeconds: 1 });
    expect((await consent(agent, 'GRANTED')).status).toBe(200);
    expect((await consent(agent, 'REVOKED')).status).toBe(200);
    expect(fake.connector(NAME)?.target).toBe('PAUSED');

    const resumed = await fetch(`${fake.url}/connectors/${NAME}/resume`, { method: 'PUT' });
    expect(resumed.status).toBe(202);
    const resumedAt = Date.now();
    // Bound: one watch interval (1 s) plus the check's own calls; well under the 60 s of the old check loop.
    while (fake.connector(NAME)?.target !== 'PAUSED' && Date.now() - resumedAt < 5000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(fake.connector(NAME)?.target).toBe('PAUSED');
    expect(Date.now() - resumedAt).toBeLessThan(5000);
    fake.change('hits', 'h-after-repause');
    expect(scoreRows().filter((row) => row.endsWith('h-after-repause'))).toEqual([]);
    expect((await status(agent)).lastAction).toMatchObject({ name: 'pause', trigger: 'check', ok: true });
  });

  it('keeps every consent change in the audit log beside the consent file: who, when, from and to', async () => {
    const agent = await agentWith();
    await consent(agent, 'GRANTED', 'Board resolution 2026-03-01');
    await consent(agent, 'REVOKED', 'Chair, phone call');
    const answer = await fetch(agent.url + '/api/connector/consent/audit');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      entries: [
        { at: clock.now().toISOString(), by: 'Board resolution 2026-03-01', from: 'NONE', to: 'GRANTED' },
        { at: clock.now().toISOString(), by: 'Chair, phone call', from: 'GRANTED', to: 'REVOKED' },
      ],
    });
    expect(
      readFileSync(stateFile.replace(/\.json$/, '.audit.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(2);
  });

  it('an in-process agent started without the gate says so', async () => {
    const config = parseEdgeConfig({ SVC_EDGE_PORT: '0' });
    const agent = await startAgent({ ...config, mirrorDatabaseUrl: process.env['DATABASE_URL'] ?? '' }, quiet, clock);
    agents.push(agent);
    expect(await status(agent)).toEqual({ enabled: false });
    const answer = await fetch(agent.url + RESNAPSHOT, { method: 'POST' });
    expect(answer.status).toBe(409);
    expect(fake.requests()).toEqual([]);
  });
});
