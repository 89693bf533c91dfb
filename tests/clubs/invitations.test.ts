import { invitationListCursor } from '../../shared/clubs/cursors';
import { hashInvitationCode, normaliseInvitationCode } from '../../shared/clubs/invitationCode';
import {
  acceptInvitation,
  createInvitation,
  listInvitations,
  MAX_OPEN_INVITATIONS,
  revokeInvitation,
} from '../../shared/clubs/invitations';
import { findClubRole } from '../../shared/clubs/membershipRepository';
import { getSql } from '../../shared/db/client';
import { InvalidError } from '../../shared/errors/domainErrors';
import { createClub, unique } from '../challenges/support';

/** Invitations without HTTP: single use, expiry, revocation, the cap, what is stored. */

const hour = 3_600_000;

describe('club invitations', () => {
  it('stores only the code’s hash, admits its holder once, and never again', async () => {
    const { clubId } = await createClub();
    const invitation = await createInvitation(getSql(), { clubId, createdBy: unique('leader'), expiresInHours: 24 });
    const [stored] = await getSql()<
      { codeHash: Buffer }[]
    >`select code_hash as "codeHash" from club_invitation where id = ${invitation.id}`;
    expect(stored?.codeHash.equals(hashInvitationCode(normaliseInvitationCode(invitation.code)!))).toBe(true);
    const everything = JSON.stringify(await getSql()`select * from club_invitation where id = ${invitation.id}`);
    expect(everything).not.toContain(invitation.code.replace(/-/g, ''));

    const newcomer = unique('newcomer');
    const membership = await acceptInvitation(getSql(), newcomer, invitation.code.toLowerCase());
    expect(membership).toMatchObject({ clubId, userId: newcomer, role: 'member' });
    expect(await findClubRole(getSql(), clubId, newcomer)).toBe('member');
    await expect(acceptInvitation(getSql(), unique('second'), invitation.code)).rejects.toMatchObject({ code: 'invitation_used' });
    // Used invitations are no longer open.
    expect((await listInvitations(getSql(), { clubId, limit: 10 })).items).toEqual([]);
  });

  it('lets exactly one of many concurrent accepts of one code through', async () => {
    const { clubId } = await createClub();
    const invitation = await createInvitation(getSql(), { clubId, createdBy: unique('leader'), expiresInHours: 24 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, (_, index) => acceptInvitation(getSql(), `${unique('racer')}-${index}`, invitation.code)),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const [members] = await getSql()<{ n: number }[]>`select count(*)::int as n from club_membership where club_id = ${clubId}`;
    expect(members?.n).toBe(1);
  });

  it('refuses an expired, a revoked, an unknown and a malformed code, and does not use a code on a member', async () => {
    const { clubId } = await createClub();
    const leader = unique('leader');
    const created = new Date(Date.now() - 3 * hour);
    const expired = await createInvitation(getSql(), { clubId, createdBy: leader, expiresInHours: 1 }, created);
    await expect(acceptInvitation(getSql(), unique('late'), expired.code)).rejects.toMatchObject({ code: 'invitation_expired' });

    const revoked = await createInvitation(getSql(), { clubId, createdBy: leader, expiresInHours: 24 });
    await revokeInvitation(getSql(), clubId, revoked.id);
    await expect(acceptInvitation(getSql(), unique('revoked'), revoked.code)).rejects.toMatchObject({ code: 'invitation_not_found' });
    await expect(revokeInvitation(getSql(), clubId, revoked.id)).rejects.toMatchObject({ code: 'invitation_not_found' });
    await expect(acceptInvitation(getSql(), unique('guess'), 'ZZZZ-ZZZZ-ZZZZ-ZZZZ')).rejects.toMatchObject({
      code: 'invitation_not_found',
    });
    await expect(acceptInvitation(getSql(), unique('typo'), 'not a code')).rejects.toThrow(InvalidError);

    const open = await createInvitation(getSql(), { clubId, createdBy: leader, expiresInHours: 24 });
    const member = unique('member');
    await acceptInvitation(getSql(), member, (await createInvitation(getSql(), { clubId, createdBy: leader, expiresInHours: 24 })).code);
    await expect(acceptInvitation(getSql(), member, open.code)).rejects.toMatchObject({ code: 'already_member' });
    // Still open for someone else.
    expect((await acceptInvitation(getSql(), unique('friend'), open.code)).role).toBe('member');
  });

  it('revokes only the club’s own invitations', async () => {
    const club = await createClub();
    const other = await createClub();
    const invitation = await createInvitation(getSql(), { clubId: club.clubId, createdBy: unique('leader'), expiresInHours: 24 });
    await expect(revokeInvitation(getSql(), other.clubId, invitation.id)).rejects.toMatchObject({ code: 'invitation_not_found' });
    expect((await listInvitations(getSql(), { clubId: club.clubId, limit: 10 })).items.map((item) => item.id)).toEqual([invitation.id]);
  });

  it('caps open invitations per club and cleans up expired and used ones before counting', async () => {
    const { clubId } = await createClub();
    const leader = unique('leader');
    const past = new Date(Date.now() - 2 * hour);
    // Half of the cap expired an hour ago: they are deleted when the next invitation is created.
    for (let index = 0; index < MAX_OPEN_INVITATIONS / 2; index += 1) {
      await createInvitation(getSql(), { clubId, createdBy: leader, expiresInHours: 1 }, past);
    }
    const open = [];
    for (let index = 0; index < MAX_OPEN_INVITATIONS; index += 1) {
      open.push(await createInvitation(getSql(), { clubId, createdBy: leader, expiresInHours: 24 }));
    }
    const rows = async () =>
      (await getSql()<{ n: number }[]>`select count(*)::int as n from club_invitation where club_id = ${clubId}`)[0]?.n;
    expect(await rows()).toBe(MAX_OPEN_INVITATIONS);
    await expect(createInvitation(getSql(), { clubId, createdBy: leader, expiresInHours: 24 })).rejects.toMatchObject({
      code: 'invitation_cap',
    });
    // A used invitation frees its place at the next create.
    await acceptInvitation(getSql(), unique('joiner'), open[0]!.code);
    await createInvitation(getSql(), { clubId, createdBy: leader, expiresInHours: 24 });
    expect(await rows()).toBe(MAX_OPEN_INVITATIONS);

    // The open ones page newest first, without codes.
    const first = await listInvitations(getSql(), { clubId, limit: 30 });
    expect(first.items).toHaveLength(30);
    expect(JSON.stringify(first)).not.toContain('code');
    const cursor = first.nextCursor ? invitationListCursor.decode(first.nextCursor) : undefined;
    const second = await listInvitations(getSql(), { clubId, limit: 30, cursor });
    expect(second.items).toHaveLength(MAX_OPEN_INVITATIONS - 30);
    expect(second.nextCursor).toBeNull();
    expect(new Set([...first.items, ...second.items].map((item) => item.id)).size).toBe(MAX_OPEN_INVITATIONS);
  });

  it('refuses to invite into a club that does not exist', async () => {
    await expect(createInvitation(getSql(), { clubId: unique('no-club'), createdBy: 'x', expiresInHours: 1 })).rejects.toMatchObject({
      code: 'club_not_found',
    });
  });
});
