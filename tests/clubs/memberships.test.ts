import { memberListCursor } from '../../shared/clubs/cursors';
import { appointLeader, listClubMembers, ownClubs, removeMember } from '../../shared/clubs/memberships';
import { findClubRole } from '../../shared/clubs/membershipRepository';
import { getSql } from '../../shared/db/client';
import { addMember, createClub, unique } from '../challenges/support';

/** Leaders, members and the rule that a club keeps a leader, without HTTP. */

describe('club memberships', () => {
  it('appoints a first leader, promotes a member, and refuses a club that does not exist', async () => {
    const { clubId } = await createClub();
    const first = unique('first-leader');
    const appointed = await appointLeader(getSql(), clubId, first);
    expect(appointed).toMatchObject({ created: true, membership: { clubId, userId: first, role: 'leader' } });
    const member = unique('member');
    await addMember(clubId, member);
    const [before] = await getSql()<
      { since: Date }[]
    >`select created_at as since from club_membership where club_id = ${clubId} and user_id = ${member}`;
    const promoted = await appointLeader(getSql(), clubId, member);
    expect(promoted).toMatchObject({ created: false, membership: { role: 'leader', since: before!.since.toISOString() } });
    // Appointing again changes nothing.
    expect((await appointLeader(getSql(), clubId, member)).membership.role).toBe('leader');
    await expect(appointLeader(getSql(), unique('no-club'), first)).rejects.toMatchObject({ code: 'club_not_found' });
  });

  it('lists members leaders first, pages them, and filters by role', async () => {
    const { clubId } = await createClub();
    const leader = unique('leader');
    await addMember(clubId, leader, 'leader');
    const members = [];
    for (let index = 0; index < 5; index += 1) {
      const member = `${unique('member')}-${index}`;
      await addMember(clubId, member);
      members.push(member);
    }
    const first = await listClubMembers(getSql(), { clubId, limit: 4 });
    expect(first.items.map((item) => item.userId)).toEqual([leader, ...members.slice(0, 3)]);
    const second = await listClubMembers(getSql(), { clubId, limit: 4, cursor: memberListCursor.decode(first.nextCursor!) });
    expect(second.items.map((item) => item.userId)).toEqual(members.slice(3));
    expect(second.nextCursor).toBeNull();
    expect((await listClubMembers(getSql(), { clubId, role: 'leader', limit: 10 })).items.map((item) => item.userId)).toEqual([leader]);
    await expect(listClubMembers(getSql(), { clubId: unique('no-club'), limit: 10 })).rejects.toMatchObject({ code: 'club_not_found' });
  });

  it('removes members and leaders but never the last leader', async () => {
    const { clubId } = await createClub();
    const [leader, second, member] = ['leader', 'second', 'member'].map(unique) as [string, string, string];
    await addMember(clubId, leader, 'leader');
    await addMember(clubId, second, 'leader');
    await addMember(clubId, member);

    await removeMember(getSql(), clubId, member);
    expect(await findClubRole(getSql(), clubId, member)).toBeUndefined();
    await expect(removeMember(getSql(), clubId, member)).rejects.toMatchObject({ code: 'member_not_found' });
    await removeMember(getSql(), clubId, second);
    await expect(removeMember(getSql(), clubId, leader)).rejects.toMatchObject({ code: 'last_leader' });
    expect(await findClubRole(getSql(), clubId, leader)).toBe('leader');
  });

  it('lets only one of two leaders removing each other at once succeed', async () => {
    const { clubId } = await createClub();
    const [a, b] = ['a', 'b'].map(unique) as [string, string];
    await addMember(clubId, a, 'leader');
    await addMember(clubId, b, 'leader');
    const outcomes = await Promise.allSettled([removeMember(getSql(), clubId, a), removeMember(getSql(), clubId, b)]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const [leaders] = await getSql()<
      { n: number }[]
    >`select count(*)::int as n from club_membership where club_id = ${clubId} and role = 'leader'`;
    expect(leaders?.n).toBe(1);
  });

  it('runs the departure hook in the removal’s transaction: a failing hook keeps the membership', async () => {
    const { clubId } = await createClub();
    const member = unique('member');
    await addMember(clubId, member);
    await expect(removeMember(getSql(), clubId, member, () => Promise.reject(new Error('departure failed')))).rejects.toThrow(
      'departure failed',
    );
    expect(await findClubRole(getSql(), clubId, member)).toBe('member');
  });

  it('lists the clubs a user belongs to with names and roles', async () => {
    const one = await createClub();
    const two = await createClub();
    const user = unique('user');
    await addMember(one.clubId, user);
    await addMember(two.clubId, user, 'leader');
    const clubs = await ownClubs(getSql(), user);
    expect(clubs.items.map((item) => [item.clubId, item.name, item.role])).toEqual([
      [one.clubId, one.clubId, 'member'],
      [two.clubId, two.clubId, 'leader'],
    ]);
    expect((await ownClubs(getSql(), unique('nobody'))).items).toEqual([]);
  });
});
