import { leaderboard } from '../../shared/challenges/leaderboard';
import { joinChallenge } from '../../shared/challenges/participationRepository';
import { getSql } from '../../shared/db/client';
import { chooseDisplayName, recordSignIn } from '../../shared/people/profileRepository';
import { makeChallenge, unique } from './support';

/**
 * A board names each person shown under the name of their profile: whether the profile came
 * before or after they joined, after a change of name, and no longer once the profile is gone.
 */
describe('names on a leaderboard', () => {
  async function joinWithScore(challengeId: string, userId: string, score: number): Promise<void> {
    const participation = await joinChallenge(getSql(), userId, challengeId, {});
    await getSql()`update challenge_participation set score = ${score}, share_globally = true where id = ${participation.id}`;
  }

  const view = (challengeId: string, viewerId: string, limit = 10) =>
    leaderboard(getSql(), { challengeId, viewerId, board: { kind: 'global' }, limit });

  it('names people who signed in before or after joining, and nobody without a profile', async () => {
    const challenge = await makeChallenge();
    const [early, late, nameless] = [unique('early'), unique('late'), unique('nameless')];
    await recordSignIn(getSql(), early, 'Erika Early');
    await joinWithScore(challenge.id, early, 30);
    await joinWithScore(challenge.id, late, 20);
    await joinWithScore(challenge.id, nameless, 10);
    await recordSignIn(getSql(), late, 'Lars Late');

    const page = await view(challenge.id, unique('viewer'));
    expect(page.items.map((row) => [row.userId, row.displayName, row.initials])).toEqual([
      [early, 'Erika Early', 'EE'],
      [late, 'Lars Late', 'LL'],
      [nameless, null, null],
    ]);
  });

  it('shows a chosen name at once, on the page, on the own row and on its neighbours', async () => {
    const challenge = await makeChallenge();
    const users = [unique('first'), unique('second'), unique('third'), unique('fourth')];
    for (const [index, user] of users.entries()) {
      await recordSignIn(getSql(), user, `Person ${index}`);
      await joinWithScore(challenge.id, user, 100 - index);
    }
    await chooseDisplayName(getSql(), users[2]!, 'Chosen Name');
    // A later sign-in with another name keeps the chosen one.
    await recordSignIn(getSql(), users[2]!, 'Sign-in Name');
    await chooseDisplayName(getSql(), users[1]!, 'Neighbour Name');

    expect((await view(challenge.id, unique('viewer'))).items.map((row) => row.displayName)).toEqual([
      'Person 0',
      'Neighbour Name',
      'Chosen Name',
      'Person 3',
    ]);
    // With a page of one the third person's own row and its neighbours come off the page.
    const ownView = await view(challenge.id, users[2]!, 1);
    expect(ownView.me).toMatchObject({ userId: users[2], displayName: 'Chosen Name', initials: 'CN' });
    expect(ownView.around.map((row) => row.displayName)).toEqual(['Person 0', 'Neighbour Name', 'Chosen Name', 'Person 3']);
  });

  it('names nobody once the profile is deleted', async () => {
    const challenge = await makeChallenge();
    const [kept, erased] = [unique('kept'), unique('erased')];
    await recordSignIn(getSql(), kept, 'Kept Person');
    await recordSignIn(getSql(), erased, 'Erased Person');
    await joinWithScore(challenge.id, kept, 2);
    await joinWithScore(challenge.id, erased, 1);
    await getSql()`delete from person_profile where user_id = ${erased}`;

    const page = await view(challenge.id, unique('viewer'));
    expect(page.items.map((row) => [row.userId, row.displayName])).toEqual([
      [kept, 'Kept Person'],
      [erased, null],
    ]);
  });
});
