import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AgentStatus, RunError } from '../../edge/agent';
import { nextRunDelaySeconds } from '../../edge/backoff';
import type { SyncResult } from '../../shared/clubMaster/schemas';
import { functionDefinitions } from '../../functions/definitions';
import { getSql } from '../../shared/db/client';
import { createLogger } from '../../shared/log/logger';
import { parseEdgeConfig } from '../../edge/config';
import { MIRROR_CLUB_TABLE_DDL } from '../../edge/mirror';
import { startAgent, type RunningAgent } from '../../edge/startAgent';
import { freePort } from '../../development/local/net';
import { useMirrorDatabase } from '../support/mirrorDatabase';
import { useTestHost } from '../support/testHost';
import { activeVereinsIds, knownRows } from '../clubMaster/fixtures';
import { createBox } from '../support/fixtures';

const RUN = '/api/club-master-sync/run';
const STATUS = '/api/club-master-sync/status';
const CLUB_MASTER_FUNCTIONS = new Set(['clubMasterEdge', 'clubCatalog', 'clubMasterCleanup']);

/** The box agent end to end: its mirror database, its HTTP interface, and the cloud's local host. */
describe('box agent against the cloud served by the local host', () => {
  const agents: RunningAgent[] = [];
  const quiet = createLogger({ minLevel: 'error', sink: () => undefined });
  // The agents read this fixed time, so schedules are compared exactly, never against the wall clock.
  const now = new Date('2026-03-01T12:00:00.000Z');
  const clock = { now: () => now };
  const inSeconds = (seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

  const mirror = useMirrorDatabase([MIRROR_CLUB_TABLE_DDL], () => Promise.all(agents.map((agent) => agent.close())));
  // Declared after the clean-up above, so the agents stop before the clouds they push to.
  const cloud = useTestHost();
  // A release without the club master functions: the sync path falls through to the 404 group.
  const oldCloud = useTestHost(functionDefinitions.filter((definition) => !CLUB_MASTER_FUNCTIONS.has(definition.name)));

  async function agentFor(env: Record<string, string>): Promise<RunningAgent> {
    const config = parseEdgeConfig({ SVC_EDGE_PORT: '0', SVC_CLUB_MASTER_SYNC_SECONDS: '3600', ...env });
    const agent = await startAgent({ ...config, mirrorDatabaseUrl: mirror.url }, quiet, clock);
    agents.push(agent);
    return agent;
  }
  const post = (agent: RunningAgent, path = RUN) => fetch(agent.url + path, { method: 'POST' });
  const getStatus = async (agent: RunningAgent) => (await (await fetch(agent.url + STATUS)).json()) as AgentStatus;
  /** The run endpoint's body: the outcome, with `error` on a failed run, and the status after it. */
  const answer = async (response: Response) =>
    (await response.json()) as { ok: boolean; result?: SyncResult; error: RunError; status: AgentStatus };

  it('pushes the mirror clubs on run and reports the outcome in status', async () => {
    const box = await createBox(getSql());
    await mirror.sql`delete from club_software_club`;
    await mirror.sql`insert into club_software_club (vereins_id, name, deleted) values
      ('1001', 'SV Adler', false), ('1002', 'SV Birke', false), ('1003', 'SV Cobra', true)`;
    const agent = await agentFor({ SVC_EDGE_API_TOKEN: box.token, SVC_CLOUD_BASE_URL: cloud.url, SVC_CLUB_MASTER_SYNC_ENABLED: 'true' });

    const first = await post(agent);
    expect(first.status).toBe(200);
    expect((await answer(first)).ok).toBe(true);
    expect(await activeVereinsIds(getSql(), box.clubId)).toEqual(['1001', '1002']);

    await mirror.sql`update club_software_club set deleted = true where vereins_id = '1001'`;
    await mirror.sql`insert into club_software_club (vereins_id, name) values ('1004', 'SV Dachs')`;
    const second = await post(agent);
    expect(second.status).toBe(200);
    const body = await answer(second);
    expect(body.result).toEqual({ reported: 2, added: 1, restored: 0, refreshed: 1, markedDeleted: 1 });
    expect((await knownRows(getSql(), box.clubId)).map((row) => [row.vereinsId, row.sourceDeleted])).toEqual([
      ['1001', true],
      ['1002', false],
      ['1004', false],
    ]);

    const status = await getStatus(agent);
    expect(status).toMatchObject({
      enabled: true,
      intervalSeconds: 3600,
      running: false,
      lastRunAt: now.toISOString(),
      lastSuccessAt: now.toISOString(),
      lastResult: { reported: 2, added: 1, restored: 0, refreshed: 1, markedDeleted: 1, skipped: [] },
      lastError: null,
      consecutiveFailures: 0,
      nextRunAt: inSeconds(3600),
    });
    expect(JSON.stringify(status)).not.toContain(box.token);
  });

  it('pushes on its own when the push is enabled (first run at start-up)', async () => {
    const box = await createBox(getSql());
    await mirror.sql`delete from club_software_club`;
    await mirror.sql`insert into club_software_club (vereins_id, name) values ('2001', 'SV Eigenlauf')`;
    const agent = await agentFor({ SVC_EDGE_API_TOKEN: box.token, SVC_CLOUD_BASE_URL: cloud.url, SVC_CLUB_MASTER_SYNC_ENABLED: 'true' });
    // The start-up run is in flight when startAgent returns; runOnce joins it rather than pushing again
    // (a second push would report the club as refreshed, not added).
    expect(await agent.runOnce()).toMatchObject({ ok: true, result: { reported: 1, added: 1 } });
    expect(agent.status().lastResult).toMatchObject({ reported: 1, added: 1 });
    expect(await activeVereinsIds(getSql(), box.clubId)).toEqual(['2001']);
    // The next push waits for the interval (3600 s here).
    expect(agent.status().nextRunAt).toBe(inSeconds(3600));
  });

  it('reports a cloud without the endpoint as cloud_endpoint_missing and keeps the loop going with backoff', async () => {
    const box = await createBox(getSql());
    const agent = await agentFor({ SVC_EDGE_API_TOKEN: box.token, SVC_CLOUD_BASE_URL: oldCloud.url, SVC_CLUB_MASTER_SYNC_ENABLED: 'true' });
    const response = await post(agent);
    expect(response.status).toBe(502);
    const body = await answer(response);
    expect(body.error).toMatchObject({ reason: 'cloud_endpoint_missing', httpStatus: 404 });
    expect(body.error.message).toContain('no club master sync endpoint');

    const status = await getStatus(agent);
    expect(status.lastError?.reason).toBe('cloud_endpoint_missing');
    expect(status.consecutiveFailures).toBeGreaterThanOrEqual(1);
    // The loop is still scheduled with a back-off step (60 s, or 120 s when the manual run was a
    // second attempt after the start-up run) rather than the hour.
    const backoffSeconds = nextRunDelaySeconds(3600, status.consecutiveFailures);
    expect(backoffSeconds).toBeLessThanOrEqual(120);
    expect(status.nextRunAt).toBe(inSeconds(backoffSeconds));
    expect(await activeVereinsIds(getSql(), box.clubId)).toEqual([]);

    // A further run fails the same way instead of crashing the agent.
    const again = await post(agent);
    expect(again.status).toBe(502);
  });

  it('reports a rejected token as such', async () => {
    const wrongToken = await agentFor({
      SVC_EDGE_API_TOKEN: 'edge_' + 'A'.repeat(43),
      SVC_CLOUD_BASE_URL: cloud.url,
      SVC_CLUB_MASTER_SYNC_ENABLED: 'true',
    });
    expect((await answer(await post(wrongToken))).error.reason).toBe('token_rejected');
  });

  it('reports an unreachable cloud as such', async () => {
    const box = await createBox(getSql());
    const unreachable = await agentFor({
      SVC_EDGE_API_TOKEN: box.token,
      SVC_CLOUD_BASE_URL: `http://127.0.0.1:${await freePort()}`,
      SVC_CLUB_MASTER_SYNC_ENABLED: 'true',
    });
    expect((await answer(await post(unreachable))).error.reason).toBe('cloud_unreachable');
  });

  it('does not push while the push is disabled (the default)', async () => {
    const box = await createBox(getSql());
    const agent = await agentFor({ SVC_EDGE_API_TOKEN: box.token, SVC_CLOUD_BASE_URL: cloud.url });
    const response = await post(agent);
    expect(response.status).toBe(409);
    expect((await answer(response)).error.reason).toBe('sync_disabled');
    expect(await getStatus(agent)).toMatchObject({ enabled: false, lastRunAt: null, nextRunAt: null });
    expect(await knownRows(getSql(), box.clubId)).toEqual([]);
  });

  it('loses no club when one mirror row has a bad name: nothing is sent and the run names the row', async () => {
    const box = await createBox(getSql());
    await mirror.sql`delete from club_software_club`;
    await mirror.sql`insert into club_software_club (vereins_id, name) values ('2001', 'SV Erle'), ('2002', 'SV Fichte'), ('2003', 'SV Geier')`;
    const agent = await agentFor({ SVC_EDGE_API_TOKEN: box.token, SVC_CLOUD_BASE_URL: cloud.url, SVC_CLUB_MASTER_SYNC_ENABLED: 'true' });
    expect((await post(agent)).status).toBe(200);
    expect(await activeVereinsIds(getSql(), box.clubId)).toEqual(['2001', '2002', '2003']);

    // The club software now holds a name the cloud would refuse (empty after trimming).
    await mirror.sql`update club_software_club set name = '   ' where vereins_id = '2002'`;
    const second = await post(agent);
    expect(second.status).toBe(502);
    const body = await answer(second);
    expect(body.error.reason).toBe('mirror_rows_invalid');
    expect(body.error.message).toContain('2002');
    expect(body.error.message).toContain('nothing was sent');
    expect(body.status.lastError).toMatchObject({ reason: 'mirror_rows_invalid' });
    expect((await knownRows(getSql(), box.clubId)).map((row) => [row.vereinsId, row.sourceDeleted])).toEqual([
      ['2001', false],
      ['2002', false],
      ['2003', false],
    ]);

    // Once the club software is fixed, the next push goes through and still loses nothing.
    await mirror.sql`update club_software_club set name = 'SV Fichte' where vereins_id = '2002'`;
    const third = await post(agent);
    expect(third.status).toBe(200);
    expect((await answer(third)).result).toMatchObject({ reported: 3, markedDeleted: 0 });
    expect(await activeVereinsIds(getSql(), box.clubId)).toEqual(['2001', '2002', '2003']);
  });

  it("sends the box's data-sharing consent with each report, as recorded on the box", async () => {
    const bodies: unknown[] = [];
    const capture = http.createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      request.on('end', () => {
        bodies.push(JSON.parse(text));
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ reported: 1, added: 1, restored: 0, refreshed: 0, markedDeleted: 0 }));
      });
    });
    await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(path.join(os.tmpdir(), 'box-consent-report-'));
    const stateFile = path.join(dir, 'connector-state.json');
    try {
      await mirror.sql`delete from club_software_club`;
      await mirror.sql`insert into club_software_club (vereins_id, name) values ('5001', 'SV Hain')`;
      const config = parseEdgeConfig({
        SVC_EDGE_PORT: '0',
        SVC_CLUB_MASTER_SYNC_SECONDS: '3600',
        SVC_EDGE_API_TOKEN: 'edge_test',
        SVC_CLOUD_BASE_URL: `http://127.0.0.1:${(capture.address() as AddressInfo).port}`,
      });
      const agent = await startAgent({ ...config, mirrorDatabaseUrl: mirror.url, syncEnabled: true }, quiet, clock, undefined, {
        kafkaConnectUrl: `http://127.0.0.1:${await freePort()}`,
        stateFile,
        checkSeconds: 3600,
        watchSeconds: 60,
      });
      agents.push(agent);
      expect((await post(agent)).status).toBe(200);
      await fetch(agent.url + '/api/connector/consent', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ state: 'GRANTED', by: 'Board' }),
      });
      expect((await post(agent)).status).toBe(200);
      expect(bodies.slice(-2)).toEqual([
        { clubs: [{ vereinsId: '5001', name: 'SV Hain' }], consent: { state: 'NONE', changedAt: null } },
        { clubs: [{ vereinsId: '5001', name: 'SV Hain' }], consent: { state: 'GRANTED', changedAt: now.toISOString() } },
      ]);
    } finally {
      capture.closeAllConnections();
      await new Promise<void>((resolve) => capture.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** A box whose agent has pushed a mirror of the one club `vereinsId` to the cloud. */
  async function boxThatPushed(vereinsId: string, name: string) {
    const box = await createBox(getSql());
    await mirror.sql`delete from club_software_club`;
    await mirror.sql`insert into club_software_club (vereins_id, name) values (${vereinsId}, ${name})`;
    const agent = await agentFor({ SVC_EDGE_API_TOKEN: box.token, SVC_CLOUD_BASE_URL: cloud.url, SVC_CLUB_MASTER_SYNC_ENABLED: 'true' });
    expect((await post(agent)).status).toBe(200);
    return { box, agent };
  }

  it('does not push when every mirror row fails the checks (mirror_rows_invalid), keeping the cloud state', async () => {
    const { box, agent } = await boxThatPushed('3001', 'SV Gut');

    await mirror.sql`delete from club_software_club`;
    await mirror.sql`insert into club_software_club (vereins_id, name) values ('bad id', 'SV Kaputt'), ('3002', ${'\u202eSV'})`;
    const response = await post(agent);
    expect(response.status).toBe(502);
    const body = await answer(response);
    expect(body.error.reason).toBe('mirror_rows_invalid');
    expect(body.error.message).toContain('2 of 2 mirror rows');
    expect(await activeVereinsIds(getSql(), box.clubId)).toEqual(['3001']);
  });

  it("pushes [] for an empty mirror table (decommission), marking the box's clubs deleted", async () => {
    const { box, agent } = await boxThatPushed('4001', 'SV Ende');
    await mirror.sql`delete from club_software_club`;
    const response = await post(agent);
    expect(response.status).toBe(200);
    expect((await answer(response)).result).toEqual({ reported: 0, added: 0, restored: 0, refreshed: 0, markedDeleted: 1 });
    expect(await activeVereinsIds(getSql(), box.clubId)).toEqual([]);
  });

  const STATUS_TEXT: Record<number, string> = { 303: 'See Other', 400: 'Bad Request', 404: 'Not Found' };
  it.each([
    ['GET //[ HTTP/1.1', 404],
    // The root without its trailing slashes: the operator UI's redirect.
    ['GET // HTTP/1.1', 303],
    ['GET //box/api/club-master-sync/status HTTP/1.1', 404],
    ['GET * HTTP/1.1', 400],
  ])('answers a raw "%s" with %d and keeps serving', async (requestLine, expected) => {
    const agent = await agentFor({});
    const { port } = new URL(agent.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(`${requestLine}\r\nHost: x\r\nConnection: close\r\n\r\n`));
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (received += chunk));
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    expect(answer.split('\r\n')[0]).toBe(`HTTP/1.1 ${expected} ${STATUS_TEXT[expected]}`);
    expect((await fetch(agent.url + STATUS)).status).toBe(200);
  });

  it('answers 404 for unknown paths', async () => {
    const agent = await agentFor({});
    expect((await fetch(agent.url + '/api/other')).status).toBe(404);
  });

  it('answers 405 for wrong methods', async () => {
    const agent = await agentFor({});
    expect((await fetch(agent.url + RUN)).status).toBe(405);
    expect((await post(agent, STATUS)).status).toBe(405);
  });
});
