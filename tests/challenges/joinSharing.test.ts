import { joinChallenge, putSharingPreferences } from '../../shared/challenges/participationRepository';
import { getSql } from '../../shared/db/client';
import { createClub, addMember, makeChallenge, unique } from './support';

/**
 * The sharing a new participation starts with: the member's own choice where they made one in
 * Settings, else what the challenge suggests with its `defaultVisibility`.
 */
describe('joining: the sharing switches start from the challenge where the member never chose', () => {
  let clubId: string;
  beforeAll(async () => {
    clubId = (await createClub()).clubId;
  });

  async function joinedBy(userId: string, visibility: 'private' | 'club' | 'global') {
    await addMember(clubId, userId);
    const challenge = await makeChallenge({ defaultVisibility: visibility });
    const joined = await joinChallenge(getSql(), userId, challenge.id, { clubId });
    return { shareWithinClub: joined.shareWithinClub, shareGlobally: joined.shareGlobally };
  }

  it.each([
    ['global', { shareWithinClub: true, shareGlobally: true }],
    ['club', { shareWithinClub: true, shareGlobally: false }],
    ['private', { shareWithinClub: false, shareGlobally: false }],
  ] as const)('a member without a preference joining a %s challenge shares as it suggests', async (visibility, expected) => {
    expect(await joinedBy(unique('no-choice'), visibility)).toEqual(expected);
  });

  it('keeps the member’s own choice, even "share nowhere", over the challenge’s suggestion', async () => {
    const member = unique('chose-private');
    await putSharingPreferences(getSql(), member, { shareWithinClub: false, shareGlobally: false });
    expect(await joinedBy(member, 'global')).toEqual({ shareWithinClub: false, shareGlobally: false });
    const other = unique('chose-club');
    await putSharingPreferences(getSql(), other, { shareWithinClub: true, shareGlobally: false });
    expect(await joinedBy(other, 'private')).toEqual({ shareWithinClub: true, shareGlobally: false });
  });
});
