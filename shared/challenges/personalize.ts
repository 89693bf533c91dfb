import type { Queryable } from '../db/client';
import { ConflictError } from '../errors/domainErrors';
import { upsertChallenge } from './challengeRepository';
import type { ChallengeView } from './model';
import { adaptiveGoal, MIN_HISTORY_SESSIONS } from './personalizeMaths';
import { DEFAULT_LANGUAGE, type Language } from '../i18n/language';
import { challengeTextInBoth } from '../i18n/challengeTexts';
import type { PersonalizeBody, PersonalizeResponse } from './schemas';
import { measureShots } from './shotDataRepository';

/**
 * Generates (or regenerates: same user and metric, same template) an adaptive personal goal
 * from the member's history: average × (1 + the difficulty's multiplier). Participations that
 * already joined keep the target they joined with.
 */
export async function personalize(
  sql: Queryable,
  body: PersonalizeBody,
  now: Date = new Date(),
  language: Language = DEFAULT_LANGUAGE,
): Promise<{ challenge: ChallengeView; recommendation: PersonalizeResponse['recommendation'] }> {
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
  const titles = challengeTextInBoth(`personal.${body.metric}.title`);
  const descriptions = challengeTextInBoth('personal.description', {
    percent: Math.round(adaptive.multiplier * 100),
    days: body.lookbackDays,
  });
  const challenge = await upsertChallenge(
    sql,
    {
      scope: 'personal',
      clubId: null,
      personalizedForUserId: body.userId,
      title: titles.de,
      description: descriptions.de,
      titles,
      descriptions,
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
    language,
  );
  return { challenge, recommendation: { metric: body.metric, target: adaptive.goal.target, ...personalization } };
}
