import * as v from 'valibot';
import type { Queryable } from '../db/client';
import { ConflictError } from '../errors/domainErrors';
import { upsertChallenge } from './challengeRepository';
import { ChallengeSchema, type ChallengeView } from './model';
import { adaptiveGoal, DIFFICULTIES, MIN_HISTORY_SESSIONS } from './personalizeMaths';
import { METRICS, type Metric } from './rules';
import { measureShots } from './shotData';

export const PersonalizeBodySchema = v.strictObject({
  userId: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(200, 'must be at most 200 characters')),
  metric: v.picklist(METRICS, 'must be shots, sessions, averageRing or bestSeries'),
  difficulty: v.optional(v.picklist(DIFFICULTIES, 'must be easy, medium, hard or expert'), 'medium'),
  lookbackDays: v.optional(
    v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(7, 'must be at least 7'), v.maxValue(365, 'must be at most 365')),
    56,
  ),
  durationDays: v.optional(
    v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'), v.maxValue(90, 'must be at most 90')),
    14,
  ),
  rewardXp: v.optional(
    v.pipe(
      v.number(),
      v.integer('must be a whole number'),
      v.minValue(450, 'must be at least 450'),
      v.maxValue(650, 'must be at most 650'),
    ),
    500,
  ),
});
export type PersonalizeBody = v.InferOutput<typeof PersonalizeBodySchema>;

export const PersonalizeResponseSchema = v.pipe(
  v.object({
    challenge: ChallengeSchema,
    recommendation: v.object({
      metric: v.picklist(METRICS),
      average: v.number(),
      multiplier: v.number(),
      target: v.number(),
      lookbackDays: v.number(),
      sessions: v.number(),
    }),
  }),
  v.title('PersonalizedChallenge'),
);

const TITLES: Record<Metric, string> = {
  shots: 'Personal goal: shots',
  sessions: 'Personal goal: training sessions',
  averageRing: 'Personal goal: average ring value',
  bestSeries: 'Personal goal: best series',
};

/**
 * Generates (or regenerates: same user and metric, same template) an adaptive personal goal
 * from the member's history: average × (1 + the difficulty's multiplier). Participations that
 * already joined keep the target they joined with.
 */
export async function personalize(
  sql: Queryable,
  body: PersonalizeBody,
  now: Date = new Date(),
): Promise<{ challenge: ChallengeView; recommendation: v.InferOutput<typeof PersonalizeResponseSchema>['recommendation'] }> {
  const history = await measureShots(sql, {
    userId: body.userId,
    clubId: null,
    from: new Date(now.getTime() - body.lookbackDays * 86_400_000),
    to: now,
    discipline: null,
  });
  const adaptive = adaptiveGoal(
    body.metric,
    {
      lookbackDays: body.lookbackDays,
      sessions: history.sessions,
      shots: history.shots,
      averageRing: history.averageRing,
      averageBestSeries: history.averageBestSeries,
    },
    body.difficulty,
    body.durationDays,
  );
  if (!adaptive) {
    throw new ConflictError(
      `At least ${MIN_HISTORY_SESSIONS} training sessions in the last ${body.lookbackDays} days are needed; found ${history.sessions}.`,
      {
        code: 'insufficient_history',
      },
    );
  }
  const personalization = {
    average: Math.round(adaptive.average * 100) / 100,
    multiplier: adaptive.multiplier,
    lookbackDays: body.lookbackDays,
    sessions: history.sessions,
  };
  const challenge = await upsertChallenge(
    sql,
    {
      scope: 'personal',
      clubId: null,
      personalizedForUserId: body.userId,
      title: TITLES[body.metric],
      description: `${Math.round(adaptive.multiplier * 100)} % above your average of the last ${body.lookbackDays} days.`,
      difficulty: body.difficulty,
      durationDays: body.durationDays,
      endsAt: null,
      lowerLevel: null,
      upperLevel: null,
      defaultVisibility: 'private',
      rewardXp: body.rewardXp,
      priceCents: null,
      rules: { goal: adaptive.goal, window: { type: 'participation' }, personalization },
      createdBy: 'personalize',
    },
    { personalizationKey: `${body.userId}:${body.metric}` },
  );
  return { challenge, recommendation: { metric: body.metric, target: adaptive.goal.target, ...personalization } };
}
