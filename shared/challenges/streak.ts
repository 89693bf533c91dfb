import { instantOfWall, wallClock } from '../time/timeZone';
import { SESSION_TIME_ZONE } from './shotDataRepository';

/**
 * The training streak: ISO weeks in a row (Monday to Sunday, Europe/Berlin) in each of which the
 * member trained on at least one day, computed from the distinct training days alone. Pure.
 *
 * - The week now running counts once trained; not yet trained, it is no break (it has not ended).
 * - A missed week keeps the streak alive when that week's month still has its freeze: one per
 *   calendar month, spent on the first missed week of a streak in it. A week's month is the month
 *   of its Thursday, as ISO 8601 gives a week its year (2026-W05, 26 Jan to 1 Feb, is January's).
 *   A frozen week keeps the streak but does not add to it; a second miss in the same month ends it.
 */
export interface Streak {
  weeks: number;
  longestWeeks: number;
  trainedThisWeek: boolean;
  /** This week's month has its freeze still: missing this week would not end the streak. */
  freezeAvailable: boolean;
  /** The weeks of the current streak a freeze covered, oldest first ("2026-W47"). */
  frozenWeeks: string[];
  /** The streak ends when this week ends without training. */
  atRisk: boolean;
  /** When this week ends: the coming Monday, 00:00 in Berlin, as an ISO instant. */
  weekEndsAt: string;
}

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a calendar date 'YYYY-MM-DD'. */
function dayNumberOf(date: string): number {
  const [year, month, day] = date.split('-').map(Number);
  return Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1) / DAY_MS;
}

/** Weeks counted from the one of 1970-01-01 (Monday 1969-12-29); week w runs from day 7w - 3 to 7w + 3. */
const weekOfDay = (dayNumber: number) => Math.floor((dayNumber + 3) / 7);
const thursdayOf = (week: number) => new Date(week * 7 * DAY_MS);

/** "2026-W53": the ISO year and week number, both taken from the week's Thursday. */
export function isoWeekLabel(week: number): string {
  const thursday = thursdayOf(week);
  const year = thursday.getUTCFullYear();
  const number = Math.floor((week * 7 - Date.UTC(year, 0, 1) / DAY_MS) / 7) + 1;
  return `${year}-W${String(number).padStart(2, '0')}`;
}

/** The calendar month a week's freeze is taken from: its Thursday's. */
function monthOf(week: number): number {
  const thursday = thursdayOf(week);
  return thursday.getUTCFullYear() * 12 + thursday.getUTCMonth();
}

/** The week `now` falls in, on the Berlin calendar. */
export function currentWeek(now: Date): number {
  const wall = wallClock(now, SESSION_TIME_ZONE);
  return weekOfDay(Date.UTC(wall.year, wall.month, wall.day) / DAY_MS);
}

/** When week `week` starts: its Monday, 00:00 in Berlin. */
export function weekStartsAt(week: number): Date {
  return instantOfWall((week * 7 - 3) * DAY_MS, SESSION_TIME_ZONE);
}

/** The streak at `now`, from the member's training days ('YYYY-MM-DD' on the Berlin calendar, in any order, repeats allowed). */
export function computeStreak(trainingDays: readonly string[], now: Date): Streak {
  const thisWeek = currentWeek(now);
  const trained = new Set(trainingDays.map((day) => weekOfDay(dayNumberOf(day))).filter((week) => week <= thisWeek));
  const usedFreezes = new Set<number>();
  let run = 0;
  let longest = 0;
  let frozen: number[] = [];
  for (let week = trained.size > 0 ? Math.min(...trained) : thisWeek; week < thisWeek; week += 1) {
    if (trained.has(week)) {
      run += 1;
      longest = Math.max(longest, run);
    } else if (run > 0 && !usedFreezes.has(monthOf(week))) {
      usedFreezes.add(monthOf(week));
      frozen.push(week);
    } else {
      run = 0;
      frozen = [];
    }
  }
  const trainedThisWeek = trained.has(thisWeek);
  if (trainedThisWeek) {
    run += 1;
    longest = Math.max(longest, run);
  }
  const freezeAvailable = !usedFreezes.has(monthOf(thisWeek));
  return {
    weeks: run,
    longestWeeks: longest,
    trainedThisWeek,
    freezeAvailable,
    frozenWeeks: frozen.map(isoWeekLabel),
    atRisk: run > 0 && !trainedThisWeek && !freezeAvailable,
    weekEndsAt: weekStartsAt(thisWeek + 1).toISOString(),
  };
}
