import * as v from 'valibot';

/**
 * The one rule for a date-time in request input: RFC 3339 with seconds and an explicit zone,
 * `2026-11-19T05:00:00Z`, `2026-11-19T06:00:00.250+01:00`. `Date.parse` rolls an impossible date
 * over (2027-02-31 is read as 3 March) and PostgreSQL would store it or refuse it only after the
 * handler began, so the calendar fields parsed must equal those sent. The instant must lie in
 * [EARLIEST_TIMESTAMP, LATEST_TIMESTAMP); times a box reports from its own clock may also be
 * bounded to at most a few minutes ahead of the service's clock. The output is the text as sent.
 */

export const EARLIEST_TIMESTAMP = '2000-01-01T00:00:00Z';
/** Exclusive: the last accepted instant is the end of 2099. */
export const LATEST_TIMESTAMP = '2100-01-01T00:00:00Z';

/** How far ahead of the service's clock a box's clock may run (NTP drift, not a year). */
export const BOX_CLOCK_SKEW_MINUTES = 5;

const FORMAT_MESSAGE = 'must be an RFC 3339 timestamp with seconds and a zone, like 2026-11-19T05:00:00Z';

const FIELDS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

const DEFAULT_RANGE = { from: EARLIEST_TIMESTAMP, before: LATEST_TIMESTAMP };

export interface TimestampOptions {
  /** Another accepted range, for data that is not request input (shots recorded by club software). */
  within?: { from: string; before: string };
  /** Refuse instants more than this many minutes after now (box-reported times). */
  maxMinutesAhead?: number;
  /** The clock the future bound is measured against (tests pin it). */
  now?: () => Date;
}

export type TimestampCheck = { instant: Date } | { problem: string };

/** The instant a timestamp names, or why it names none; the whole rule, without valibot. */
export function checkTimestamp(value: string, options: TimestampOptions = {}): TimestampCheck {
  const match = FIELDS.exec(value);
  if (!match) return { problem: FORMAT_MESSAGE };
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const fraction = match[7] ?? '';
  const [sign, offsetHours, offsetMinutes] = [match[8], Number(match[9] ?? 0), Number(match[10] ?? 0)];
  if (offsetHours > 23 || offsetMinutes > 59) return { problem: FORMAT_MESSAGE };
  const range = options.within ?? DEFAULT_RANGE;
  const rangeProblem = `must lie from ${range.from} up to before ${range.before}`;
  // Date.UTC reads years below 100 as 19xx; no accepted range reaches back that far.
  if (year < 1000) return { problem: rangeProblem };

  // Date.UTC rolls every field over; an unchanged round trip means the date and time exist.
  const wall = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const sent = [year, month, day, hour, minute, second];
  const parsed = [
    wall.getUTCFullYear(),
    wall.getUTCMonth() + 1,
    wall.getUTCDate(),
    wall.getUTCHours(),
    wall.getUTCMinutes(),
    wall.getUTCSeconds(),
  ];
  if (sent.some((field, index) => field !== parsed[index])) {
    return { problem: `must be a date and time that exist (${value.slice(0, 10)} ${value.slice(11, 19)} does not)` };
  }

  const offsetMs = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const instantMs = wall.getTime() - offsetMs + Number(`0.${fraction || '0'}`) * 1000;
  if (instantMs < Date.parse(range.from) || instantMs >= Date.parse(range.before)) return { problem: rangeProblem };
  if (options.maxMinutesAhead !== undefined) {
    const nowMs = (options.now?.() ?? new Date()).getTime();
    if (instantMs > nowMs + options.maxMinutesAhead * 60_000) {
      return { problem: `must not be more than ${options.maxMinutesAhead} minutes in the future` };
    }
  }
  return { instant: new Date(instantMs) };
}

/** A request field holding a timestamp (see the module comment); its output is the string as sent. */
export function timestampSchema(options: TimestampOptions = {}) {
  return v.pipe(
    v.string('must be a string'),
    // Kept for the OpenAPI document (format: date-time) and as the first, coarse check.
    v.isoTimestamp(FORMAT_MESSAGE),
    v.rawTransform<string, string>(({ dataset, addIssue, NEVER }) => {
      const checked = checkTimestamp(dataset.value, options);
      if ('problem' in checked) {
        addIssue({ message: checked.problem });
        return NEVER;
      }
      return dataset.value;
    }),
  );
}
