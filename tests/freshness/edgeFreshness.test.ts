import postgres from 'postgres';
import { MIRROR_HIT_TABLE_DDL, createBoxFreshness } from '../../edge/boxFreshness';
import { parseEdgeConfig } from '../../edge/config';
import { FRESHNESS_RUN_PATH, FRESHNESS_STATUS_PATH, STARTERLIST_RUN_PATH, STARTERLIST_STATUS_PATH } from '../../edge/freshnessRoutes';
import { MIRROR_CLUB_TABLE_DDL } from '../../edge/mirror';
import { startAgent, type RunningAgent } from '../../edge/startAgent';
import { MIRROR_STARTERLIST_TABLE_DDL, eveningDates } from '../../edge/starterlistPush';
import { functionDefinitions } from '../../functions/definitions';
import { getSql } from '../../shared/db/client';
import { createLogger } from '../../shared/log/logger';
import { useMirrorDatabase } from '../support/mirrorDatabase';
import { useTestHost } from '../support/testHost';
import { createFreshnessClub } from './fixtures';
import { addEdgeToken } from '../support/fixtures';

/** The box's starter-list push and its own freshness check, against the cloud on the local host. */
describe('box agent: starter lists and the box-side check', () => {
  const agents: RunningAgent[] = [];
  const quiet = createLogger({ minLevel: 'error', sink: () => undefined });

  const mirror = useMirrorDatabase([MIRROR_CLUB_TABLE_DDL, MIRROR_STARTERLIST_TABLE_DDL, MIRROR_HIT_TABLE_DDL], () =>
    Promise.all(agents.map((agent) => agent.close())),
  );
  // Declared after the clean-up above, so the agents stop before the clouds they push to.
  const cloud = useTestHost();
  // A release without the starter-list function.
  const oldCloud = useTestHost(functionDefinitions.filter((definition) => definition.name !== 'starterlists'));

  async function agentFor(token: string, cloudUrl: string, enabled = true): Promise<RunningAgent> {
    const config = parseEdgeConfig({ SVC_EDGE_PORT: '0', SVC_EDGE_API_TOKEN: token, SVC_CLOUD_BASE_URL: cloudUrl });
    const agent = await startAgent({ ...config, mirrorDatabaseUrl: mirror.url }, quiet, undefined, {
      starterlistSyncEnabled: enabled,
      starterlistSyncSeconds: 3600,
    });
    agents.push(agent);
    return agent;
  }

  it("pushes today's starter lists, with no personal data, and the cloud records lastStarterlistSeenAt", async () => {
    const club = await createFreshnessClub(getSql());
    const token = await addEdgeToken(getSql(), club.clubId);
    const [, today] = eveningDates(new Date());
    await mirror.sql`delete from club_software_starterlist`;
    await mirror.sql`insert into club_software_starterlist (id, name, list_date, discipline, lane_count, starters_count) values
      ('today-1', 'Luftgewehr Abend', ${today}::date, 'Luftgewehr', 12, 18),
      ('old-1', 'Alte Liste', date '2020-01-01', 'Luftpistole', 8, 4)`;
    const agent = await agentFor(token, cloud.url);

    const response = await fetch(agent.url + STARTERLIST_RUN_PATH, { method: 'POST' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, result: { received: 1 } });
    const rows =
      await getSql()`select list_id, name, discipline, lane_count, starters_count from edge_starterlist where club_id = ${club.clubId}`;
    expect(rows).toEqual([{ list_id: 'today-1', name: 'Luftgewehr Abend', discipline: 'Luftgewehr', lane_count: 12, starters_count: 18 }]);
    const [signal] = await getSql()`select last_starterlist_seen_at from edge_box_signal where club_id = ${club.clubId}`;
    expect(signal!['last_starterlist_seen_at']).toBeInstanceOf(Date);

    const status = (await (await fetch(agent.url + STARTERLIST_STATUS_PATH)).json()) as Record<string, unknown>;
    expect(status).toMatchObject({ enabled: true, intervalSeconds: 3600, lastError: null, consecutiveFailures: 0 });
    expect(JSON.stringify(status)).not.toContain(token);
  });

  it('reports a cloud without the endpoint as cloud_endpoint_missing (502), like the club master push', async () => {
    const club = await createFreshnessClub(getSql());
    const token = await addEdgeToken(getSql(), club.clubId);
    const agent = await agentFor(token, oldCloud.url);
    const response = await fetch(agent.url + STARTERLIST_RUN_PATH, { method: 'POST' });
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: unknown }).error).toMatchObject({ reason: 'cloud_endpoint_missing', httpStatus: 404 });
  });

  it('answers 409 to a manual run while the push is disabled', async () => {
    const club = await createFreshnessClub(getSql());
    const agent = await agentFor(await addEdgeToken(getSql(), club.clubId), cloud.url, false);
    expect((await fetch(agent.url + STARTERLIST_RUN_PATH, { method: 'POST' })).status).toBe(409);
  });

  describe('the Thursday check', () => {
    /** The agent of a new club, with its starter-list push off. */
    const quietAgent = async () => {
      const club = await createFreshnessClub(getSql());
      return agentFor(await addEdgeToken(getSql(), club.clubId), cloud.url, false);
    };

    it('GET /api/freshness/status shows the Thursday check before any run', async () => {
      const agent = await quietAgent();
      const before = (await (await fetch(agent.url + FRESHNESS_STATUS_PATH)).json()) as Record<string, unknown>;
      expect(before).toMatchObject({ schedule: 'Thursdays 05:00 UTC', lastCheck: null, lastError: null });
      expect(new Date(before['nextCheckAt'] as string).getUTCDay()).toBe(4);
    });

    it('a run over a mirror without hits after the evening is red', async () => {
      const agent = await quietAgent();
      await mirror.sql`delete from club_software_hit`;
      const red = await fetch(agent.url + FRESHNESS_RUN_PATH, { method: 'POST' });
      expect(red.status).toBe(200);
      expect(((await red.json()) as { lastCheck: unknown }).lastCheck).toMatchObject({ result: 'red', hitsAfterEvening: false });
    });

    it('a run over a mirror with a hit after the evening is green', async () => {
      const agent = await quietAgent();
      await mirror.sql`delete from club_software_hit`;
      await mirror.sql`insert into club_software_hit (id, shot_at) values ('h1', now())`;
      const green = (await (await fetch(agent.url + FRESHNESS_RUN_PATH, { method: 'POST' })).json()) as { lastCheck: unknown };
      expect(green.lastCheck).toMatchObject({ result: 'green', hitsAfterEvening: true });
    });
  });

  it('sends the box check along, so the cloud can tell "box green, cloud red"', async () => {
    const club = await createFreshnessClub(getSql());
    const token = await addEdgeToken(getSql(), club.clubId);
    await mirror.sql`delete from club_software_hit`;
    await mirror.sql`insert into club_software_hit (id, shot_at) values ('h2', now())`;
    const agent = await agentFor(token, cloud.url);
    await fetch(agent.url + FRESHNESS_RUN_PATH, { method: 'POST' });
    // The first call may join the push the agent started at start-up, before the check ran.
    await fetch(agent.url + STARTERLIST_RUN_PATH, { method: 'POST' });
    await fetch(agent.url + STARTERLIST_RUN_PATH, { method: 'POST' });
    const [signal] = await getSql()`select box_check_hits_after, box_check_at from edge_box_signal where club_id = ${club.clubId}`;
    expect(signal!['box_check_hits_after']).toBe(true);
    expect(signal!['box_check_at']).toBeInstanceOf(Date);
  });

  it('a check against an unreadable mirror is reported, not thrown', async () => {
    const broken = postgres('postgres://postgres@127.0.0.1:1/none', { max: 1, connect_timeout: 2, onnotice: () => undefined });
    const check = createBoxFreshness(broken, { now: () => new Date('2026-11-19T05:00:00Z') });
    const outcome = await check.runOnce();
    expect((outcome as { error: string }).error).toContain('mirror database could not be read');
    expect(check.status().lastError).toMatchObject({ at: '2026-11-19T05:00:00.000Z' });
    await broken.end();
  });
});
