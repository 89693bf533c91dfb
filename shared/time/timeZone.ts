/**
 * Wall-clock time in an IANA time zone, through Intl (no time zone database of our own). Pure:
 * the zone is always passed in; the only state is a cache of formatters, which are costly to build.
 */

/**
 * The service's home zone: what a user who never chose a time zone gets. The clubs are German,
 * so quiet hours and summary times mean German wall-clock time unless the user says otherwise.
 * The `user_settings.time_zone` column default repeats it (migration 005).
 */
export const DEFAULT_TIME_ZONE = 'Europe/Berlin';

export const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/**
 * The canonical name of an IANA time zone (`europe/berlin` → `Europe/Berlin`), or undefined when
 * Intl does not know it. Offsets such as `+01:00` are not zones: they have no daylight saving time.
 */
export function canonicalTimeZone(name: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return undefined;
  // Zone names match case-insensitively (ECMA-402), so the lower-case name keys every spelling of
  // one zone: the known zones bound the cache. Building a formatter to ask Intl was 7 % of the
  // host's busy time while users saved settings (docs/benchmarks.md, Soak).
  const key = name.toLowerCase();
  const known = canonicalNames.get(key);
  if (known) return known;
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  if (canonicalNames.size < MAX_CANONICAL_NAMES) canonicalNames.set(key, canonical);
  return canonical;
}

/** Unknown names are never stored; this caps the known ones well above the IANA database's size. */
const MAX_CANONICAL_NAMES = 2_000;
const canonicalNames = new Map<string, string>();

/** A wall-clock moment: the local date and time, in the fields of `Date.UTC`. */
export interface WallClock {
  year: number;
  /** 0 to 11, as in Date.UTC. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** What a clock on the wall in `timeZone` shows at `instant` (to the second). */
export function wallClock(instant: Date, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  // The formatter is built with every one of these fields, so each part is present.
  const field = (name: keyof WallClock): number => parts[name] ?? 0;
  return {
    year: field('year'),
    month: field('month') - 1,
    day: field('day'),
    hour: field('hour'),
    minute: field('minute'),
    second: field('second'),
  };
}

/** The wall clock as a number, as if it were UTC: lets local dates and times be added and compared. */
export function wallMillis(clock: WallClock): number {
  return Date.UTC(clock.year, clock.month, clock.day, clock.hour, clock.minute, clock.second);
}

/** How far `timeZone` is ahead of UTC at `epochMillis`, in milliseconds. */
function offsetAt(epochMillis: number, timeZone: string): number {
  const whole = Math.floor(epochMillis / 1000) * 1000;
  return wallMillis(wallClock(new Date(whole), timeZone)) - whole;
}

/**
 * The instant at which the wall clock in `timeZone` shows `wall` (from wallMillis). As Temporal's
 * "compatible" rule: a time that occurs twice (the hour repeated when DST ends) is the earlier
 * instant; a time that does not exist (the hour skipped when DST starts) is moved forward by the
 * length of the gap (02:30 on the spring-forward night in Berlin is 03:30 CEST).
 */
export function instantOfWall(wall: number, timeZone: string): Date {
  // Offsets a day either side bracket any single transition near `wall`.
  const before = offsetAt(wall - DAY, timeZone);
  const after = offsetAt(wall + DAY, timeZone);
  const matching = [wall - before, wall - after].filter((candidate) => candidate + offsetAt(candidate, timeZone) === wall);
  if (matching.length > 0) return new Date(Math.min(...matching));
  return new Date(wall - before);
}
