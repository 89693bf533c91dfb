import * as v from 'valibot';
import type { FieldError } from '../errors/domainErrors';
import { canonicalTimeZone, DEFAULT_TIME_ZONE } from '../time/timeZone';

/**
 * A club's training plan: the weekly evenings of its range-supervision schedule, in the club's
 * time zone. The freshness check expects shot data after each evening.
 */

export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface TrainingEvening {
  weekday: Weekday;
  /** Local wall-clock start, "HH:MM". */
  start: string;
  /** Local wall-clock end, "HH:MM"; on the next day when endsNextDay is set. */
  end: string;
  /** The evening runs past midnight: it ends at `end` on the day after `weekday`. */
  endsNextDay: boolean;
}

export interface TrainingPlan {
  timeZone: string;
  evenings: TrainingEvening[];
}

export type PlanSource = 'stored' | 'assumed';

/** The plan of a club that stored none: Wednesday 18:00 to 20:00 in the service's home zone. */
export const DEFAULT_PLAN: TrainingPlan = Object.freeze({
  timeZone: DEFAULT_TIME_ZONE,
  evenings: [{ weekday: 'wednesday', start: '18:00', end: '20:00', endsNextDay: false }],
}) as TrainingPlan;

/** A club's plan with where it came from: its own stored plan, or the default. */
export function resolvePlan(stored: TrainingPlan | null | undefined): { plan: TrainingPlan; planSource: PlanSource } {
  return stored ? { plan: stored, planSource: 'stored' } : { plan: DEFAULT_PLAN, planSource: 'assumed' };
}

export const MAX_EVENINGS = 14;
const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Minutes after midnight of "HH:MM". */
export function clockMinutes(clock: string): number {
  const [hours, minutes] = clock.split(':').map(Number) as [number, number];
  return hours * 60 + minutes;
}

const ClockSchema = v.pipe(v.string('must be a string'), v.regex(CLOCK, 'must be a time "HH:MM" (00:00 to 23:59)'));

const EveningSchema = v.object({
  weekday: v.picklist(WEEKDAYS, `must be one of ${WEEKDAYS.join(', ')}`),
  start: ClockSchema,
  end: ClockSchema,
  endsNextDay: v.optional(v.boolean('must be true or false'), false),
});

/** Body of PUT /api/admin/clubs/{clubId}/training-plan; the rules across fields are checkPlanRules'. */
export const TrainingPlanBodySchema = v.object({
  timeZone: v.optional(v.pipe(v.string('must be a string'), v.trim()), DEFAULT_TIME_ZONE),
  evenings: v.pipe(
    v.array(EveningSchema, 'must be an array'),
    v.minLength(1, 'must list at least one evening'),
    v.maxLength(MAX_EVENINGS, `must list at most ${MAX_EVENINGS} evenings`),
  ),
});
export type TrainingPlanBody = v.InferOutput<typeof TrainingPlanBodySchema>;

const WEEK_MINUTES = 7 * 24 * 60;

/**
 * The rules a plan must satisfy beyond its shape, each failure naming its field (relative to the plan: `evenings.0.end`):
 * a known IANA time zone; an end after the start unless the evening is marked endsNextDay
 * (then the end must come before the start on the clock, so an evening lasts less than a day);
 * no two evenings overlapping on the weekly clock, including a Saturday evening running into a
 * Sunday one. Returns the plan with the canonical zone name when every rule holds.
 */
export function checkPlanRules(body: TrainingPlanBody): { plan: TrainingPlan } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const timeZone = canonicalTimeZone(body.timeZone);
  if (!timeZone) errors.push({ path: 'timeZone', message: 'must be a known IANA time zone such as Europe/Berlin' });

  const spans: { index: number; from: number; to: number }[] = [];
  body.evenings.forEach((evening, index) => {
    const start = clockMinutes(evening.start);
    const end = clockMinutes(evening.end);
    if (!evening.endsNextDay && end <= start) {
      errors.push({
        path: `evenings.${index}.end`,
        message: 'must be after start (set endsNextDay for an evening that runs past midnight)',
      });
      return;
    }
    if (evening.endsNextDay && end >= start) {
      errors.push({
        path: `evenings.${index}.end`,
        message: 'must be before start on the clock when endsNextDay is set (an evening lasts less than a day)',
      });
      return;
    }
    const from = WEEKDAYS.indexOf(evening.weekday) * 24 * 60 + start;
    spans.push({ index, from, to: from + (end - start + (evening.endsNextDay ? 24 * 60 : 0)) });
  });

  for (const a of spans) {
    const clash = spans.find((b) => b.index < a.index && weeklyOverlap(a, b));
    if (clash) errors.push({ path: `evenings.${a.index}`, message: `overlaps evening ${clash.index}` });
  }
  if (errors.length || !timeZone) return { errors };
  return {
    plan: {
      timeZone,
      evenings: body.evenings.map(({ weekday, start, end, endsNextDay }) => ({ weekday, start, end, endsNextDay })),
    },
  };
}

/** Whether two spans of the weekly clock overlap; a span past Saturday midnight wraps into Sunday. */
function weeklyOverlap(a: { from: number; to: number }, b: { from: number; to: number }): boolean {
  return [-WEEK_MINUTES, 0, WEEK_MINUTES].some((shift) => a.from < b.to + shift && b.from + shift < a.to);
}
