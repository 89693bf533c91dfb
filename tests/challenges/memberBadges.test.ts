import type { Capability } from '../../shared/auth/roles';
import { achievementsOf } from '../../shared/challenges/achievements';
import { putBadgePreferences } from '../../shared/challenges/badgeVisibilityRepository';
import { badgesOfMember } from '../../shared/challenges/memberBadges';
import { setParticipationVisibility } from '../../shared/challenges/participationRepository';
import { getSql } from '../../shared/db/client';
import { addMember, createClub, earnBadge, unique } from './support';

/** Who sees which of a member's badges, without HTTP. */

const viewer = (userId: string, capabilities: Capability[] = []) => ({ userId, capabilities: new Set(capabilities) });

describe('badge visibility', () => {
  it('shows each badge as far as its participation is shared, and private ones only to club mates when the owner shows them', async () => {
    const club = await createClub();
    const otherClub = await createClub();
    const owner = unique('owner');
    const clubMate = unique('mate');
    const outsider = unique('outsider');
    await addMember(club.clubId, owner);
    await addMember(club.clubId, clubMate);
    await addMember(otherClub.clubId, outsider);
    const [globalBadge, clubBadge, privateBadge] = ['global', 'club', 'private'].map((name) => unique(`badge-${name}`)) as [
      string,
      string,
      string,
    ];
    await earnBadge(owner, club.clubId, { shareWithinClub: false, shareGlobally: true }, globalBadge);
    const clubShared = await earnBadge(owner, club.clubId, { shareWithinClub: true, shareGlobally: false }, clubBadge);
    await earnBadge(owner, club.clubId, { shareWithinClub: false, shareGlobally: false }, privateBadge);

    const seenBy = async (who: ReturnType<typeof viewer>) =>
      (await badgesOfMember(getSql(), who, owner)).badgeGroups.flatMap((group) => group.badges.map((badge) => badge.key)).sort();

    expect(await seenBy(viewer(outsider))).toEqual([globalBadge]);
    expect(await seenBy(viewer(clubMate))).toEqual([globalBadge, clubBadge].sort());
    expect(await seenBy(viewer(owner))).toEqual([globalBadge, clubBadge, privateBadge].sort());
    expect(await seenBy(viewer(unique('admin'), ['platform.admin']))).toEqual([globalBadge, clubBadge, privateBadge].sort());

    // The owner shows badges from private challenges: club mates see them, outsiders still do not.
    await putBadgePreferences(getSql(), owner, { showPrivateBadges: true });
    expect(await seenBy(viewer(clubMate))).toEqual([globalBadge, clubBadge, privateBadge].sort());
    expect(await seenBy(viewer(outsider))).toEqual([globalBadge]);
    expect(await achievementsOf(getSql(), owner)).toMatchObject({ showPrivateBadges: true });

    // Hiding them again, and making a club-shared participation private, hides both from the mate.
    await putBadgePreferences(getSql(), owner, { showPrivateBadges: false });
    await setParticipationVisibility(getSql(), owner, clubShared, { shareWithinClub: false });
    expect(await seenBy(viewer(clubMate))).toEqual([globalBadge]);
    expect((await achievementsOf(getSql(), owner)).showPrivateBadges).toBe(false);
  });

  it('answers an unknown user with no badges, like a user who shares none', async () => {
    const page = await badgesOfMember(getSql(), viewer(unique('curious')), unique('nobody'));
    expect(page.badgeGroups).toEqual([]);
  });
});
