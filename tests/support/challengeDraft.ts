import * as v from 'valibot';
import type { NewChallenge } from '../../shared/challenges/challengeRepository';
import { RulesSchema } from '../../shared/challenges/rules';

export type ChallengeDraftOverrides = Omit<Partial<NewChallenge>, 'rules'> & { rules?: unknown };

/**
 * A new global challenge with every field a test or benchmark does not care about at a plain
 * default: medium, 30 days, no levels, private, 600 XP, ten shots; `rules` as plain JSON.
 */
export function challengeDraft(overrides: ChallengeDraftOverrides = {}): NewChallenge {
  const { rules, ...rest } = overrides;
  return {
    scope: 'global',
    clubId: null,
    personalizedForUserId: null,
    title: 'Challenge',
    description: null,
    difficulty: 'medium',
    durationDays: 30,
    endsAt: null,
    lowerLevel: null,
    upperLevel: null,
    defaultVisibility: 'private',
    rewardXp: 600,
    priceCents: null,
    createdBy: 'test',
    ...rest,
    rules: v.parse(RulesSchema, rules ?? { goal: { metric: 'shots', target: 10 } }),
  };
}
