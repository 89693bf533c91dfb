import type { Goal, Metric } from './rules';

export const DIFFICULTIES = ['easy', 'medium', 'hard', 'expert'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

/** How far above the personal average an adaptive goal sits, per difficulty. */
export const DIFFICULTY_MULTIPLIER: Readonly<Record<Difficulty, number>> = {
  easy: 0.02,
  medium: 0.05,
  hard: 0.1,
  expert: 0.15,
};

/** Fewer training sessions than this in the look-back window is too thin a history to adapt to. */
export const MIN_HISTORY_SESSIONS = 3;

/** The member's shot history over the look-back window. */
export interface History {
  lookbackDays: number;
  sessions: number;
  shots: number;
  /** Mean ring value of every shot; null without shots. */
  averageRing: number | null;
  /** Mean over sessions of the session's best series total; null without series. */
  averageBestSeries: number | null;
}

export interface AdaptiveGoal {
  goal: Goal;
  /** The personal average the target is derived from (per week for counts, per shot/series for rings). */
  average: number;
  multiplier: number;
}

const roundUpWhole = (value: number) => Math.ceil(value - 1e-9);
const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/**
 * target = personal average × (1 + multiplier). Counts (shots, sessions) are weekly averages
 * scaled to the challenge's duration and rounded up to whole numbers; ring values round to one
 * decimal and stop at the maximum possible (10.9 a shot, 109.0 a series). Answers null when the
 * history is too thin (fewer than MIN_HISTORY_SESSIONS sessions).
 */
export function adaptiveGoal(metric: Metric, history: History, difficulty: Difficulty, durationDays: number): AdaptiveGoal | null {
  if (history.sessions < MIN_HISTORY_SESSIONS) return null;
  const multiplier = DIFFICULTY_MULTIPLIER[difficulty];
  const weeks = history.lookbackDays / 7;
  const durationWeeks = durationDays / 7;
  switch (metric) {
    case 'shots': {
      const average = history.shots / weeks;
      return {
        goal: { metric, target: Math.min(100_000, Math.max(1, roundUpWhole(average * durationWeeks * (1 + multiplier)))) },
        average,
        multiplier,
      };
    }
    case 'sessions': {
      const average = history.sessions / weeks;
      const target = Math.min(durationDays, Math.max(1, roundUpWhole(average * durationWeeks * (1 + multiplier))));
      return { goal: { metric, target }, average, multiplier };
    }
    case 'averageRing': {
      if (history.averageRing === null) return null;
      const average = history.averageRing;
      return { goal: { metric, target: Math.min(10.9, oneDecimal(average * (1 + multiplier))), minShots: 30 }, average, multiplier };
    }
    case 'bestSeries': {
      if (history.averageBestSeries === null) return null;
      const average = history.averageBestSeries;
      return { goal: { metric, target: Math.min(109, oneDecimal(average * (1 + multiplier))) }, average, multiplier };
    }
  }
}
