import { overrideSettings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import { createClub, uniqueTag, uniqueVereinsId } from '../support/fixtures';
import { useIngestTablesExclusively } from '../ingest/exclusive';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { breakClubPath, seedFailingDelivery, seedIncidentClub } from './clubFixtures';
import type { ClubOverview } from '../../shared/portal/clubOverviewSchema';

const sql = () => getSql();

interface Problem {
  status: number;
  code?: string;
  errors?: { path: string; message: string }[];
}

describe('GET /api/admin/clubs/{clubId}/overview', () => {
  useIngestTablesExclusively();
  const host = useTestHost();
  let restore: () => void;
  const tag = uniqueTag();
  let club: Awaited<ReturnType<typeof seedIncidentClub>>;
  const other = uniqueVereinsId();

  beforeAll(async () => {
    restore = overrideSettings({ SVC_INGEST_STATUS_ENABLED: 'true' });
    club = await seedIncidentClub(sql(), `Club Page ${tag}`);
  });
  beforeEach(async () => {
    // useIngestTablesExclusively empties the ingest tables before each test.
    await breakClubPath(sql(), club.vereinsId ?? '', other);
  });
  afterAll(() => restore());

  const get = async (path: string, roles: string[] = ['platform_admin'], sub = 'admin-club-page') =>
    host.request('GET', path, { headers: await bearer(sub, { roles }) });

  it('answers a platform admin with everything an operator needs for the club, in one call', async () => {
    const response = await get(`/api/admin/clubs/${club.clubId}/overview`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as ClubOverview;
    expect(body.club).toEqual({ clubId: club.clubId, vereinsId: club.vereinsId, name: club.name, status: 'active' });
    // Freshness with the evening evaluated and the rule-6 interpretation: the box checked its
    // mirror after the evening and found hits, none reached the cloud.
    expect(body.freshness.checked).toBe(true);
    expect(body.freshness.entry).toMatchObject({ status: 'stale', planSource: 'stored', hint: { code: 'transport_stalled' } });
    expect(new Date(body.freshness.entry?.evening.end ?? '').getTime()).toBeLessThan(Date.now());
    // Box signals: the token is used, the club master push has not been accepted for 72 h (refused).
    expect(body.box.edgeTokens).toMatchObject({ active: 1, revoked: 0 });
    expect(body.box.clubMaster).toMatchObject({ state: 'refused', result: { reported: 1, added: 1 } });
    expect(body.box.starterlists.state).toBe('ok');
    expect(body.box.starterlists.recent).toEqual([expect.objectContaining({ listId: 'LG-1', startersCount: 18 })]);
    expect(body.box.boxCheck).toMatchObject({ hitsAfterEvening: true });
    expect(body.box.consent.state).toBe('unknown');
    // Its topics only: five rejects of its path, not the other club's.
    const ingest = body.ingest;
    expect(ingest?.topicPrefix).toBe(`club.${club.vereinsId}.`);
    expect(ingest?.rejects).toHaveLength(5);
    expect(ingest?.rejects.every((reject) => reject.topic === `club.${club.vereinsId}.hits`)).toBe(true);
    expect(ingest?.rejects[0]?.reason).toBe('club_scope_mismatch');
    expect(ingest?.deadLetters.pending).toBe(1);
    expect(ingest?.deadLetters.recent[0]).toMatchObject({ topic: `club.${club.vereinsId}.hits`, sqlState: '23514', sequenceNumber: 42 });
    // Its path is the quarantined one, and the drift was seen on its topic.
    expect(ingest?.quarantine).toMatchObject({ topic: `club.${club.vereinsId}.hits`, clubId: club.vereinsId, entity: 'hits' });
    expect(ingest?.drift?.detail).toContain(`club.${club.vereinsId}.hits`);
    expect(body.trainingPlan).toMatchObject({ planSource: 'stored', timeZone: 'Europe/Berlin' });
    expect(body.catalog).toMatchObject({ status: 'active', reportingBoxes: 1, reportedNames: [] });
    // Leaders first, then members.
    expect(body.members).toMatchObject({ total: 3, leaders: 1, offset: 0, nextOffset: null });
    expect(body.members?.items.map((item) => item.role)).toEqual(['leader', 'member', 'member']);
  });

  it('names no quarantine or drift on the page of a club whose path is not involved', async () => {
    const bystander = await seedIncidentClub(sql(), `Club Page Bystander ${tag}`);
    const body = (await (await get(`/api/admin/clubs/${bystander.clubId}/overview`)).json()) as ClubOverview;
    expect(body.ingest).toMatchObject({
      rejects: [],
      quarantine: null,
      drift: null,
      lastReject: null,
      deadLetters: { pending: 0, recent: [] },
    });
  });

  it('pages the members with limit and offset', async () => {
    const first = (await (await get(`/api/admin/clubs/${club.clubId}/overview?limit=2`)).json()) as ClubOverview;
    expect(first.members).toMatchObject({ limit: 2, offset: 0, nextOffset: 2 });
    const second = (await (await get(`/api/admin/clubs/${club.clubId}/overview?limit=2&offset=2`)).json()) as ClubOverview;
    expect(second.members).toMatchObject({ nextOffset: null });
    const seen = [...(first.members?.items ?? []), ...(second.members?.items ?? [])].map((item) => item.userId);
    expect(new Set(seen).size).toBe(3);
    expect(seen).toEqual(expect.arrayContaining([...club.leaders, ...club.members]));
  });

  it('says why an inactive club without a club number is not checked, and has no topics to show', async () => {
    const quiet = await createClub(sql(), { name: `Club Page Inactive ${tag}`, status: 'inactive' });
    const body = (await (await get(`/api/admin/clubs/${quiet.clubId}/overview`)).json()) as ClubOverview;
    expect(body.freshness).toEqual({ checked: false, notCheckedReason: 'inactive', entry: null });
    expect(body.ingest).toBeNull();
    expect(body.box.clubMaster.state).toBe('never');
    expect(body.trainingPlan.planSource).toBe('assumed');
    expect(body.members).toMatchObject({ total: 0, items: [] });
    const numberless = await createClub(sql(), { name: `Club Page Numberless ${tag}` });
    const active = (await (await get(`/api/admin/clubs/${numberless.clubId}/overview`)).json()) as ClubOverview;
    expect(active.freshness.notCheckedReason).toBe('no_club_number');
  });

  it('answers an unknown club with a 404 problem and changes nothing', async () => {
    const response = await get('/api/admin/clubs/no-such-club/overview');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(((await response.json()) as Problem).code).toBe('club_not_found');
  });

  it('refuses callers without diagnostics.read or clubs.manage: ops_admin, the club’s own leader, no token', async () => {
    const ops = await get(`/api/admin/clubs/${club.clubId}/overview`, ['ops_admin']);
    expect(ops.status).toBe(403);
    expect(ops.headers.get('content-type')).toContain('application/problem+json');
    expect((await get(`/api/admin/clubs/${club.clubId}/overview`, [], club.leaders[0])).status).toBe(403);
    expect((await host.request('GET', `/api/admin/clubs/${club.clubId}/overview`)).status).toBe(401);
  });

  it('the diagnostics summary names the service club behind the club numbers of its ingest records', async () => {
    const response = await get('/api/admin/diagnostics/summary?limit=1');
    const body = (await response.json()) as { namedClubs: { vereinsId: string; clubId: string; name: string }[] };
    expect(body.namedClubs).toEqual([{ vereinsId: club.vereinsId, clubId: club.clubId, name: club.name }]);
  });

  it('names the field of a bad paging parameter', async () => {
    const response = await get(`/api/admin/clubs/${club.clubId}/overview?limit=0&offset=-1`);
    expect(response.status).toBe(400);
    const problem = (await response.json()) as Problem;
    expect(problem.errors?.map((error) => error.path).sort()).toEqual(['query.limit', 'query.offset']);
  });
});

describe('GET /api/admin/diagnostics/summary: delivery queue and box pushes', () => {
  const host = useTestHost();
  const tag = uniqueTag();

  it('lists a club whose box calls but whose club master push is refused, and the delivery failures by reason', async () => {
    const club = await seedIncidentClub(sql(), `AAA Summary Push ${tag}`);
    const reason = `MailboxFull: ${tag}`;
    // The push held until 2100 is counted under its channel.
    await seedFailingDelivery(sql(), club.clubId, tag, reason);
    const response = await host.request('GET', '/api/admin/diagnostics/summary?limit=1', {
      headers: await bearer('admin-summary', { roles: ['platform_admin'] }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      delivery: {
        pending: number;
        due: number;
        oldestDueAt: string | null;
        byChannel: { channel: string; pending: number; due: number; oldestDueAt: string | null }[];
        failuresByReason: { reason: string; count: number }[];
      };
      boxPushes: { staleAfterHours: number; failing: number; clubs: { clubId: string; clubMaster: string; starterlists: string }[] };
    };
    expect(body.delivery.failuresByReason).toEqual(expect.arrayContaining([{ reason, count: 1 }]));
    expect(typeof body.delivery.pending).toBe('number');
    const push = body.delivery.byChannel.find((row) => row.channel === 'push');
    expect(push?.pending).toBeGreaterThanOrEqual(1);
    expect(body.delivery.pending).toBe(body.delivery.byChannel.reduce((sum, row) => sum + row.pending, 0));
    expect(body.delivery.due).toBe(body.delivery.byChannel.reduce((sum, row) => sum + row.due, 0));
    expect(body.boxPushes.staleAfterHours).toBe(24);
    expect(body.boxPushes.failing).toBeGreaterThanOrEqual(1);
    // Among the first listed (other tests' clubs may share the year 2000).
    expect(body.boxPushes.clubs).toEqual(
      expect.arrayContaining([expect.objectContaining({ clubId: club.clubId, clubMaster: 'refused', starterlists: 'ok' })]),
    );
  });
});
