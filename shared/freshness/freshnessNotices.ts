import type { Sql } from '../db/client';
import type { Message } from '../i18n/message';
import type { Logger } from '../log/logger';
import { notify } from '../notifications/notify';
import type { ClubFreshness } from './clubFreshness';
import { listClubLeaders } from './freshnessRepository';
import { releaseRecoveryClaim, releaseStaleClaim, type ClaimedNotices } from './freshnessState';

/** The producer name the inbox records for these notices. */
export const FRESHNESS_SOURCE = 'freshness';

/** Tells each leader of the club that no shot data arrived for the evaluated evening (warning), in their language. */
export async function notifyClubStale(sql: Sql, club: ClubFreshness, now: Date): Promise<number> {
  const params = {
    club: club.signals.name,
    evening: club.verdict.evening.start.toISOString(),
    timeZone: club.plan.timeZone,
    planSource: club.planSource,
    ...(club.hint ? { hint: club.hint.code } : {}),
  };
  return notifyLeaders(sql, club, { key: 'freshness.stale', params }, 'warning', now);
}

/** Tells each leader of the club that shot data arrives again (success), in their language. */
export async function notifyClubRecovered(sql: Sql, club: ClubFreshness, now: Date): Promise<number> {
  const params = { club: club.signals.name, evening: club.verdict.evening.start.toISOString(), timeZone: club.plan.timeZone };
  return notifyLeaders(sql, club, { key: 'freshness.recovered', params }, 'success', now);
}

async function notifyLeaders(sql: Sql, club: ClubFreshness, message: Message, tone: 'warning' | 'success', now: Date): Promise<number> {
  const leaders = await listClubLeaders(sql, club.signals.clubId);
  for (const userId of leaders) {
    await sql.begin((tx) => notify(tx, { userId, message, tone, kind: 'report', category: 'club', source: FRESHNESS_SOURCE }, now));
  }
  return leaders.length;
}

export interface NoticeOutcome {
  staleNotices: number;
  recoveryNotices: number;
  failedNotices: number;
}

/**
 * Sends the notices a run claimed. A club whose notice fails gets its claim back (the next run
 * tries again) and the others still go out; the failures are counted and logged.
 */
export async function sendClaimedNotices(
  sql: Sql,
  clubs: readonly ClubFreshness[],
  claimed: ClaimedNotices,
  now: Date,
  log: Logger,
): Promise<NoticeOutcome> {
  const byId = new Map(clubs.map((club) => [club.signals.clubId, club]));
  const outcome: NoticeOutcome = { staleNotices: 0, recoveryNotices: 0, failedNotices: 0 };
  /** Sends one club's notice; on failure counts and logs it and gives the claim back. Returns how many went out. */
  const send = async (
    clubId: string,
    notice: 'stale' | 'recovered',
    notify: (club: ClubFreshness) => Promise<number>,
    release: () => Promise<unknown>,
  ) => {
    const club = byId.get(clubId);
    if (!club) return 0;
    try {
      return await notify(club);
    } catch (error) {
      outcome.failedNotices += 1;
      log.warn('freshness_notice_failed', { clubId, notice, error });
      await release();
      return 0;
    }
  };
  for (const { clubId, eveningStart } of claimed.stale) {
    outcome.staleNotices += await send(
      clubId,
      'stale',
      (club) => notifyClubStale(sql, club, now),
      () => releaseStaleClaim(sql, clubId, eveningStart),
    );
  }
  for (const clubId of claimed.recovered) {
    outcome.recoveryNotices += await send(
      clubId,
      'recovered',
      (club) => notifyClubRecovered(sql, club, now),
      () => releaseRecoveryClaim(sql, clubId),
    );
  }
  return outcome;
}
