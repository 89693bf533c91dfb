import * as v from 'valibot';

/** GET /api/me/streak. */
export const StreakSchema = v.pipe(
  v.object({
    weeks: v.number(),
    longestWeeks: v.number(),
    trainedThisWeek: v.boolean(),
    freezeAvailable: v.boolean(),
    /** ISO weeks ("2026-W47") of the current streak that a freeze covered. */
    frozenWeeks: v.array(v.string()),
    atRisk: v.boolean(),
    weekEndsAt: v.string(),
    hasShooterLink: v.boolean(),
  }),
  v.title('TrainingStreak'),
);
