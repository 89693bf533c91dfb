import type { BoxPushBlock, ClubBoxView } from './boxPushSchema';
import type { Queryable } from '../db/client';
import { listPushesOlderThan, listRecentStarterlists, readBoxSignals } from './boxSignalsRepository';
import { isFailing, pushState, type PushState } from './boxPushState';

/** Clubs with failing box pushes the diagnostics summary lists at most, longest failing first. */
export const FAILING_PUSHES_LISTED = 20;

const HOUR_MS = 3_600_000;
const oldest = (...dates: (Date | null)[]) => Math.min(...dates.map((date) => date?.getTime() ?? Infinity));

/** The boxPushes block of the diagnostics summary: every active club with a failing push channel. */
export async function boxPushBlock(sql: Queryable, now: Date, staleAfterHours: number): Promise<BoxPushBlock> {
  const rows = await listPushesOlderThan(sql, new Date(now.getTime() - staleAfterHours * HOUR_MS));
  const judged = rows
    .map((row) => ({
      row,
      clubMaster: pushState({ lastAcceptedAt: row.clubMasterReportedAt, tokenLastUsedAt: row.tokenLastUsedAt }, now, staleAfterHours),
      starterlists: pushState({ lastAcceptedAt: row.starterlistPushAt, tokenLastUsedAt: row.tokenLastUsedAt }, now, staleAfterHours),
    }))
    .filter((club) => isFailing(club.clubMaster) || isFailing(club.starterlists))
    .sort(
      (a, b) =>
        oldest(a.row.clubMasterReportedAt, a.row.starterlistPushAt) - oldest(b.row.clubMasterReportedAt, b.row.starterlistPushAt) ||
        a.row.clubId.localeCompare(b.row.clubId),
    );
  return {
    staleAfterHours,
    failing: judged.length,
    clubs: judged.slice(0, FAILING_PUSHES_LISTED).map(({ row, clubMaster, starterlists }) => ({
      clubId: row.clubId,
      vereinsId: row.vereinsId,
      name: row.name,
      clubMaster,
      clubMasterReportedAt: row.clubMasterReportedAt?.toISOString() ?? null,
      starterlists,
      starterlistPushAt: row.starterlistPushAt?.toISOString() ?? null,
      tokenLastUsedAt: row.tokenLastUsedAt?.toISOString() ?? null,
    })),
  };
}

/** One club's box as the club page shows it: tokens, each push channel with its state, the box's own check. */
export async function readClubBoxView(sql: Queryable, clubId: string, now: Date, staleAfterHours: number): Promise<ClubBoxView> {
  const [signals, lists] = await Promise.all([readBoxSignals(sql, clubId), listRecentStarterlists(sql, clubId)]);
  const judge = (lastAcceptedAt: Date | null): PushState =>
    pushState({ lastAcceptedAt, tokenLastUsedAt: signals.tokenLastUsedAt }, now, staleAfterHours);
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    edgeTokens: { active: signals.activeTokens, revoked: signals.revokedTokens, lastUsedAt: iso(signals.tokenLastUsedAt) },
    clubMaster: {
      state: judge(signals.clubMasterReportedAt),
      lastAcceptedAt: iso(signals.clubMasterReportedAt),
      result: signals.clubMasterResult,
    },
    starterlists: {
      state: judge(signals.starterlistPushAt),
      lastAcceptedAt: iso(signals.starterlistPushAt),
      lastStarterlistSeenAt: iso(signals.lastStarterlistSeenAt),
      recent: lists.map((list) => ({ ...list, lastSeenAt: list.lastSeenAt.toISOString() })),
    },
    boxCheck: signals.boxCheckAt
      ? {
          checkedAt: signals.boxCheckAt.toISOString(),
          eveningStart: iso(signals.boxCheckEveningStart),
          hitsAfterEvening: signals.boxCheckHitsAfter,
        }
      : null,
    staleAfterHours,
  };
}
