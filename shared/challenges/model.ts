import * as v from 'valibot';
import { DIFFICULTIES } from './personalizeMaths';
import { RulesSchema } from './rules';
import { TIERS } from './tiers';

/** Enum spellings of the API and the database (docs/challenges.md). */
export const SCOPES = ['global', 'club', 'personal'] as const;
export type Scope = (typeof SCOPES)[number];
export const VISIBILITIES = ['private', 'club', 'global'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export const PARTICIPATION_STATUSES = ['active', 'completed', 'failed', 'cancelled'] as const;
export type ParticipationStatus = (typeof PARTICIPATION_STATUSES)[number];

const timestamp = v.pipe(v.string(), v.isoTimestamp());

export const ProgressSchema = v.object({
  metric: v.string(),
  value: v.number(),
  target: v.number(),
  fraction: v.number(),
  shots: v.number(),
  sessions: v.number(),
  evaluatedAt: timestamp,
});

export const ResultSchema = v.object({
  placement: v.picklist(['completed', 'winner', 'finalist', 'out']),
  place: v.optional(v.nullable(v.number())),
  xp: v.optional(v.number()),
  badge: v.optional(v.nullable(v.string())),
});

export const ParticipationSchema = v.pipe(
  v.object({
    id: v.string(),
    challengeId: v.string(),
    userId: v.string(),
    clubId: v.nullable(v.string()),
    status: v.picklist(PARTICIPATION_STATUSES),
    joinedAt: timestamp,
    deadlineAt: timestamp,
    finishedAt: v.nullable(timestamp),
    progress: v.nullable(ProgressSchema),
    result: v.nullable(ResultSchema),
    shareWithinClub: v.boolean(),
    shareGlobally: v.boolean(),
  }),
  v.title('Participation'),
);
export type ParticipationView = v.InferOutput<typeof ParticipationSchema>;

export const ChallengeSchema = v.pipe(
  v.object({
    id: v.string(),
    scope: v.picklist(SCOPES),
    clubId: v.nullable(v.string()),
    personalizedForUserId: v.nullable(v.string()),
    title: v.string(),
    description: v.nullable(v.string()),
    difficulty: v.picklist(DIFFICULTIES),
    durationDays: v.number(),
    endsAt: v.nullable(timestamp),
    lowerLevel: v.nullable(v.picklist(TIERS)),
    upperLevel: v.nullable(v.picklist(TIERS)),
    defaultVisibility: v.picklist(VISIBILITIES),
    rewardXp: v.number(),
    priceCents: v.nullable(v.number()),
    rulesJson: RulesSchema,
    createdAt: timestamp,
  }),
  v.title('Challenge'),
);
export type ChallengeView = v.InferOutput<typeof ChallengeSchema>;

export const TeamProgressSchema = v.object({
  aggregate: v.picklist(['sum', 'average', 'best']),
  value: v.number(),
  participants: v.number(),
  completed: v.number(),
});

/** The badge a challenge rewards, as the reader sees it before earning it: name in their language and its artwork. */
export const RewardBadgeSchema = v.pipe(
  v.object({ key: v.string(), name: v.string(), icon: v.string(), colour: v.string(), quality: v.picklist(TIERS) }),
  v.title('RewardBadge'),
);
export type RewardBadge = v.InferOutput<typeof RewardBadgeSchema>;

export const ChallengeListItemSchema = v.pipe(
  v.object({
    ...ChallengeSchema.entries,
    participation: v.nullable(ParticipationSchema),
    teamProgress: v.nullable(TeamProgressSchema),
    /** The badge named by `rulesJson.rewardBadge`; null when the challenge rewards none. */
    rewardBadge: v.nullable(RewardBadgeSchema),
  }),
  v.title('ChallengeListItem'),
);
export type ChallengeListItem = v.InferOutput<typeof ChallengeListItemSchema>;

export const ChallengePageSchema = v.pipe(
  v.object({ items: v.array(ChallengeListItemSchema), nextCursor: v.nullable(v.string()) }),
  v.title('ChallengePage'),
);
