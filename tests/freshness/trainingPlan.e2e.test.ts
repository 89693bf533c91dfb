import { getSql } from '../../shared/db/client';
import { runFreshnessCheck } from '../../shared/freshness/freshnessTimer';
import { createLogger } from '../../shared/log/logger';
import { bearer } from '../support/tokens';
import { useTestHost } from '../support/testHost';
import { useFreshnessCheckExclusively } from './exclusive';
import { addHit, createFreshnessClub } from './fixtures';

const sql = () => getSql();
const planPath = (clubId: string) => `/api/admin/clubs/${clubId}/training-plan`;
const TWO_EVENINGS = {
  timeZone: 'Europe/Berlin',
  evenings: [
    { weekday: 'tuesday', start: '18:30', end: '21:00' },
    { weekday: 'friday', start: '20:00', end: '00:30', endsNextDay: true },
  ],
};

// The freshness check evaluates every club at its instant: files that run it take turns.
useFreshnessCheckExclusively();

describe('GET/PUT /api/admin/clubs/{clubId}/training-plan', () => {
  let club: Awaited<ReturnType<typeof createFreshnessClub>>;
  let other: Awaited<ReturnType<typeof createFreshnessClub>>;

  const host = useTestHost();
  beforeAll(async () => {
    club = await createFreshnessClub(sql(), { leaders: 1, members: 1 });
    other = await createFreshnessClub(sql(), { leaders: 1 });
  });

  it('answers the default Wednesday 18:00-20:00 as planSource assumed while nothing is stored', async () => {
    const response = await host.request('GET', planPath(club.clubId), { headers: await bearer(club.leaders[0]!) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      clubId: club.clubId,
      planSource: 'assumed',
      timeZone: 'Europe/Berlin',
      evenings: [{ weekday: 'wednesday', start: '18:00', end: '20:00', endsNextDay: false }],
      updatedAt: null,
    });
  });

  it('stores a plan for the club leader and then answers it as stored', async () => {
    const put = await host.request('PUT', planPath(club.clubId), { headers: await bearer(club.leaders[0]!), json: TWO_EVENINGS });
    expect(put.status).toBe(200);
    const get = await host.request('GET', planPath(club.clubId), { headers: await bearer('admin-1', { roles: ['platform_admin'] }) });
    const body = (await get.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      planSource: 'stored',
      timeZone: 'Europe/Berlin',
      evenings: [
        { weekday: 'tuesday', start: '18:30', end: '21:00', endsNextDay: false },
        { weekday: 'friday', start: '20:00', end: '00:30', endsNextDay: true },
      ],
    });
    expect(typeof body['updatedAt']).toBe('string');
    const [row] = await sql()`select updated_by from club_training_plan where club_id = ${club.clubId}`;
    expect(row).toEqual({ updated_by: club.leaders[0] });
  });

  it('lets a platform admin (clubs.manage) store a plan for any club', async () => {
    const response = await host.request('PUT', planPath(other.clubId), {
      headers: await bearer('admin-2', { roles: ['platform_admin'] }),
      json: { evenings: [{ weekday: 'monday', start: '19:00', end: '21:00' }] },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ planSource: 'stored', timeZone: 'Europe/Berlin' });
  });

  describe('who may not', () => {
    it.each<[string, () => Promise<Record<string, string>>, number]>([
      ['no token', () => Promise.resolve({}), 401],
      ['a member of the club', () => bearer(club.members[0]!), 403],
      ['the leader of another club', () => bearer(other.leaders[0]!), 403],
      ['ops_admin (diagnostics, not clubs.manage)', () => bearer('ops-1', { roles: ['ops_admin'] }), 403],
      ['support_admin', () => bearer('support-1', { roles: ['support_admin'] }), 403],
    ])('%s: GET and PUT refused, nothing stored', async (_label, headers, status) => {
      const [before] = await sql()`select evenings from club_training_plan where club_id = ${club.clubId}`;
      const get = await host.request('GET', planPath(club.clubId), { headers: await headers() });
      const put = await host.request('PUT', planPath(club.clubId), {
        headers: await headers(),
        json: { evenings: [{ weekday: 'sunday', start: '10:00', end: '12:00' }] },
      });
      expect([get.status, put.status]).toEqual([status, status]);
      const [after] = await sql()`select evenings from club_training_plan where club_id = ${club.clubId}`;
      expect(after).toEqual(before);
    });
  });

  it('answers 404 to a platform admin for a club that does not exist', async () => {
    const admin = await bearer('admin-3', { roles: ['platform_admin'] });
    expect((await host.request('GET', planPath('no-such-club'), { headers: admin })).status).toBe(404);
    const put = await host.request('PUT', planPath('no-such-club'), { headers: admin, json: TWO_EVENINGS });
    expect(put.status).toBe(404);
  });

  describe('invalid plans: 400 naming the field, nothing changed', () => {
    it.each<[string, unknown, string]>([
      [
        'unknown time zone',
        { timeZone: 'Europe/Atlantis', evenings: [{ weekday: 'monday', start: '18:00', end: '20:00' }] },
        'body.timeZone',
      ],
      ['end before start without endsNextDay', { evenings: [{ weekday: 'monday', start: '20:00', end: '18:00' }] }, 'body.evenings.0.end'],
      [
        'overlapping evenings',
        {
          evenings: [
            { weekday: 'monday', start: '18:00', end: '20:00' },
            { weekday: 'monday', start: '19:00', end: '22:00' },
          ],
        },
        'body.evenings.1',
      ],
      ['an unknown weekday', { evenings: [{ weekday: 'Mittwoch', start: '18:00', end: '20:00' }] }, 'body.evenings.0.weekday'],
      ['no evenings', { evenings: [] }, 'body.evenings'],
      ['a malformed clock time', { evenings: [{ weekday: 'monday', start: '6pm', end: '20:00' }] }, 'body.evenings.0.start'],
    ])('%s', async (_label, json, path) => {
      const [before] = await sql()`select evenings, updated_at from club_training_plan where club_id = ${club.clubId}`;
      const response = await host.request('PUT', planPath(club.clubId), { headers: await bearer(club.leaders[0]!), json });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      const problem = (await response.json()) as { errors: { path: string }[] };
      expect(problem.errors.map((error) => error.path)).toContain(path);
      const [after] = await sql()`select evenings, updated_at from club_training_plan where club_id = ${club.clubId}`;
      expect(after).toEqual(before);
    });
  });

  it('answers 405 for other methods', async () => {
    const response = await host.request('DELETE', planPath(club.clubId), { headers: await bearer(club.leaders[0]!) });
    expect(response.status).toBe(405);
  });
});

describe('GET /api/admin/clubs/{clubId}/freshness-history', () => {
  const host = useTestHost();

  let club: Awaited<ReturnType<typeof createFreshnessClub>>;
  let path: string;
  const admin = async () => bearer('admin-h', { roles: ['platform_admin'] });

  beforeAll(async () => {
    club = await createFreshnessClub(sql(), { leaders: 1, members: 1 });
    await addHit(sql(), club.vereinsId!, '2025-11-12T18:30:00Z');
    const quiet = createLogger({ minLevel: 'error', sink: () => undefined });
    await runFreshnessCheck(sql(), new Date('2025-11-19T12:00:00Z'), quiet); // ok (evening of 12 November 2025)
    await runFreshnessCheck(sql(), new Date('2025-11-20T01:00:00Z'), quiet); // stale (evening of 19 November 2025)
    path = `/api/admin/clubs/${club.clubId}/freshness-history`;
  });

  it('answers a leader the status changes newest first with the evening evaluated, a page at a time', async () => {
    const response = await host.request('GET', `${path}?limit=1`, { headers: await bearer(club.leaders[0]!) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      items: [
        {
          status: 'stale',
          previousStatus: 'ok',
          evening: { start: '2025-11-19T17:00:00.000Z', end: '2025-11-19T19:00:00.000Z' },
          changedAt: '2025-11-20T01:00:00.000Z',
        },
      ],
      nextOffset: 1,
    });
  });

  it('answers a platform admin the next page, which is the last', async () => {
    const rest = await host.request('GET', `${path}?offset=1`, { headers: await admin() });
    expect(await rest.json()).toMatchObject({ items: [{ status: 'ok', previousStatus: null }], nextOffset: null });
  });

  it('refuses a member of the club with 403', async () => {
    expect((await host.request('GET', path, { headers: await bearer(club.members[0]!) })).status).toBe(403);
  });

  it('refuses a caller without a token with 401', async () => {
    expect((await host.request('GET', path)).status).toBe(401);
  });

  it('answers 404 for a club that does not exist', async () => {
    const missing = await host.request('GET', '/api/admin/clubs/no-such-club/freshness-history', { headers: await admin() });
    expect(missing.status).toBe(404);
  });
});
