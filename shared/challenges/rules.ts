import * as v from 'valibot';
import { bodyWholeNumber } from '../validation/wholeNumber';

/**
 * The goal language of a challenge's rulesJson: one measurable goal over the member's shot data,
 * the time window whose shots count, and optional rewardBadge / knockout settings. Validated
 * with valibot when a template is created or seeded; the stored value is trusted afterwards.
 */

export const METRICS = ['shots', 'sessions', 'averageRing', 'bestSeries'] as const;
export type Metric = (typeof METRICS)[number];

export const BadgeKeySchema = v.pipe(
  v.string('must be a string'),
  v.regex(/^[a-z0-9][a-z0-9_-]{1,63}$/, 'must be 2 to 64 characters a-z, 0-9, "_" or "-", starting with a letter or digit'),
);

/** Ring values have one decimal (10.9 is the best shot, 109.0 the best ten-shot series). */
const ringValue = (max: number) =>
  v.pipe(
    v.number('must be a number'),
    v.minValue(0.1, 'must be at least 0.1'),
    v.maxValue(max, `must be at most ${max}`),
    v.check((value) => Math.abs(value * 10 - Math.round(value * 10)) < 1e-9, 'must have at most one decimal'),
  );

export const GoalSchema = v.variant(
  'metric',
  [
    v.strictObject({ metric: v.literal('shots'), target: bodyWholeNumber(1, 100_000) }),
    v.strictObject({ metric: v.literal('sessions'), target: bodyWholeNumber(1, 366) }),
    v.strictObject({
      metric: v.literal('averageRing'),
      target: ringValue(10.9),
      /** The average counts only over at least this many shots. */
      minShots: v.optional(bodyWholeNumber(1, 10_000), 30),
    }),
    v.strictObject({ metric: v.literal('bestSeries'), target: ringValue(109) }),
  ],
  'metric must be one of shots, sessions, averageRing, bestSeries',
);
export type Goal = v.InferOutput<typeof GoalSchema>;

export const WindowSchema = v.variant(
  'type',
  [
    /** Every shot from joining until the deadline. */
    v.strictObject({ type: v.literal('participation') }),
    /** Shots of the last `days` days before the evaluation (never before joining). */
    v.strictObject({ type: v.literal('lastDays'), days: bodyWholeNumber(1, 366) }),
  ],
  'type must be participation or lastDays',
);
export type RuleWindow = v.InferOutput<typeof WindowSchema>;

export const RulesSchema = v.strictObject({
  goal: GoalSchema,
  window: v.optional(WindowSchema, { type: 'participation' }),
  /** Only shots of this discipline count (the club software's discipline code). */
  discipline: v.optional(
    v.pipe(v.string('must be a string'), v.trim(), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters')),
  ),
  rewardBadge: v.optional(BadgeKeySchema),
  /**
   * Knockout: nobody completes early; at the challenge's end the best participant of each club
   * wins rewardXp and the next `finalists` places get finalistXp (less than rewardXp).
   */
  knockout: v.optional(v.strictObject({ finalists: bodyWholeNumber(1, 15), finalistXp: bodyWholeNumber(1, 100_000) })),
  /** Inputs of an adaptive goal, kept so a regenerated target can be explained. */
  personalization: v.optional(
    v.strictObject({
      average: v.number(),
      multiplier: v.number(),
      lookbackDays: v.number(),
      sessions: v.number(),
    }),
  ),
});
export type Rules = v.InferOutput<typeof RulesSchema>;

/** What the shot data says for one participation. */
export interface Measurement {
  value: number;
  /** Shots that counted (the averageRing minimum reads it). */
  shots: number;
}

export function isGoalMet(goal: Goal, measurement: Measurement): boolean {
  if (goal.metric === 'averageRing' && measurement.shots < goal.minShots) return false;
  return measurement.value >= goal.target - 1e-9;
}

/** Progress towards the target, 0..1; an average is not complete before its minimum of shots. */
export function progressFraction(goal: Goal, measurement: Measurement): number {
  const towardsTarget = Math.min(1, Math.max(0, measurement.value / goal.target));
  if (goal.metric !== 'averageRing') return round3(towardsTarget);
  const towardsShots = Math.min(1, measurement.shots / goal.minShots);
  return round3(Math.min(towardsTarget, towardsShots));
}

function round3(value: number): number {
  return Math.floor(value * 1000) / 1000;
}
