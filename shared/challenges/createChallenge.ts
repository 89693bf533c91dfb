import { findClubId } from '../clubMaster/clubRepository';
import type { Queryable } from '../db/client';
import { InvalidError, type FieldError } from '../errors/domainErrors';
import { HARD_MAX_REWARD_XP } from './access';
import { findBadgeKey } from './badgeRepository';
import { upsertChallenge } from './challengeRepository';
import type { ChallengeView } from './model';
import type { CreateChallengeBody } from './schemas';
import { compareTiers } from './tiers';
import type { Language } from '../i18n/language';

/** Rules between fields; every broken one is listed. */
export async function validateChallenge(
  sql: Queryable,
  body: CreateChallengeBody,
  now: Date,
  maxRewardXp: number = HARD_MAX_REWARD_XP,
): Promise<void> {
  const errors: FieldError[] = [];
  if (!body.title && !body.titles?.de && !body.titles?.en)
    errors.push({ path: 'title', message: 'is required: give title or titles.de or titles.en' });
  if (body.rewardXp > maxRewardXp) errors.push({ path: 'rewardXp', message: `must be at most ${maxRewardXp}` });
  if (body.scope === 'club' && !body.clubId) errors.push({ path: 'clubId', message: 'is required for a club challenge' });
  if (body.scope !== 'club' && body.clubId) errors.push({ path: 'clubId', message: 'is only allowed on a club challenge' });
  if (body.scope !== 'personal' && body.personalizedForUserId) {
    errors.push({ path: 'personalizedForUserId', message: 'is only allowed on a personal challenge' });
  }
  if (body.lowerLevel && body.upperLevel && compareTiers(body.lowerLevel, body.upperLevel) > 0) {
    errors.push({ path: 'upperLevel', message: 'must not be below lowerLevel' });
  }
  if (body.endsAt && new Date(body.endsAt).getTime() <= now.getTime()) errors.push({ path: 'endsAt', message: 'must be in the future' });
  const knockout = body.rulesJson.knockout;
  if (knockout) {
    if (body.scope !== 'club') errors.push({ path: 'rulesJson.knockout', message: 'is only allowed on a club challenge' });
    if (!body.endsAt) errors.push({ path: 'endsAt', message: 'is required for a knockout challenge' });
    if (knockout.finalistXp >= body.rewardXp) errors.push({ path: 'rulesJson.knockout.finalistXp', message: 'must be less than rewardXp' });
  }
  if (body.rulesJson.rewardBadge) {
    if (!(await findBadgeKey(sql, body.rulesJson.rewardBadge)))
      errors.push({ path: 'rulesJson.rewardBadge', message: 'is not a badge of the registry' });
  }
  if (body.clubId && body.scope === 'club') {
    if (!(await findClubId(sql, body.clubId))) errors.push({ path: 'clubId', message: 'is not a club' });
  }
  if (errors.length) throw new InvalidError('The challenge is not valid.', errors);
}

/** Creates a template; `maxRewardXp` is the creator's bound (access.ts maxRewardXpFor). */
export async function createChallenge(
  sql: Queryable,
  body: CreateChallengeBody,
  createdBy: string,
  options: { maxRewardXp?: number; now?: Date; language?: Language } = {},
): Promise<ChallengeView> {
  await validateChallenge(sql, body, options.now ?? new Date(), options.maxRewardXp);
  return upsertChallenge(
    sql,
    {
      scope: body.scope,
      clubId: body.clubId ?? null,
      personalizedForUserId: body.personalizedForUserId ?? null,
      // The language-neutral text is what a reader gets when their language has none: the one `title`
      // when given, else German, else English.
      title: body.title ?? body.titles?.de ?? body.titles?.en ?? '',
      description: body.description ?? body.descriptions?.de ?? body.descriptions?.en ?? null,
      titles: body.titles ?? {},
      descriptions: body.descriptions ?? {},
      difficulty: body.difficulty,
      durationDays: body.durationDays,
      endsAt: body.endsAt ? new Date(body.endsAt) : null,
      lowerLevel: body.lowerLevel ?? null,
      upperLevel: body.upperLevel ?? null,
      defaultVisibility: body.defaultVisibility,
      rewardXp: body.rewardXp,
      priceCents: body.priceCents ?? null,
      rules: body.rulesJson,
      createdBy,
    },
    {},
    options.language,
  );
}
