import { joinChallenge } from '../../shared/challenges/participationRepository';
import { getSql } from '../../shared/db/client';
import { addMember, createClub, makeChallenge, unique } from './support';

/** What challenge_board_score should hold for the challenge, counted from the rows. */
async function recount(challengeId: string) {
  return getSql()<{ board: string; score: string; participants: number }[]>`
    select b.board, p.score::text, count(*)::int as participants
    from challenge_participation p
    cross join lateral challenge_board_entries(p.status, p.share_globally, p.share_within_club, p.club_id) as b(board)
    where p.challenge_id = ${challengeId} group by 1, 2 order by 1, 2`;
}
/** What challenge_board_band should hold: the same rows counted per band of scores (migration 025). */
async function recountBands(challengeId: string) {
  return getSql()<{ board: string; band: string; participants: number }[]>`
    select b.board, challenge_board_band_of(p.score)::numeric(12, 2)::text as band, count(*)::int as participants
    from challenge_participation p
    cross join lateral challenge_board_entries(p.status, p.share_globally, p.share_within_club, p.club_id) as b(board)
    where p.challenge_id = ${challengeId} group by 1, 2 order by 1, 2`;
}
async function storedBands(challengeId: string) {
  return getSql()<{ board: string; band: string; participants: number }[]>`
    select board, band::text, participants from challenge_board_band
    where challenge_id = ${challengeId} and participants <> 0 order by 1, 2`;
}
async function stored(challengeId: string) {
  return getSql()<{ board: string; score: string; participants: number }[]>`
    select board, score::text, participants from challenge_board_score
    where challenge_id = ${challengeId} and participants <> 0 order by 1, 2`;
}

describe('per-score and per-band board counts', () => {
  it('follow joins, score changes, sharing toggles, cancellation and deletes, also from concurrent statements', async () => {
    const club = await createClub();
    const challenge = await makeChallenge();
    const ids: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      const user = unique('counted');
      await addMember(club.clubId, user);
      await getSql()`insert into challenge_sharing_preference (user_id, share_within_club, share_globally) values (${user}, ${index % 3 === 0}, ${index % 2 === 0})`;
      ids.push((await joinChallenge(getSql(), user, challenge.id, { clubId: club.clubId })).id);
    }
    expect(await stored(challenge.id)).toEqual(await recount(challenge.id));
    expect(await storedBands(challenge.id)).toEqual(await recountBands(challenge.id));

    await Promise.all(ids.map((id, index) => getSql()`update challenge_participation set score = ${(index % 4) * 10} where id = ${id}`));
    await getSql()`update challenge_participation set share_globally = not share_globally where id = any(${ids.slice(0, 5)}::text[])`;
    await getSql()`update challenge_participation set status = 'cancelled' where id = ${ids[6]!}`;
    await getSql()`delete from challenge_participation where id = ${ids[7]!}`;
    await Promise.all(ids.map((id, index) => getSql()`update challenge_participation set score = score + ${index % 2} where id = ${id}`));
    // Scores of every scale, so that rows move between bands of different widths.
    const scales = [0.5, 9.99, 10, 255.5, 259.99, 1234.56, -2.25, 99.99];
    await Promise.all(
      ids
        .slice(0, scales.length)
        .map((id, index) => getSql()`update challenge_participation set score = ${scales[index]!} where id = ${id}`),
    );

    const expected = await recount(challenge.id);
    expect(expected.length).toBeGreaterThan(3);
    expect(await stored(challenge.id)).toEqual(expected);
    const expectedBands = await recountBands(challenge.id);
    expect(expectedBands.length).toBeGreaterThan(3);
    expect(await storedBands(challenge.id)).toEqual(expectedBands);
  });
});
