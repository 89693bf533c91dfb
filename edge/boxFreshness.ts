import type postgres from 'postgres';
import { DEFAULT_PLAN, type TrainingEvening } from '../shared/freshness/trainingPlan';
import { instantOfWall, MINUTE, wallClock } from '../shared/time/timeZone';

/**
 * The box-side freshness check (spec: Thursday 05:00 UTC, checks the mirror database): were
 * there hits in the club software after the Wednesday evening? Its result, next to the cloud's,
 * tells "box green, cloud red" (the transport stands still) from "box red" (nothing was shot or
 * the club software did not run).
 */

/** Shots as the club software's mirror holds them; shot_at is the device clock of the range. */
export const MIRROR_HIT_TABLE_DDL = `
  create table if not exists club_software_hit (
    id text primary key,
    shot_at timestamptz not null
  )`;

const DAY = 24 * 60 * MINUTE;
const THURSDAY = 4;
/** The check runs at this UTC hour on Thursdays. */
export const CHECK_HOUR_UTC = 5;
/** The Wednesday evening of the default plan, on the clubs' clock. */
const [EVENING] = DEFAULT_PLAN.evenings as [TrainingEvening];
const ZONE = DEFAULT_PLAN.timeZone;

/** The first Thursday 05:00 UTC strictly after `now`. */
export function nextCheckAt(now: Date): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const daysAhead = (THURSDAY - now.getUTCDay() + 7) % 7;
  const candidate = midnight + daysAhead * DAY + CHECK_HOUR_UTC * 60 * MINUTE;
  return new Date(candidate > now.getTime() ? candidate : candidate + 7 * DAY);
}

/** The start of the latest Wednesday evening (18:00 Europe/Berlin) at or before `now`. */
export function wednesdayEveningStart(now: Date): Date {
  const local = wallClock(now, ZONE);
  const today = Date.UTC(local.year, local.month, local.day);
  const [hours, minutes] = EVENING.start.split(':').map(Number) as [number, number];
  for (let back = 0; back <= 7; back += 1) {
    const day = today - back * DAY;
    if (new Date(day).getUTCDay() !== 3) continue;
    const start = instantOfWall(day + (hours * 60 + minutes) * MINUTE, ZONE);
    if (start.getTime() <= now.getTime()) return start;
  }
  throw new Error('No Wednesday within the last week.');
}

export interface BoxCheckResult {
  checkedAt: string;
  eveningStart: string;
  /** green: hits after the evening's start; red: none. */
  result: 'green' | 'red';
  hitsAfterEvening: boolean;
}

/** Looks for a hit in the mirror after the latest Wednesday evening's start. */
export async function checkMirrorForHits(mirror: postgres.Sql, now: Date): Promise<BoxCheckResult> {
  const eveningStart = wednesdayEveningStart(now);
  const [row] = await mirror<{ found: boolean }[]>`
    select exists (select 1 from club_software_hit where shot_at > ${eveningStart}) as found`;
  const found = row?.found === true;
  return {
    checkedAt: now.toISOString(),
    eveningStart: eveningStart.toISOString(),
    result: found ? 'green' : 'red',
    hitsAfterEvening: found,
  };
}

/** What GET /api/freshness/status shows. */
export interface BoxFreshnessStatus {
  schedule: string;
  lastCheck: BoxCheckResult | null;
  lastError: { message: string; at: string } | null;
  nextCheckAt: string | null;
}

export interface BoxFreshness {
  runOnce(): Promise<BoxCheckResult | { error: string }>;
  status(): BoxFreshnessStatus;
  /** The latest completed check, for the starter-list push. */
  lastCheck(): BoxCheckResult | null;
  start(): void;
  stop(): void;
}

/** The check on its Thursday schedule, with a manual run; `now` is injectable for tests. */
export function createBoxFreshness(mirror: postgres.Sql, options: { now?: () => Date } = {}): BoxFreshness {
  const now = options.now ?? (() => new Date());
  const state: BoxFreshnessStatus = {
    schedule: `Thursdays ${String(CHECK_HOUR_UTC).padStart(2, '0')}:00 UTC`,
    lastCheck: null,
    lastError: null,
    nextCheckAt: null,
  };
  let timer: NodeJS.Timeout | undefined;
  let running = false;

  async function runOnce(): Promise<BoxCheckResult | { error: string }> {
    const at = now();
    try {
      const result = await checkMirrorForHits(mirror, at);
      state.lastCheck = result;
      state.lastError = null;
      return result;
    } catch (error) {
      const message = `The mirror database could not be read: ${error instanceof Error ? error.message : String(error)}.`;
      state.lastError = { message, at: at.toISOString() };
      return { error: message };
    }
  }

  function schedule(): void {
    if (!running) return;
    const next = nextCheckAt(now());
    state.nextCheckAt = next.toISOString();
    timer = setTimeout(() => void runOnce().finally(schedule), Math.max(0, next.getTime() - now().getTime()));
  }

  return {
    runOnce,
    status: () => structuredClone(state),
    lastCheck: () => state.lastCheck,
    start() {
      if (running) return;
      running = true;
      schedule();
    },
    stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      state.nextCheckAt = null;
    },
  };
}
