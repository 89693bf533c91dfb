import * as v from 'valibot';
import type { Queryable } from '../db/client';
import { listPushesOlderThan, listRecentStarterlists, readBoxSignals } from './boxSignalsRepository';
import { isFailing, PUSH_STATES, pushState, type PushState } from './boxPushState';

const iso = v.nullable(v.string());
const state = v.picklist(PUSH_STATES);

/** Clubs with failing box pushes the diagnostics summary lists at most, longest failing first. */
export const FAILING_PUSHES_LISTED = 20;

export const BoxPushBlockSchema = v.object({
  /** A channel counts as failing after this many hours without an accepted push (CLUB_MASTER_STALE_AFTER_HOURS). */
  staleAfterHours: v.number(),
  failing: v.number(),
  clubs: v.array(
    v.object({
      clubId: v.string(),
      vereinsId: iso,
      name: v.string(),
      clubMaster: state,
      clubMasterReportedAt: iso,
      starterlists: state,
      starterlistPushAt: iso,
      tokenLastUsedAt: iso,
    }),
  ),
});
export type BoxPushBlock = v.InferOutput<typeof BoxPushBlockSchema>;

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

export const ClubBoxViewSchema = v.object({
  edgeTokens: v.object({ active: v.number(), revoked: v.number(), lastUsedAt: iso }),
  clubMaster: v.object({
    state,
    lastAcceptedAt: iso,
    /** What the newest accepted report changed: clubs reported, added, restored, refreshed, marked deleted. */
    result: v.nullable(v.object({ reported: v.number(), added: v.number(), restored: v.number(), refreshed: v.number(), markedDeleted: v.number() })),
  }),
  starterlists: v.object({
    state,
    lastAcceptedAt: iso,
    lastStarterlistSeenAt: iso,
    recent: v.array(
      v.object({ listId: v.string(), name: iso, listDate: v.string(), discipline: v.string(), startersCount: v.number(), lastSeenAt: v.string() }),
    ),
  }),
  /** The box's own Thursday check of its mirror; null until a push carried one. */
  boxCheck: v.nullable(v.object({ checkedAt: v.string(), eveningStart: iso, hitsAfterEvening: v.nullable(v.boolean()) })),
  staleAfterHours: v.number(),
});
export type ClubBoxView = v.InferOutput<typeof ClubBoxViewSchema>;

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
      ? { checkedAt: signals.boxCheckAt.toISOString(), eveningStart: iso(signals.boxCheckEveningStart), hitsAfterEvening: signals.boxCheckHitsAfter }
      : null,
    staleAfterHours,
  };
}
