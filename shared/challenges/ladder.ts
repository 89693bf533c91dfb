import { listClubRoles } from '../clubs/membershipRepository';
import type { Queryable } from '../db/client';
import { personName } from '../people/names';
import { ForbiddenError, NotFoundError } from '../errors/domainErrors';
import { assertMayViewClubBoard, type Actor } from './access';
import { ladderCursor } from './cursors';
import { ladderNeighbourhood, ladderPageWithOwnRow, type LadderBoard, type LadderEntry, type LadderPeriod } from './ladderRepository';
import type { LadderPage, LadderQuery, LadderRow } from './memberSchemas';
import { tierOf } from './tiers';

/**
 * The XP ladders: lifetime or one season, global or one club, highest XP first (ties by user id).
 * Who appears follows the user's sharing preferences, the opt-in of the boards: the global
 * ladder shows those who share globally, a club ladder the club's members who share within the
 * club or globally. Every viewer sees their own row, ranked among the rows they can see; hidden
 * rows of others are neither listed nor counted.
 */

interface SeasonRow {
  id: string;
  name: string;
  startsAt: Date;
  endsAt: Date | null;
}

async function seasonFor(sql: Queryable, seasonId: string | undefined): Promise<SeasonRow> {
  const [season]: [SeasonRow?] = seasonId
    ? await sql`select id, name, starts_at as "startsAt", ends_at as "endsAt" from xp_season where id = ${seasonId}`
    : await sql`select id, name, starts_at as "startsAt", ends_at as "endsAt" from xp_season where ends_at is null`;
  if (!season) throw new NotFoundError(seasonId ? 'No such season.' : 'No season is open.', { code: 'season_not_found' });
  return season;
}

/** The asked club, else the viewer's first club; shown to the club's members and platform admins. */
async function clubLadderFor(sql: Queryable, viewer: Actor, requested: string | undefined): Promise<LadderBoard> {
  const clubId = requested ?? (await listClubRoles(sql, viewer.userId))[0]?.clubId;
  if (!clubId) throw new ForbiddenError('You belong to no club, so there is no club ladder to show.');
  await assertMayViewClubBoard(sql, viewer, clubId);
  return { kind: 'club', clubId };
}

const before = (a: LadderEntry, b: LadderEntry) => a.xp > b.xp || (a.xp === b.xp && a.userId < b.userId);

function toRow(entry: LadderEntry, rank: number, viewerId: string, board: LadderBoard): LadderRow {
  const isOwn = entry.userId === viewerId;
  const shared = board.kind === 'global' ? entry.sharedGlobally : entry.sharedGlobally || entry.sharedWithinClub;
  return {
    rank,
    userId: entry.userId,
    ...personName(entry.displayName),
    xp: entry.xp,
    tier: tierOf(entry.xp),
    isOwn,
    hiddenFromOthers: isOwn && !shared,
  };
}

export async function ladderForViewer(sql: Queryable, viewer: Actor, query: LadderQuery): Promise<LadderPage> {
  const season = query.period === 'season' ? await seasonFor(sql, query.seasonId) : null;
  const period: LadderPeriod = season ? { kind: 'season', seasonId: season.id } : { kind: 'lifetime' };
  const board: LadderBoard = query.scope === 'club' ? await clubLadderFor(sql, viewer, query.clubId) : { kind: 'global' };
  const after = query.cursor ? { xp: query.cursor[0], userId: query.cursor[1] } : undefined;
  const viewerId = viewer.userId;

  const rows = await ladderPageWithOwnRow(sql, { period, board, viewerId, limit: query.limit, after });
  const own = rows.find((entry) => entry.userId === viewerId);
  const merged = rows.filter((entry) => entry.userId !== viewerId);
  if (own && (!after || before({ ...own, xp: after.xp, userId: after.userId }, own))) {
    const at = merged.findIndex((entry) => before(own, entry));
    merged.splice(at === -1 ? merged.length : at, 0, own);
  }
  const firstRank = (query.cursor?.[2] ?? 0) + 1;
  const pageEntries = merged.slice(0, query.limit);
  const items = pageEntries.map((entry, index) => toRow(entry, firstRank + index, viewerId, board));
  const last = pageEntries[pageEntries.length - 1];
  const nextCursor =
    merged.length > query.limit && last ? ladderCursor.encode([last.xp, last.userId, firstRank + pageEntries.length - 1]) : null;

  let me: LadderRow | null = null;
  let around: LadderRow[] = [];
  if (own) {
    me = items.find((row) => row.isOwn) ?? null;
    if (!me) {
      const neighbourhood = await ladderNeighbourhood(sql, { period, board, own });
      const rank = neighbourhood.ahead + 1;
      me = toRow(own, rank, viewerId, board);
      around = [
        ...neighbourhood.previous.map((entry, index) => toRow(entry, rank - 1 - index, viewerId, board)).reverse(),
        me,
        ...neighbourhood.next.map((entry, index) => toRow(entry, rank + 1 + index, viewerId, board)),
      ];
    }
  }
  return {
    period: query.period,
    season: season
      ? { id: season.id, name: season.name, startsAt: season.startsAt.toISOString(), endsAt: season.endsAt?.toISOString() ?? null }
      : null,
    board: board.kind,
    clubId: board.kind === 'club' ? board.clubId : null,
    items,
    nextCursor,
    me,
    around,
  };
}
