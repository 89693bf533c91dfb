import { instantOfWall, MINUTE, wallClock } from '../time/timeZone';
import { clockMinutes, WEEKDAYS, type TrainingPlan } from './trainingPlan';

/**
 * The freshness evaluation, pure: which training evening is due, and whether shot data arrived
 * for it. No I/O; the caller passes the plan, the club's newest arrival and the clock.
 */

export const FRESHNESS_STATUSES = ['ok', 'stale', 'unknown', 'error'] as const;
export type FreshnessStatus = (typeof FRESHNESS_STATUSES)[number];

/** Data for an evening is expected this long after the evening's end (spec: freshness limits). */
export const FRESHNESS_GRACE_MS = 6 * 60 * MINUTE;

/**
 * Clocks of the app host and of the database host may differ slightly; an arrival up to this far
 * ahead of the app's clock is not yet taken as "database time is wrong".
 */
export const CLOCK_SKEW_TOLERANCE_MS = MINUTE;

const DAY = 24 * 60 * MINUTE;
// Back far enough to reach the previous occurrence of a weekly evening that ends on the next day
// and whose current occurrence is not yet due.
const DAYS_LOOKED_BACK = 9;

export interface Evening {
  start: Date;
  end: Date;
}

/**
 * The latest training evening of the plan whose end plus the grace lies at or before `now`.
 * Evenings are placed on the local calendar of the plan's zone and turned into instants there,
 * so an evening in a week when daylight saving time starts or ends keeps its local times (and
 * one spanning the change is an hour shorter or longer).
 */
export function dueEvening(plan: TrainingPlan, now: Date, graceMs = FRESHNESS_GRACE_MS): Evening {
  const today = wallClock(now, plan.timeZone);
  const todayMillis = Date.UTC(today.year, today.month, today.day);
  let latest: Evening | undefined;
  for (let back = 0; back <= DAYS_LOOKED_BACK; back += 1) {
    const dayMillis = todayMillis - back * DAY;
    const weekday = WEEKDAYS[new Date(dayMillis).getUTCDay()];
    for (const evening of plan.evenings) {
      if (evening.weekday !== weekday) continue;
      const end = instantOfWall(dayMillis + (evening.endsNextDay ? DAY : 0) + clockMinutes(evening.end) * MINUTE, plan.timeZone);
      if (end.getTime() + graceMs > now.getTime()) continue;
      if (latest && latest.end.getTime() >= end.getTime()) continue;
      latest = { start: instantOfWall(dayMillis + clockMinutes(evening.start) * MINUTE, plan.timeZone), end };
    }
  }
  // A valid plan has at least one weekly evening, so one lies within the days looked back.
  if (!latest) throw new Error('The training plan has no evenings.');
  return latest;
}

export type ClubVerdict =
  | { status: 'ok' | 'stale'; evening: Evening }
  | { status: 'unknown'; evening: Evening }
  | { status: 'error'; evening: Evening; reason: 'arrival_in_future' };

/**
 * One club's status for the evening due at `now`:
 * - unknown: the club never delivered a hit (a setup state, not an outage);
 * - error: its newest arrival lies in the future, so the database's time is wrong and the signal unusable;
 * - ok: a hit arrived after the evening's start;
 * - stale: nothing arrived since the evening's start, although the evening and its grace are over.
 */
export function evaluateClub(plan: TrainingPlan, lastArrivalAt: Date | null, now: Date): ClubVerdict {
  return judgeArrival(dueEvening(plan, now), lastArrivalAt, now);
}

/** evaluateClub for an evening already known (clubs sharing a plan share its due evening). */
export function judgeArrival(evening: Evening, lastArrivalAt: Date | null, now: Date): ClubVerdict {
  if (lastArrivalAt === null) return { status: 'unknown', evening };
  if (lastArrivalAt.getTime() > now.getTime() + CLOCK_SKEW_TOLERANCE_MS) return { status: 'error', evening, reason: 'arrival_in_future' };
  return { status: lastArrivalAt.getTime() > evening.start.getTime() ? 'ok' : 'stale', evening };
}

export interface FreshnessCounts {
  checked: number;
  fresh: number;
  stale: number;
  unknown: number;
  /** Clubs whose own signal is unusable (arrival in the future). */
  error: number;
}

/** GET /healthz/data-freshness. */
export interface FreshnessOverview extends Omit<FreshnessCounts, 'error'> {
  status: FreshnessStatus;
  checkedAt: string;
}

export function countStatuses(statuses: readonly FreshnessStatus[]): FreshnessCounts {
  const count = (status: FreshnessStatus) => statuses.filter((each) => each === status).length;
  return { checked: statuses.length, fresh: count('ok'), stale: count('stale'), unknown: count('unknown'), error: count('error') };
}

/**
 * The overall status: error when the check itself failed (`statuses` undefined) or any club's
 * signal is unusable; else stale when any club is stale; else ok when any is fresh; else unknown
 * (no clubs, or none delivered yet).
 */
export function overallFreshness(statuses: readonly FreshnessStatus[] | undefined, checkedAt: Date): FreshnessOverview {
  const at = checkedAt.toISOString();
  if (!statuses) return { status: 'error', checked: 0, fresh: 0, stale: 0, unknown: 0, checkedAt: at };
  const { error, ...counts } = countStatuses(statuses);
  const status: FreshnessStatus = error > 0 ? 'error' : counts.stale > 0 ? 'stale' : counts.fresh > 0 ? 'ok' : 'unknown';
  return { status, ...counts, checkedAt: at };
}
