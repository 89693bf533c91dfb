import * as v from 'valibot';
import type { Queryable } from '../db/client';
import { InvalidError, type FieldError } from '../errors/domainErrors';
import { upsertChallenge } from './challengeRepository';
import { SCOPES, VISIBILITIES, type ChallengeView } from './model';
import { DIFFICULTIES } from './personalizeMaths';
import { RulesSchema } from './rules';
import { visibleText } from './text';
import { compareTiers, TIERS } from './tiers';

const wholeNumber = (min: number, max: number) =>
  v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

/** POST /api/challenges. Field-level rules here; rules across fields in validateChallenge. */
export const CreateChallengeBodySchema = v.strictObject({
  scope: v.picklist(SCOPES, 'must be global, club or personal'),
  clubId: v.optional(v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(64))),
  personalizedForUserId: v.optional(v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(200))),
  title: visibleText(120),
  description: v.optional(visibleText(2000)),
  difficulty: v.picklist(DIFFICULTIES, 'must be easy, medium, hard or expert'),
  durationDays: wholeNumber(1, 366),
  endsAt: v.optional(v.pipe(v.string(), v.isoTimestamp('must be an ISO timestamp'))),
  lowerLevel: v.optional(v.picklist(TIERS, 'must be a tier: iron, bronze, silver, gold, platinum or diamond')),
  upperLevel: v.optional(v.picklist(TIERS, 'must be a tier: iron, bronze, silver, gold, platinum or diamond')),
  defaultVisibility: v.optional(v.picklist(VISIBILITIES, 'must be private, club or global'), 'private'),
  rewardXp: v.optional(wholeNumber(0, 100_000), 500),
  priceCents: v.optional(wholeNumber(0, 10_000_000)),
  rulesJson: RulesSchema,
});
export type CreateChallengeBody = v.InferOutput<typeof CreateChallengeBodySchema>;

/** Rules between fields; every broken one is listed. */
export async function validateChallenge(sql: Queryable, body: CreateChallengeBody, now: Date): Promise<void> {
  const errors: FieldError[] = [];
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
    const [badge]: [{ key: string }?] = await sql`select key from challenge_badge where key = ${body.rulesJson.rewardBadge}`;
    if (!badge) errors.push({ path: 'rulesJson.rewardBadge', message: 'is not a badge of the registry' });
  }
  if (body.clubId && body.scope === 'club') {
    const [club]: [{ id: string }?] = await sql`select id from club where id = ${body.clubId}`;
    if (!club) errors.push({ path: 'clubId', message: 'is not a club' });
  }
  if (errors.length) throw new InvalidError('The challenge is not valid.', errors);
}

export async function createChallenge(
  sql: Queryable,
  body: CreateChallengeBody,
  createdBy: string,
  now: Date = new Date(),
): Promise<ChallengeView> {
  await validateChallenge(sql, body, now);
  return upsertChallenge(sql, {
    scope: body.scope,
    clubId: body.clubId ?? null,
    personalizedForUserId: body.personalizedForUserId ?? null,
    title: body.title,
    description: body.description ?? null,
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
  });
}
