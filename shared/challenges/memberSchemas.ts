import * as v from 'valibot';
import { cursorParameter } from '../paging/cursor';
import { pageLimit } from '../paging/limit';
import { ladderCursor } from './cursors';
import { ClubIdSchema, EarnedBadgeSchema, PersonalizeBodySchema } from './schemas';
import { TIERS } from './tiers';

/**
 * The schemas of the member's own challenge routes: personalize for oneself, the XP ladders and
 * the visibility of badges from private challenges (docs/challenges.md).
 */

const timestamp = v.pipe(v.string(), v.isoTimestamp());

/** The member's own adaptive goal: the service body without `userId` (always the caller) and `rewardXp` (the default). */
export const MemberPersonalizeBodySchema = v.omit(PersonalizeBodySchema, ['userId', 'rewardXp']);

export const UserParamsSchema = v.object({
  userId: v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(200, 'must be at most 200 characters')),
});

// --- XP ladders ---

export const LadderQuerySchema = v.object({
  period: v.optional(v.picklist(['lifetime', 'season'], 'must be lifetime or season'), 'lifetime'),
  seasonId: v.optional(v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters'))),
  scope: v.optional(v.picklist(['global', 'club'], 'must be global or club'), 'global'),
  clubId: v.optional(ClubIdSchema),
  limit: pageLimit(20, 100),
  cursor: cursorParameter(ladderCursor),
});
export type LadderQuery = v.InferOutput<typeof LadderQuerySchema>;

export const LadderRowSchema = v.pipe(
  v.object({
    rank: v.number(),
    userId: v.string(),
    xp: v.number(),
    tier: v.picklist(TIERS),
    isOwn: v.boolean(),
    /** Only on the viewer's own row: true when others cannot see it on this ladder. */
    hiddenFromOthers: v.boolean(),
  }),
  v.title('LadderRow'),
);
export type LadderRow = v.InferOutput<typeof LadderRowSchema>;

export const LadderPageSchema = v.pipe(
  v.object({
    period: v.picklist(['lifetime', 'season']),
    season: v.nullable(v.object({ id: v.string(), name: v.string(), startsAt: timestamp, endsAt: v.nullable(timestamp) })),
    board: v.picklist(['global', 'club']),
    clubId: v.nullable(v.string()),
    items: v.array(LadderRowSchema),
    nextCursor: v.nullable(v.string()),
    /** The viewer's own row with its rank; null when they have no XP in this period (or are not on this club's ladder). */
    me: v.nullable(LadderRowSchema),
    /** When `me` is not on this page: up to two visible rows before and after it. */
    around: v.array(LadderRowSchema),
  }),
  v.title('LadderPage'),
);
export type LadderPage = v.InferOutput<typeof LadderPageSchema>;

// --- badge visibility ---

export const BadgePreferencesSchema = v.pipe(
  v.strictObject({ showPrivateBadges: v.boolean('must be true or false') }),
  v.title('BadgePreferences'),
);
export type BadgePreferences = v.InferOutput<typeof BadgePreferencesSchema>;

export const BadgeGroupsSchema = v.array(v.object({ quality: v.picklist(TIERS), badges: v.array(EarnedBadgeSchema) }));

export const MemberBadgesSchema = v.pipe(v.object({ userId: v.string(), badgeGroups: BadgeGroupsSchema }), v.title('MemberBadges'));
export type MemberBadges = v.InferOutput<typeof MemberBadgesSchema>;
