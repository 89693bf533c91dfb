import type { Sql } from '../db/client';
import { notify } from '../notifications/notify';
import { wallClock } from '../time/timeZone';
import { computeStreak, currentWeek, isoWeekLabel, weekStartsAt, type Streak } from './streak';
import { claimStreakWarning, streakWarningCandidates, trainingDaysOf } from './streakRepository';
import { SESSION_TIME_ZONE } from './shotDataRepository';

export type StreakAnswer = Streak & { hasShooterLink: boolean };

/** GET /api/me/streak: the caller's streak now, computed from their training days on every call (nothing of it is stored). */
export async function streakOf(sql: Sql, userId: string, now = new Date()): Promise<StreakAnswer> {
  const { hasShooterLink, days } = await trainingDaysOf(sql, userId);
  return { ...computeStreak(days, now), hasShooterLink };
}

/** The warning goes out on Sunday, the week's last day, from this hour in Berlin: late enough to mean it, early enough to train. */
export const WARNING_HOUR = 10;
/** The warning is for streaks of at least this many weeks. */
export const WARNING_MIN_WEEKS = 2;
/**
 * Weeks before this one in which a candidate must have trained. A streak alive at the end of last
 * week had a training week within the last three (at most two frozen weeks in a row: a month
 * boundary); five leaves room.
 */
const CANDIDATE_WEEKS = 5;

/**
 * One inbox entry, once per member and week, for a streak of two weeks or more whose week is
 * ending without training: run by the challengeProgress timer every 15 minutes, it acts only on
 * Sunday from WARNING_HOUR (Berlin). The week's row in challenge_streak_warning is written in the
 * entry's transaction, so a repeated or concurrent run writes no second entry. Inbox only: no email
 * or push. Answers how many members were warned.
 */
export async function warnStreaksAtRisk(sql: Sql, now = new Date()): Promise<number> {
  const wall = wallClock(now, SESSION_TIME_ZONE);
  const sunday = new Date(Date.UTC(wall.year, wall.month, wall.day)).getUTCDay() === 0;
  if (!sunday || wall.hour < WARNING_HOUR) return 0;
  const week = currentWeek(now);
  const isoWeek = isoWeekLabel(week);
  const candidates = await streakWarningCandidates(sql, {
    since: weekStartsAt(week - CANDIDATE_WEEKS),
    weekStart: weekStartsAt(week),
    isoWeek,
  });
  const atRisk = candidates
    .map((candidate) => ({ userId: candidate.userId, streak: computeStreak(candidate.days, now) }))
    .filter(({ streak }) => streak.weeks >= WARNING_MIN_WEEKS && !streak.trainedThisWeek);
  if (atRisk.length === 0) return 0;
  let warned = 0;
  for (const { userId, streak } of atRisk) {
    const written = await sql.begin(async (tx) => {
      if (!(await claimStreakWarning(tx, userId, isoWeek))) return false;
      await notify(
        tx,
        {
          userId,
          // A catalogue message, so the inbox reads it in the reader's language wherever it is read.
          message: {
            key: 'challenges.streakAtRisk',
            params: { weeks: streak.weeks, freeze: streak.freezeAvailable ? 'available' : 'spent' },
          },
          tone: 'warning',
          kind: 'challenge',
          category: 'training',
          source: 'challenges',
          channels: [],
        },
        now,
      );
      return true;
    });
    if (written) warned += 1;
  }
  return warned;
}
