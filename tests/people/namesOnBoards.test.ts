import { leaderboard } from '../../shared/challenges/leaderboard';
import { ladderForViewer } from '../../shared/challenges/ladder';
import { badgesOfMember } from '../../shared/challenges/memberBadges';
import { joinChallenge, putSharingPreferences } from '../../shared/challenges/participationRepository';
import { pageClubMembers } from '../../shared/clubs/clubMembersQuery';
import { getSql } from '../../shared/db/client';
import { chooseDisplayName } from '../../shared/people/profileRepository';
import { addMember, createClub, makeChallenge, unique } from '../challenges/support';

/** Names beside user ids: on every board a person already appears on, and nowhere they do not. */

const base = new Date('2026-09-01T10:00:00Z');

async function place(challengeId: string, userId: string, score: number, share: { club?: boolean; global?: boolean }, clubId: string) {
  const participation = await joinChallenge(getSql(), userId, challengeId, { clubId }, base);
  await getSql()`
    update challenge_participation set score = ${score}, score_reached_at = ${base},
      share_within_club = ${share.club ?? false}, share_globally = ${share.global ?? false}
    where id = ${participation.id}`;
}

const named = (rows: readonly { userId: string; displayName: string | null; initials: string | null }[]) =>
  rows.map((row) => [row.userId, row.displayName, row.initials]);

describe('names on boards', () => {
  const sql = getSql();

  it('names the rows of a leaderboard, its neighbours and the own row; a person without a profile is null; hidden people stay hidden', async () => {
    const club = await createClub();
    const challenge = await makeChallenge();
    const [anna, toni, hidden, nameless, viewer] = ['anna', 'toni', 'hidden', 'nameless', 'viewer'].map(unique) as [
      string,
      string,
      string,
      string,
      string,
    ];
    for (const user of [anna, toni, hidden, nameless, viewer]) await addMember(club.clubId, user);
    await chooseDisplayName(sql, anna, 'Anna Schütz');
    await chooseDisplayName(sql, toni, 'Toni Berger');
    await chooseDisplayName(sql, hidden, 'Hidden Hanna');
    await chooseDisplayName(sql, viewer, 'Vera Viewer');
    await place(challenge.id, anna, 90, { global: true }, club.clubId);
    await place(challenge.id, hidden, 80, {}, club.clubId);
    await place(challenge.id, toni, 70, { club: true }, club.clubId);
    await place(challenge.id, nameless, 60, { club: true }, club.clubId);
    await place(challenge.id, viewer, 50, {}, club.clubId);

    const page = await leaderboard(sql, {
      challengeId: challenge.id,
      viewerId: viewer,
      board: { kind: 'club', clubId: club.clubId },
      limit: 10,
    });
    expect(named(page.items)).toEqual([
      [anna, 'Anna Schütz', 'AS'],
      [toni, 'Toni Berger', 'TB'],
      [nameless, null, null],
      [viewer, 'Vera Viewer', 'VV'],
    ]);
    expect(JSON.stringify(page)).not.toContain('Hidden Hanna');

    // Off the page: the own row and its neighbours carry names too.
    const first = await leaderboard(sql, {
      challengeId: challenge.id,
      viewerId: viewer,
      board: { kind: 'club', clubId: club.clubId },
      limit: 1,
    });
    expect(named(first.items)).toEqual([[anna, 'Anna Schütz', 'AS']]);
    expect(named(first.around)).toEqual([
      [toni, 'Toni Berger', 'TB'],
      [nameless, null, null],
      [viewer, 'Vera Viewer', 'VV'],
    ]);
    expect(first.me).toMatchObject({ userId: viewer, displayName: 'Vera Viewer', initials: 'VV' });
  });

  it('names the rows of an XP ladder and its neighbours', async () => {
    const club = await createClub();
    const [top, middle, viewer] = ['top', 'middle', 'viewer'].map(unique) as [string, string, string];
    const [season] = await sql<{ id: string }[]>`
      insert into xp_season (name, starts_at, ends_at) values (${unique('Season')}, '2020-01-01', '2020-04-01') returning id`;
    for (const [userId, xp] of [
      [top, 900],
      [middle, 800],
      [viewer, 700],
    ] as const) {
      await addMember(club.clubId, userId);
      await putSharingPreferences(sql, userId, { shareWithinClub: true, shareGlobally: false });
      await sql`insert into xp_season_total (season_id, user_id, xp) values (${season!.id}, ${userId}, ${xp})`;
    }
    await chooseDisplayName(sql, top, 'Tina Top');
    await chooseDisplayName(sql, viewer, 'Vera Viewer');
    const ladder = await ladderForViewer(
      sql,
      { userId: viewer, capabilities: new Set() },
      { period: 'season', seasonId: season!.id, scope: 'club', clubId: club.clubId, limit: 1 },
    );
    expect(named(ladder.items)).toEqual([[top, 'Tina Top', 'TT']]);
    expect(named(ladder.around)).toEqual([
      [top, 'Tina Top', 'TT'],
      [middle, null, null],
      [viewer, 'Vera Viewer', 'VV'],
    ]);
  });

  it('names a member on their page only when the viewer sees something of them', async () => {
    const club = await createClub();
    const [owner, mate, stranger] = ['owner', 'mate', 'stranger'].map(unique) as [string, string, string];
    await addMember(club.clubId, owner);
    await addMember(club.clubId, mate);
    await chooseDisplayName(sql, owner, 'Olga Owner');
    const asViewer = (userId: string) => ({ userId, capabilities: new Set<never>() });
    // Nothing shared: the page shows nothing of the owner, not even the name.
    expect(await badgesOfMember(sql, asViewer(mate), owner)).toMatchObject({ displayName: null, initials: null, standing: null });
    expect(await badgesOfMember(sql, asViewer(owner), owner)).toMatchObject({ displayName: 'Olga Owner', initials: 'OO' });
    // Shared within the club: club mates see the standing and the name, a stranger still nothing.
    await putSharingPreferences(sql, owner, { shareWithinClub: true, shareGlobally: false });
    expect(await badgesOfMember(sql, asViewer(mate), owner)).toMatchObject({ displayName: 'Olga Owner', initials: 'OO' });
    expect(await badgesOfMember(sql, asViewer(stranger), owner)).toMatchObject({ displayName: null, initials: null });
  });

  it('names the members on the operators’ club page', async () => {
    const club = await createClub();
    const [leader, member] = ['leader', 'member'].map(unique) as [string, string];
    await addMember(club.clubId, leader, 'leader');
    await addMember(club.clubId, member);
    await chooseDisplayName(sql, leader, 'Lea Leader');
    const page = await pageClubMembers(sql, club.clubId, { limit: 10, offset: 0 });
    expect(named(page.items)).toEqual([
      [leader, 'Lea Leader', 'LL'],
      [member, null, null],
    ]);
  });
});
