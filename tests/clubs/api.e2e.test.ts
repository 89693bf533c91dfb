import { overrideSettings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import { addMember, createClub, linkShooter, makeChallenge, unique } from '../challenges/support';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import type { ProblemJson } from '../support/http';

/** Club membership over HTTP: from the first leader to a member who sees the club's challenges, and every refusal. */

describe('club membership endpoints', () => {
  // The info lines too, to see what the routes log.
  let restoreSettings: () => void;
  beforeAll(() => {
    restoreSettings = overrideSettings({ LOG_LEVEL: 'info' });
  });
  afterAll(() => restoreSettings());
  const host = useTestHost();
  const admin = unique('platform-admin');
  const call = async (user: string, method: string, path: string, json?: unknown) =>
    host.request(method, path, { headers: await bearer(user, user === admin ? { roles: ['platform_admin'] } : {}), json });
  const fields = async (response: Response) => ((await response.json()) as ProblemJson).errors?.map((error) => error.path);

  it('takes a club from its first leader to a member who sees its challenges, and back out', async () => {
    const { clubId } = await createClub();
    const leader = unique('leader');
    const newcomer = unique('newcomer');
    const clubChallenge = await makeChallenge({ scope: 'club', clubId, title: unique('Club night') });

    const appointed = await call(admin, 'PUT', `/api/clubs/${clubId}/leaders/${leader}`);
    expect(appointed.status).toBe(201);
    expect(await appointed.json()).toMatchObject({ clubId, userId: leader, role: 'leader' });
    expect((await call(admin, 'PUT', `/api/clubs/${clubId}/leaders/${leader}`)).status).toBe(200);

    const created = await call(leader, 'POST', `/api/clubs/${clubId}/invitations`, {});
    expect(created.status).toBe(201);
    const invitation = (await created.json()) as { id: string; code: string; expiresAt: string; createdAt: string; createdBy: string };
    expect(invitation.createdBy).toBe(leader);
    expect(new Date(invitation.expiresAt).getTime() - new Date(invitation.createdAt).getTime()).toBe(168 * 3_600_000);
    const open = await call(leader, 'GET', `/api/clubs/${clubId}/invitations`);
    const openBody = (await open.json()) as { items: { id: string }[] };
    expect(openBody.items.map((item) => item.id)).toEqual([invitation.id]);
    expect(JSON.stringify(openBody)).not.toContain(invitation.code);

    // Before accepting, the club's challenges are not the newcomer's to see.
    const search = `/api/challenges?scope=club&search=${encodeURIComponent(clubChallenge.title)}`;
    expect(((await (await call(newcomer, 'GET', search)).json()) as { items: unknown[] }).items).toEqual([]);
    const accepted = await call(newcomer, 'POST', '/api/clubs/invitations/accept', { code: invitation.code });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ clubId, userId: newcomer, role: 'member' });
    const visible = (await (await call(newcomer, 'GET', search)).json()) as { items: { id: string }[] };
    expect(visible.items.map((item) => item.id)).toEqual([clubChallenge.id]);
    expect(await (await call(newcomer, 'GET', '/api/clubs/mine')).json()).toMatchObject({ items: [{ clubId, role: 'member' }] });

    // The code is in the create's answer only: not in the functions' log.
    const compact = invitation.code.replace(/-/g, '');
    expect(host.logLines.some((line) => line.includes('club_invitation_created'))).toBe(true);
    expect(host.logLines.filter((line) => line.includes(invitation.code) || line.includes(compact))).toEqual([]);

    // Single use: nobody else gets in with the same code.
    const reused = await call(unique('latecomer'), 'POST', '/api/clubs/invitations/accept', { code: invitation.code });
    expect(reused.status).toBe(409);
    expect(await reused.json()).toMatchObject({ code: 'invitation_used' });

    const members = (await (await call(leader, 'GET', `/api/clubs/${clubId}/members`)).json()) as {
      items: { userId: string; role: string }[];
    };
    expect(members.items.map((item) => [item.userId, item.role])).toEqual([
      [leader, 'leader'],
      [newcomer, 'member'],
    ]);
    expect((await call(admin, 'GET', `/api/clubs/${clubId}/members?role=member`)).status).toBe(200);

    // The only leader can neither leave nor be removed; the member can leave.
    const leaderLeaves = await call(leader, 'POST', `/api/clubs/${clubId}/leave`);
    expect(leaderLeaves.status).toBe(409);
    expect(await leaderLeaves.json()).toMatchObject({ code: 'last_leader' });
    const removeLast = await call(admin, 'DELETE', `/api/clubs/${clubId}/members/${leader}`);
    expect(removeLast.status).toBe(409);
    expect(await removeLast.json()).toMatchObject({ code: 'last_leader' });
    expect((await call(newcomer, 'POST', `/api/clubs/${clubId}/leave`)).status).toBe(204);
    expect(((await (await call(newcomer, 'GET', search)).json()) as { items: unknown[] }).items).toEqual([]);
    expect((await call(newcomer, 'POST', `/api/clubs/${clubId}/leave`)).status).toBe(403);
    // Accepting (and the refused second accept) logged no code either.
    expect(host.logLines.some((line) => line.includes('club_invitation_accepted'))).toBe(true);
    expect(host.logLines.filter((line) => line.includes(invitation.code) || line.includes(compact))).toEqual([]);
  });

  it('lets leaders remove members and revoke invitations of their own club only', async () => {
    const club = await createClub();
    const other = await createClub();
    const leader = unique('leader');
    const otherLeader = unique('other-leader');
    const member = unique('member');
    await addMember(club.clubId, leader, 'leader');
    await addMember(club.clubId, member);
    await addMember(other.clubId, otherLeader, 'leader');

    // A member does not invite; another club's leader neither.
    expect((await call(member, 'POST', `/api/clubs/${club.clubId}/invitations`, {})).status).toBe(403);
    expect((await call(otherLeader, 'POST', `/api/clubs/${club.clubId}/invitations`, {})).status).toBe(403);
    expect((await call(otherLeader, 'GET', `/api/clubs/${club.clubId}/members`)).status).toBe(403);
    expect((await call(member, 'DELETE', `/api/clubs/${club.clubId}/members/${leader}`)).status).toBe(403);
    // Leaders do not appoint leaders: platform admins do.
    expect((await call(leader, 'PUT', `/api/clubs/${club.clubId}/leaders/${member}`)).status).toBe(403);

    const created = (await (await call(leader, 'POST', `/api/clubs/${club.clubId}/invitations`, { expiresInHours: 2 })).json()) as {
      id: string;
      code: string;
    };
    // Club B's leader naming their own club cannot revoke club A's invitation.
    const foreign = await call(otherLeader, 'DELETE', `/api/clubs/${other.clubId}/invitations/${created.id}`);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ code: 'invitation_not_found' });
    expect((await call(leader, 'DELETE', `/api/clubs/${club.clubId}/invitations/${created.id}`)).status).toBe(204);
    const revoked = await call(unique('invitee'), 'POST', '/api/clubs/invitations/accept', { code: created.code });
    expect(revoked.status).toBe(404);
    expect(await revoked.json()).toMatchObject({ code: 'invitation_not_found' });

    expect((await call(otherLeader, 'DELETE', `/api/clubs/${other.clubId}/members/${member}`)).status).toBe(404);
    expect((await call(leader, 'DELETE', `/api/clubs/${club.clubId}/members/${member}`)).status).toBe(204);
    const gone = await call(leader, 'DELETE', `/api/clubs/${club.clubId}/members/${member}`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ code: 'member_not_found' });
  });

  it('takes a removed member off the club’s running challenges and shooter link, keeping their global ones', async () => {
    const club = await createClub();
    const leader = unique('leader');
    const member = unique('member');
    await addMember(club.clubId, leader, 'leader');
    await addMember(club.clubId, member);
    await linkShooter(club, member);
    const clubChallenge = await makeChallenge({ scope: 'club', clubId: club.clubId });
    const globalChallenge = await makeChallenge();
    const joinedClub = (await (await call(member, 'POST', `/api/challenges/${clubChallenge.id}/join`)).json()) as { id: string };
    const joinedGlobal = (await (
      await call(member, 'POST', `/api/challenges/${globalChallenge.id}/join?clubId=${club.clubId}`)
    ).json()) as { id: string };

    expect((await call(leader, 'DELETE', `/api/clubs/${club.clubId}/members/${member}`)).status).toBe(204);
    const rows = await getSql()<{ id: string; status: string; clubId: string | null }[]>`
      select id, status, club_id as "clubId" from challenge_participation where user_id = ${member} order by id`;
    expect(Object.fromEntries(rows.map((row) => [row.id, [row.status, row.clubId]]))).toEqual({
      [joinedClub.id]: ['cancelled', club.clubId],
      [joinedGlobal.id]: ['active', null],
    });
    const links = await call(member, 'GET', '/api/challenges/shooter-links');
    expect(await links.json()).toEqual({ items: [] });
  });

  it('refuses an expired code and a code for a club one already belongs to', async () => {
    const { clubId } = await createClub();
    const leader = unique('leader');
    await addMember(clubId, leader, 'leader');
    const created = (await (await call(leader, 'POST', `/api/clubs/${clubId}/invitations`, { expiresInHours: 1 })).json()) as {
      id: string;
      code: string;
    };
    const ownCode = await call(leader, 'POST', '/api/clubs/invitations/accept', { code: created.code });
    expect(ownCode.status).toBe(409);
    expect(await ownCode.json()).toMatchObject({ code: 'already_member' });
    await getSql()`
      update club_invitation set created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour' where id = ${created.id}`;
    const expired = await call(unique('late'), 'POST', '/api/clubs/invitations/accept', { code: created.code });
    expect(expired.status).toBe(409);
    expect(await expired.json()).toMatchObject({ code: 'invitation_expired' });
    // Expired invitations are not listed as open.
    expect(await (await call(leader, 'GET', `/api/clubs/${clubId}/invitations`)).json()).toEqual({ items: [], nextCursor: null });
  });

  it('names the bad field and changes nothing', async () => {
    const { clubId } = await createClub();
    const leader = unique('leader');
    await addMember(clubId, leader, 'leader');
    const user = unique('user');
    expect(await fields(await call(user, 'POST', '/api/clubs/invitations/accept', { code: 'not a code' }))).toEqual(['body.code']);
    expect(await fields(await call(user, 'POST', '/api/clubs/invitations/accept', {}))).toEqual(['body.code']);
    expect(await fields(await call(user, 'POST', '/api/clubs/invitations/accept', { code: 'AAAA-BBBB-CCCC-DDDD', clubId }))).toContain(
      'body.clubId',
    );
    for (const expiresInHours of [0, 721, 1.5, '24']) {
      const response = await call(leader, 'POST', `/api/clubs/${clubId}/invitations`, { expiresInHours });
      expect(response.status).toBe(400);
      expect(await fields(response)).toEqual(['body.expiresInHours']);
    }
    expect(await fields(await call(leader, 'GET', `/api/clubs/${clubId}/members?role=owner`))).toEqual(['query.role']);
    expect(await fields(await call(leader, 'GET', `/api/clubs/${clubId}/members?cursor=forged.cursor`))).toEqual(['query.cursor']);
    expect(await fields(await call(leader, 'GET', `/api/clubs/${clubId}/invitations?limit=101`))).toEqual(['query.limit']);
    const [count] = await getSql()<{ n: number }[]>`select count(*)::int as n from club_invitation where club_id = ${clubId}`;
    expect(count?.n).toBe(0);

    const unknownClub = await call(admin, 'PUT', `/api/clubs/${unique('no-club')}/leaders/${user}`);
    expect(unknownClub.status).toBe(404);
    expect(await unknownClub.json()).toMatchObject({ code: 'club_not_found' });
    expect(await fields(await call(admin, 'PUT', `/api/clubs/${clubId}/leaders/${'x'.repeat(201)}`))).toEqual(['params.userId']);
  });

  it('refuses leader ids no token could ever carry as its subject, and stores none of them', async () => {
    const { clubId } = await createClub();
    // A line feed, a right-to-left override (shows the id reversed) and a zero-width space (looks like another id).
    for (const userId of ['demo-member-1%0Aadmin', 'user%E2%80%AEnimda', 'demo%E2%80%8Bleader', 'tab%09id']) {
      const response = await call(admin, 'PUT', `/api/clubs/${clubId}/leaders/${userId}`);
      expect(response.status).toBe(400);
      expect(await fields(response)).toEqual(['params.userId']);
    }
    const [count] = await getSql()<{ n: number }[]>`select count(*)::int as n from club_membership where club_id = ${clubId}`;
    expect(count?.n).toBe(0);
  });

  it('undoes a leader’s appointment, keeping them as a member, but never the club’s last leader', async () => {
    const { clubId } = await createClub();
    const first = unique('first-leader');
    const second = unique('second-leader');
    const member = unique('member');
    await addMember(clubId, first, 'leader');
    await addMember(clubId, member);
    expect((await call(admin, 'PUT', `/api/clubs/${clubId}/leaders/${second}`)).status).toBe(201);

    expect((await call(member, 'DELETE', `/api/clubs/${clubId}/leaders/${second}`)).status).toBe(403);
    const notLeader = await call(first, 'DELETE', `/api/clubs/${clubId}/leaders/${member}`);
    expect(notLeader.status).toBe(404);
    expect(await notLeader.json()).toMatchObject({ code: 'leader_not_found' });
    expect(await (await call(admin, 'DELETE', `/api/clubs/${unique('no-club')}/leaders/${second}`)).json()).toMatchObject({
      code: 'club_not_found',
    });

    const undone = await call(first, 'DELETE', `/api/clubs/${clubId}/leaders/${second}`);
    expect(undone.status).toBe(200);
    expect(await undone.json()).toMatchObject({ clubId, userId: second, role: 'member' });
    const last = await call(admin, 'DELETE', `/api/clubs/${clubId}/leaders/${first}`);
    expect(last.status).toBe(409);
    expect(await last.json()).toMatchObject({ code: 'last_leader' });
    const roles = await getSql()<{ userId: string; role: string }[]>`
      select user_id as "userId", role from club_membership where club_id = ${clubId} order by user_id`;
    expect(Object.fromEntries(roles.map((row) => [row.userId, row.role]))).toEqual({
      [first]: 'leader',
      [second]: 'member',
      [member]: 'member',
    });
  });

  it('names the members in its list, null for someone without a profile', async () => {
    const { clubId } = await createClub();
    const named = unique('named');
    const nameless = unique('nameless');
    await addMember(clubId, named, 'leader');
    await addMember(clubId, nameless);
    await getSql()`insert into person_profile (user_id, display_name) values (${named}, 'Anna Schütz')`;
    const page = (await (await call(admin, 'GET', `/api/clubs/${clubId}/members`)).json()) as { items: unknown[] };
    expect(page.items).toEqual([
      expect.objectContaining({ userId: named, role: 'leader', displayName: 'Anna Schütz', initials: 'AS' }),
      expect.objectContaining({ userId: nameless, role: 'member', displayName: null, initials: null }),
    ]);
  });

  it('pages a club’s members for a platform admin', async () => {
    const { clubId } = await createClub();
    for (let index = 0; index < 5; index += 1) await addMember(clubId, `${unique('member')}-${index}`);
    const first = (await (await call(admin, 'GET', `/api/clubs/${clubId}/members?limit=3`)).json()) as {
      items: { userId: string }[];
      nextCursor: string;
    };
    expect(first.items).toHaveLength(3);
    const second = (await (await call(admin, 'GET', `/api/clubs/${clubId}/members?limit=3&cursor=${first.nextCursor}`)).json()) as {
      items: { userId: string }[];
      nextCursor: string | null;
    };
    expect(second.items).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    expect(new Set([...first.items, ...second.items].map((item) => item.userId)).size).toBe(5);
  });
});
