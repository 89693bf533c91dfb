import * as v from 'valibot';
import { bodyWholeNumber } from '../validation/wholeNumber';
import { cursorParameter } from '../paging/cursor';
import { pageLimit } from '../paging/limit';
import { challengeListCursor, leaderboardCursor } from './cursors';
import { ChallengeSchema, PARTICIPATION_STATUSES, SCOPES, VISIBILITIES } from './model';
import { DIFFICULTIES } from './personalizeMaths';
import { METRICS, RulesSchema } from './rules';
import { visibleText } from './text';
import { TIERS } from './tiers';
import { timestampSchema } from '../validation/timestamp';

/**
 * Every schema of the challenges API: what the routes accept (validated at the boundary) and
 * what they answer. Rules across fields and rules that need the database are in
 * createChallenge.ts and access.ts.
 */

const MAX_PAGE = 100;

const timestamp = v.pipe(v.string(), v.isoTimestamp());

export const IdSchema = v.pipe(v.string(), v.nonEmpty(), v.maxLength(64));
export const ClubIdSchema = v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters'));

export const IdParamsSchema = v.object({ id: IdSchema });
export const ClubParamsSchema = v.object({ clubId: ClubIdSchema });
export const LinkParamsSchema = v.object({ clubId: ClubIdSchema, linkId: IdSchema });

// --- templates ---

export const ListQuerySchema = v.object({
  scope: v.optional(v.picklist(SCOPES, 'must be global, club or personal')),
  status: v.optional(v.picklist([...PARTICIPATION_STATUSES, 'available'], 'must be available, active, completed, failed or cancelled')),
  difficulty: v.optional(v.picklist(DIFFICULTIES, 'must be easy, medium, hard or expert')),
  search: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty'), v.maxLength(100, 'must be at most 100 characters'))),
  limit: pageLimit(20, MAX_PAGE),
  cursor: cursorParameter(challengeListCursor),
});

/** POST /api/challenges. Field-level rules here; rules across fields in validateChallenge. */
export const CreateChallengeBodySchema = v.strictObject({
  scope: v.picklist(SCOPES, 'must be global, club or personal'),
  clubId: v.optional(v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(64))),
  personalizedForUserId: v.optional(v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(200))),
  title: visibleText(120),
  description: v.optional(visibleText(2000)),
  difficulty: v.picklist(DIFFICULTIES, 'must be easy, medium, hard or expert'),
  durationDays: bodyWholeNumber(1, 366),
  endsAt: v.optional(timestampSchema()),
  lowerLevel: v.optional(v.picklist(TIERS, 'must be a tier: iron, bronze, silver, gold, platinum or diamond')),
  upperLevel: v.optional(v.picklist(TIERS, 'must be a tier: iron, bronze, silver, gold, platinum or diamond')),
  defaultVisibility: v.optional(v.picklist(VISIBILITIES, 'must be private, club or global'), 'private'),
  // The hard bound (HARD_MAX_REWARD_XP); a leader's own bound is a rule of access.ts.
  rewardXp: v.optional(bodyWholeNumber(0, 100_000), 500),
  priceCents: v.optional(bodyWholeNumber(0, 10_000_000)),
  rulesJson: RulesSchema,
});
export type CreateChallengeBody = v.InferOutput<typeof CreateChallengeBodySchema>;

// --- personal goals ---

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
export type PersonalizeResponse = v.InferOutput<typeof PersonalizeResponseSchema>;

// --- participation and sharing ---

export const JoinQuerySchema = v.object({ clubId: v.optional(ClubIdSchema) });

export const VisibilityBodySchema = v.pipe(
  v.strictObject({
    shareWithinClub: v.optional(v.boolean('must be true or false')),
    shareGlobally: v.optional(v.boolean('must be true or false')),
  }),
  v.check(
    (body) => body.shareWithinClub !== undefined || body.shareGlobally !== undefined,
    'must set shareWithinClub, shareGlobally or both',
  ),
);

export const SharingPreferencesSchema = v.pipe(
  v.strictObject({
    shareWithinClub: v.boolean('must be true or false'),
    shareGlobally: v.boolean('must be true or false'),
  }),
  v.title('SharingPreferences'),
);

// --- leaderboards ---

export type { LeaderboardCursor } from './cursors';

export const LeaderboardQuerySchema = v.object({
  scope: v.optional(v.picklist(['global', 'club'], 'must be global or club'), 'global'),
  clubId: v.optional(ClubIdSchema),
  limit: pageLimit(20, MAX_PAGE),
  cursor: cursorParameter(leaderboardCursor),
});

export const LeaderboardRowSchema = v.pipe(
  v.object({
    rank: v.number(),
    participationId: v.string(),
    userId: v.string(),
    score: v.number(),
    reachedAt: timestamp,
    status: v.picklist(['active', 'completed', 'failed']),
    isOwn: v.boolean(),
    /** Only on the viewer's own row: true when others cannot see it on this board. */
    hiddenFromOthers: v.boolean(),
  }),
  v.title('LeaderboardRow'),
);
export type LeaderboardRow = v.InferOutput<typeof LeaderboardRowSchema>;

export const LeaderboardPageSchema = v.pipe(
  v.object({
    board: v.picklist(['global', 'club']),
    clubId: v.nullable(v.string()),
    items: v.array(LeaderboardRowSchema),
    nextCursor: v.nullable(v.string()),
    /** The viewer's own row with its rank, wherever it is; null when they have not joined (or not on this club's board). */
    me: v.nullable(LeaderboardRowSchema),
    /** When `me` is not on this page: up to two visible rows before and after it. */
    around: v.array(LeaderboardRowSchema),
  }),
  v.title('LeaderboardPage'),
);
export type LeaderboardPage = v.InferOutput<typeof LeaderboardPageSchema>;

// --- XP, seasons, achievements ---

export const SeasonBodySchema = v.strictObject({ name: visibleText(80) });
export const SeasonSchema = v.pipe(v.object({ id: v.string(), name: v.string(), startsAt: v.string() }), v.title('Season'));

export const AchievementsQuerySchema = v.object({
  userId: v.optional(v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(200, 'must be at most 200 characters'))),
});

export const EarnedBadgeSchema = v.pipe(
  v.object({
    key: v.string(),
    name: v.string(),
    icon: v.string(),
    colour: v.string(),
    description: v.string(),
    quality: v.picklist(TIERS),
    earnedAt: timestamp,
    challengeId: v.string(),
    challengeTitle: v.string(),
    /** The participation it came from shares with nobody (neither within the club nor globally). */
    fromPrivateChallenge: v.boolean(),
  }),
  v.title('EarnedBadge'),
);
export type EarnedBadge = v.InferOutput<typeof EarnedBadgeSchema>;

export const AchievementsSchema = v.pipe(
  v.object({
    userId: v.string(),
    xp: v.number(),
    tier: v.picklist(TIERS),
    nextTier: v.nullable(v.picklist(TIERS)),
    nextTierAt: v.nullable(v.number()),
    xpToNextTier: v.nullable(v.number()),
    progressToNextTier: v.number(),
    season: v.nullable(v.object({ id: v.string(), name: v.string(), startsAt: timestamp, xp: v.number() })),
    /** Highest quality first; within a quality, oldest first. */
    badgeGroups: v.array(v.object({ quality: v.picklist(TIERS), badges: v.array(EarnedBadgeSchema) })),
    /** Whether fellow club members see the badges from private challenges (GET/PUT /api/challenges/badge-preferences). */
    showPrivateBadges: v.boolean(),
    recentCompletions: v.array(
      v.object({
        participationId: v.string(),
        challengeId: v.string(),
        title: v.string(),
        finishedAt: timestamp,
        xp: v.number(),
        placement: v.string(),
        fromPrivateChallenge: v.boolean(),
        leaderboards: v.object({ global: v.string(), club: v.nullable(v.string()) }),
      }),
    ),
  }),
  v.title('Achievements'),
);
export type Achievements = v.InferOutput<typeof AchievementsSchema>;

// --- member <-> shooter links ---

export const LINK_STATUSES = ['pending', 'confirmed', 'rejected'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

export const ShooterClaimBodySchema = v.strictObject({
  clubId: ClubIdSchema,
  shooterId: v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.nonEmpty('must not be empty'),
    v.maxLength(64, 'must be at most 64 characters'),
  ),
});

export const ClubLinksQuerySchema = v.object({
  status: v.optional(v.picklist(LINK_STATUSES, 'must be pending, confirmed or rejected'), 'pending'),
});

export const ShooterLinkSchema = v.pipe(
  v.object({
    id: v.string(),
    clubId: v.string(),
    userId: v.string(),
    shooterId: v.string(),
    shooterName: v.nullable(v.string()),
    status: v.picklist(LINK_STATUSES),
    requestedAt: timestamp,
    decidedAt: v.nullable(timestamp),
  }),
  v.title('ShooterLink'),
);
export type ShooterLink = v.InferOutput<typeof ShooterLinkSchema>;
export const ShooterLinkListSchema = v.object({ items: v.array(ShooterLinkSchema) });
