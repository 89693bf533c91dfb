import { randomUUID } from 'node:crypto';
import { getSql } from '../../shared/db/client';
import { httpGroup } from '../../shared/host/definition';
import { clubRole } from '../../functions/guards/clubRole';
import { defineRoute, json } from '../../shared/http/route';
import { createServiceClub } from '../support/fixtures';
import { readJson, type ProblemJson } from '../support/http';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';

// Two tiny routes as challenges and training plans will use the guard: one for leaders (or anyone
// who manages clubs), one for members only.
const routes = [
  defineRoute({
    method: 'POST',
    path: '/probe/clubs/{clubId}/plans',
    summary: 'leader of the club, or clubs.manage',
    guard: clubRole('clubId', 'leader', { orCapability: 'clubs.manage' }),
    handle: ({ caller }) => Promise.resolve(json({ clubId: caller.clubId, clubRole: caller.clubRole ?? null, userId: caller.userId })),
  }),
  defineRoute({
    method: 'GET',
    path: '/probe/clubs/{clubId}/board',
    summary: 'member of the club',
    guard: clubRole('clubId', 'member'),
    handle: ({ caller }) => Promise.resolve(json({ clubRole: caller.clubRole ?? null })),
  }),
];

describe('clubRole guard', () => {
  let clubA: string;
  let clubB: string;
  const member = `member-${randomUUID()}`;
  const leader = `leader-${randomUUID()}`;
  const outsider = `outsider-${randomUUID()}`;

  const host = useTestHost([httpGroup('probe', 'probe', routes)]);
  beforeAll(async () => {
    clubA = await createServiceClub(getSql());
    clubB = await createServiceClub(getSql());
    await getSql()`
      insert into club_membership (club_id, user_id, role)
      values (${clubA}, ${member}, 'member'), (${clubA}, ${leader}, 'leader'), (${clubB}, ${outsider}, 'leader')`;
  });

  const plans = async (clubId: string, userId?: string, roles: string[] = []) =>
    host.request('POST', `/probe/clubs/${clubId}/plans`, { headers: userId ? await bearer(userId, { roles }) : {} });
  const board = async (clubId: string, userId: string, roles: string[] = []) =>
    host.request('GET', `/probe/clubs/${clubId}/board`, { headers: await bearer(userId, { roles }) });

  it('lets a leader of the club in, and tells the handler the club and the role', async () => {
    const response = await plans(clubA, leader);
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ clubId: clubA, clubRole: 'leader', userId: leader });
  });

  it('refuses a member where a leader is needed, naming what is needed', async () => {
    const response = await plans(clubA, member);
    expect(response.status).toBe(403);
    expect((await readJson<ProblemJson>(response)).detail).toBe(
      'This operation needs the leader role in this club or the clubs.manage capability.',
    );
  });

  it('lets members and leaders in where a member is needed (a leader is also a member)', async () => {
    expect(await readJson(await board(clubA, member))).toEqual({ clubRole: 'member' });
    expect(await readJson(await board(clubA, leader))).toEqual({ clubRole: 'leader' });
  });

  it("refuses a leader of another club, for that club's routes of either kind", async () => {
    expect((await plans(clubA, outsider)).status).toBe(403);
    expect((await board(clubA, outsider)).status).toBe(403);
    expect((await plans(clubB, outsider)).status).toBe(200);
  });

  it('lets a platform admin (clubs.manage) act on any club without a membership, but only where the route allows it', async () => {
    const admin = `admin-${randomUUID()}`;
    const response = await plans(clubA, admin, ['platform_admin']);
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ clubId: clubA, clubRole: null, userId: admin });
    expect((await board(clubA, admin, ['platform_admin'])).status).toBe(403);
  });

  it('refuses platform roles without clubs.manage', async () => {
    for (const role of ['ops_admin', 'billing_admin', 'support_admin']) {
      expect((await plans(clubA, `staff-${randomUUID()}`, [role])).status).toBe(403);
    }
  });

  it('answers 403 for a club that does not exist, as for one the caller is not in (ids cannot be probed)', async () => {
    expect((await plans(randomUUID(), leader)).status).toBe(403);
    expect((await board(randomUUID(), member)).status).toBe(403);
  });

  it('answers 401 without a token', async () => {
    expect((await plans(clubA)).status).toBe(401);
  });
});
