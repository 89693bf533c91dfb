import { ladderCursor } from '../../shared/challenges/cursors';
import { ladderForViewer } from '../../shared/challenges/ladder';
import type { LadderPage, LadderQuery } from '../../shared/challenges/memberSchemas';
import { putSharingPreferences } from '../../shared/challenges/participationRepository';
import type { Capability } from '../../shared/auth/roles';
import { getSql } from '../../shared/db/client';
import { ForbiddenError, NotFoundError } from '../../shared/errors/domainErrors';
import { addMember, createClub, unique } from './support';

/** XP ladders without HTTP: who appears (sharing preferences), ranks, paging, the own row. */

const viewer = (userId: string, capabilities: Capability[] = []) => ({ userId, capabilities: new Set(capabilities) });
const query = (overrides: Partial<LadderQuery> = {}): LadderQuery => ({ period: 'lifetime', scope: 'global', limit: 20, ...overrides });
const rows = (page: LadderPage) => page.items.map((row) => [row.rank, row.userId, row.xp]);

/** A closed season of its own, so no other test's payouts land in it. */
async function seasonWith(totals: Record<string, number>): Promise<string> {
  const sql = getSql();
  const [season] = await sql<{ id: string }[]>`
    insert into xp_season (name, starts_at, ends_at) values (${unique('Season')}, '2020-01-01', '2020-04-01') returning id`;
  for (const [userId, xp] of Object.entries(totals)) {
    await sql`insert into xp_season_total (season_id, user_id, xp) values (${season!.id}, ${userId}, ${xp})`;
  }
  return season!.id;
}

async function share(userId: string, within: boolean, globally: boolean) {
  await putSharingPreferences(getSql(), userId, { shareWithinClub: within, shareGlobally: globally });
}

describe('XP ladders', () => {
  it('shows on a club ladder the members who share within the club or globally, and each viewer their own row', async () => {
    const club = await createClub();
    const other = await createClub();
    const [clubSharer, globalSharer, privateOne, outsider] = ['club', 'global', 'private', 'outsider'].map(unique) as [
      string,
      string,
      string,
      string,
    ];
    for (const user of [clubSharer, globalSharer, privateOne]) await addMember(club.clubId, user);
    await addMember(other.clubId, outsider);
    await share(clubSharer, true, false);
    await share(globalSharer, false, true);
    await share(outsider, true, true);
    const seasonId = await seasonWith({ [privateOne]: 900, [clubSharer]: 800, [globalSharer]: 700, [outsider]: 1000 });
    const clubLadder = query({ period: 'season', seasonId, scope: 'club', clubId: club.clubId });

    // A member who shares sees the sharers; the private one's 900 XP is neither listed nor counted.
    const forSharer = await ladderForViewer(getSql(), viewer(clubSharer), clubLadder);
    expect(rows(forSharer)).toEqual([
      [1, clubSharer, 800],
      [2, globalSharer, 700],
    ]);
    expect(forSharer.me).toMatchObject({ rank: 1, isOwn: true, hiddenFromOthers: false, tier: 'bronze' });
    expect(forSharer.season).toMatchObject({ id: seasonId, endsAt: '2020-04-01T00:00:00.000Z' });

    // The private member sees their own row where it would stand, marked hidden from others.
    const forPrivate = await ladderForViewer(getSql(), viewer(privateOne), clubLadder);
    expect(rows(forPrivate)).toEqual([
      [1, privateOne, 900],
      [2, clubSharer, 800],
      [3, globalSharer, 700],
    ]);
    expect(forPrivate.me).toMatchObject({ userId: privateOne, hiddenFromOthers: true });

    // Club ladders are for the club's members and platform admins.
    await expect(ladderForViewer(getSql(), viewer(outsider), clubLadder)).rejects.toThrow(ForbiddenError);
    const forAdmin = await ladderForViewer(getSql(), viewer(unique('admin'), ['platform.admin']), clubLadder);
    expect(rows(forAdmin)).toEqual([
      [1, clubSharer, 800],
      [2, globalSharer, 700],
    ]);
    expect(forAdmin.me).toBeNull();

    // A change of preferences moves the user onto or off the ladders at once, totals already there.
    await share(clubSharer, false, false);
    await share(privateOne, true, false);
    const afterChange = await ladderForViewer(getSql(), viewer(globalSharer), clubLadder);
    expect(rows(afterChange)).toEqual([
      [1, privateOne, 900],
      [2, globalSharer, 700],
    ]);
    await share(clubSharer, true, false);
    await share(privateOne, false, false);

    // The global ladder of the season lists only those who share globally.
    const globalForPrivate = await ladderForViewer(getSql(), viewer(privateOne), query({ period: 'season', seasonId }));
    expect(rows(globalForPrivate)).toEqual([
      [1, outsider, 1000],
      [2, privateOne, 900],
      [3, globalSharer, 700],
    ]);
    await share(globalSharer, true, false);
    expect(rows(await ladderForViewer(getSql(), viewer(privateOne), query({ period: 'season', seasonId })))).toEqual([
      [1, outsider, 1000],
      [2, privateOne, 900],
    ]);
  });

  it('pages with a cursor and gives the own row with two neighbours each side when it is not on the page', async () => {
    const club = await createClub();
    const users = Array.from({ length: 8 }, (_, index) => `${unique('ladder')}-${index}`);
    const totals: Record<string, number> = {};
    for (const [index, user] of users.entries()) {
      await addMember(club.clubId, user);
      await share(user, true, false);
      totals[user] = 1000 - index * 100;
    }
    // The viewer shares nothing and stands between the 6th and 7th.
    const me = unique('me');
    await addMember(club.clubId, me);
    totals[me] = 450;
    const seasonId = await seasonWith(totals);
    const base = { period: 'season' as const, seasonId, scope: 'club' as const, clubId: club.clubId };

    const first = await ladderForViewer(getSql(), viewer(me), query({ ...base, limit: 3 }));
    expect(rows(first)).toEqual([
      [1, users[0], 1000],
      [2, users[1], 900],
      [3, users[2], 800],
    ]);
    expect(first.me).toMatchObject({ rank: 7, userId: me, xp: 450, hiddenFromOthers: true });
    expect(first.around.map((row) => [row.rank, row.userId])).toEqual([
      [5, users[4]],
      [6, users[5]],
      [7, me],
      [8, users[6]],
      [9, users[7]],
    ]);

    const second = await ladderForViewer(getSql(), viewer(me), query({ ...base, limit: 3, cursor: decode(first.nextCursor) }));
    expect(rows(second)).toEqual([
      [4, users[3], 700],
      [5, users[4], 600],
      [6, users[5], 500],
    ]);
    const third = await ladderForViewer(getSql(), viewer(me), query({ ...base, limit: 3, cursor: decode(second.nextCursor) }));
    expect(rows(third)).toEqual([
      [7, me, 450],
      [8, users[6], 400],
      [9, users[7], 300],
    ]);
    expect(third.me).toMatchObject({ rank: 7 });
    expect(third.around).toEqual([]);
    expect(third.nextCursor).toBeNull();
  });

  it('breaks ties by user id and answers season_not_found for an unknown season', async () => {
    const club = await createClub();
    const [b, a] = [`${unique('tie')}-b`, `${unique('tie')}-a`].sort().reverse() as [string, string];
    for (const user of [a, b]) {
      await addMember(club.clubId, user);
      await share(user, true, false);
    }
    const seasonId = await seasonWith({ [a]: 500, [b]: 500 });
    const page = await ladderForViewer(getSql(), viewer(a), query({ period: 'season', seasonId, scope: 'club', clubId: club.clubId }));
    expect(page.items.map((row) => row.userId)).toEqual([a, b].sort());
    await expect(ladderForViewer(getSql(), viewer(a), query({ period: 'season', seasonId: 'no-such-season' }))).rejects.toThrow(
      NotFoundError,
    );
  });
});

/** The decoded position behind a page's nextCursor, as the query schema hands it to the service. */
function decode(cursor: string | null): [number, string, number] {
  const decoded = cursor ? ladderCursor.decode(cursor) : undefined;
  if (!decoded) throw new Error('expected a next cursor');
  return decoded;
}
