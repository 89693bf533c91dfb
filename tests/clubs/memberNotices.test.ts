import { acceptInvitation, createInvitation } from '../../shared/clubs/invitations';
import { appointLeader, removeMember } from '../../shared/clubs/memberships';
import { getSql } from '../../shared/db/client';
import { listInbox } from '../../shared/notifications/inboxService';
import { addMember, createClub, unique } from '../challenges/support';

/** Membership changes reach the member through their inbox, in the language they read it in. */

async function inbox(userId: string, language: 'de' | 'en') {
  const page = await listInbox(getSql(), userId, { limit: 10, unreadOnly: false, language });
  return page.items.map((item) => ({ title: item.title, body: item.body }));
}

async function kinds(userId: string) {
  return getSql()<{ kind: string; category: string; source: string }[]>`
    select kind, category, source from notification where user_id = ${userId} order by created_at`;
}

describe('membership notices', () => {
  it('tells a user they were made a leader, once, in their language', async () => {
    const { clubId } = await createClub();
    const member = unique('member');
    await addMember(clubId, member);
    await appointLeader(getSql(), clubId, member);
    await appointLeader(getSql(), clubId, member); // again: nothing changed, nothing to say
    expect(await inbox(member, 'en')).toEqual([
      { title: `You now lead ${clubId}`, body: 'You can invite members, confirm shooter links and create club challenges.' },
    ]);
    expect(await inbox(member, 'de')).toEqual([
      {
        title: `Du leitest jetzt ${clubId}`,
        body: 'Du kannst Mitglieder einladen, Schützen-Verknüpfungen bestätigen und Vereins-Challenges anlegen.',
      },
    ]);
    expect(await kinds(member)).toEqual([{ kind: 'member', category: 'club', source: 'clubs' }]);
  });

  it('welcomes whoever accepts an invitation and tells its creator', async () => {
    const { clubId } = await createClub();
    const leader = unique('leader');
    await addMember(clubId, leader, 'leader');
    const invitation = await createInvitation(getSql(), { clubId, createdBy: leader, expiresInHours: 24 });
    const newcomer = unique('newcomer');
    await acceptInvitation(getSql(), newcomer, invitation.code);
    expect(await inbox(newcomer, 'de')).toEqual([
      {
        title: `Willkommen im Verein ${clubId}`,
        body: 'Du bist jetzt Mitglied. Die Challenges und Ranglisten deines Vereins findest du in der App.',
      },
    ]);
    expect(await inbox(leader, 'en')).toEqual([
      { title: `Invitation accepted: ${clubId}`, body: 'A new member joined the club with your invitation.' },
    ]);
    expect(await kinds(leader)).toEqual([{ kind: 'invite', category: 'club', source: 'clubs' }]);
  });

  it('tells a member a leader removed them, and says nothing to one who left', async () => {
    const { clubId } = await createClub();
    const leader = unique('leader');
    await addMember(clubId, leader, 'leader');
    const removed = unique('removed');
    const leaving = unique('leaving');
    await addMember(clubId, removed);
    await addMember(clubId, leaving);
    await removeMember(getSql(), clubId, removed, undefined, leader);
    await removeMember(getSql(), clubId, leaving);
    expect(await inbox(removed, 'en')).toEqual([
      { title: `No longer a member: ${clubId}`, body: 'The club’s leaders removed you from the club. Ask them if this was a mistake.' },
    ]);
    expect(await inbox(leaving, 'en')).toEqual([]);
  });

  it('writes no notice when the change fails', async () => {
    const { clubId } = await createClub();
    const leader = unique('leader');
    await addMember(clubId, leader, 'leader');
    await expect(removeMember(getSql(), clubId, leader, undefined, unique('admin'))).rejects.toMatchObject({ code: 'last_leader' });
    expect(await inbox(leader, 'en')).toEqual([]);
  });
});
