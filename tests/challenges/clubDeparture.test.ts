import { withdrawFromClub } from '../../shared/challenges/clubDeparture';
import { joinChallenge } from '../../shared/challenges/participationRepository';
import { getSql } from '../../shared/db/client';
import { addMember, createClub, linkShooter, makeChallenge, unique } from './support';

describe('a member’s departure from a club', () => {
  it('cancels the club’s running challenges, moves global ones off the club board, drops the club’s shooter link and keeps the history', async () => {
    const club = await createClub();
    const otherClub = await createClub();
    const user = unique('departing');
    await addMember(club.clubId, user);
    await addMember(otherClub.clubId, user);
    await linkShooter(club, user);
    await linkShooter(otherClub, user);
    const clubChallenge = await makeChallenge({ scope: 'club', clubId: club.clubId });
    const finishedChallenge = await makeChallenge({ scope: 'club', clubId: club.clubId });
    const globalChallenge = await makeChallenge();
    const otherClubChallenge = await makeChallenge({ scope: 'club', clubId: otherClub.clubId });
    const running = await joinChallenge(getSql(), user, clubChallenge.id, {});
    const finished = await joinChallenge(getSql(), user, finishedChallenge.id, {});
    await getSql()`update challenge_participation set status = 'completed', finished_at = now() where id = ${finished.id}`;
    const global = await joinChallenge(getSql(), user, globalChallenge.id, { clubId: club.clubId });
    const elsewhere = await joinChallenge(getSql(), user, otherClubChallenge.id, {});

    await withdrawFromClub(getSql(), club.clubId, user);

    const rows = await getSql()<{ id: string; status: string; clubId: string | null }[]>`
      select id, status, club_id as "clubId" from challenge_participation where user_id = ${user}`;
    const byId = Object.fromEntries(rows.map((row) => [row.id, [row.status, row.clubId]]));
    expect(byId).toEqual({
      [running.id]: ['cancelled', club.clubId],
      [finished.id]: ['completed', club.clubId],
      [global.id]: ['active', null],
      [elsewhere.id]: ['active', otherClub.clubId],
    });
    const links = await getSql()<{ clubId: string }[]>`select club_id as "clubId" from challenge_shooter_link where user_id = ${user}`;
    expect(links.map((link) => link.clubId)).toEqual([otherClub.clubId]);
  });
});
