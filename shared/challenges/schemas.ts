import * as v from 'valibot';
import { userIdSchema } from '../auth/subject';
import { bodyWholeNumber } from '../validation/wholeNumber';
import { cursorParameter } from '../paging/cursor';
import { pageLimit } from '../paging/limit';
import { challengeListCursor, leaderboardCursor } from './cursors';
import { PARTICIPATION_STATUSES, SCOPES, VISIBILITIES } from './model';
import { DIFFICULTIES } from './personalizeMaths';
import { METRICS, RulesSchema } from './rules';
import { visibleText } from './text';
import { localizedTextSchema } from '../i18n/localizedText';
import { TIERS } from './tiers';
import { timestampSchema } from '../validation/timestamp';
import { LINK_STATUSES } from './responses';

/**
 * Every schema of the challenges API: what the routes accept (validated at the boundary) and
 * what they answer. Rules across fields and rules that need the database are in
 * createChallenge.ts and access.ts.
 */

const MAX_PAGE = 100;

// What the routes answer lives in responses.ts (no I/O in its imports, so the member app can
// import its types); the routes keep importing everything from here.
export {
  AchievementsSchema,
  ClubShooterLinkListSchema,
  EarnedBadgeSchema,
  LeaderboardPageSchema,
  LeaderboardRowSchema,
  LINK_STATUSES,
  PersonalizeResponseSchema,
  SeasonSchema,
  SharingPreferencesSchema,
  ShooterLinkListSchema,
  ShooterLinkSchema,
} from './responses';
export type { Achievements, EarnedBadge, LeaderboardPage, LeaderboardRow, LinkStatus, PersonalizeResponse, ShooterLink } from './responses';

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
  // One text, or one per language (`titles: { de, en }`, either optional); at least one title in all
  // (createChallenge). A reader sees their language's text, else `title`, else the other language's.
  title: v.optional(visibleText(120)),
  titles: v.optional(localizedTextSchema(visibleText(120))),
  description: v.optional(visibleText(2000)),
  descriptions: v.optional(localizedTextSchema(visibleText(2000))),
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
  userId: userIdSchema(),
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

// --- leaderboards ---

export type { LeaderboardCursor } from './cursors';

export const LeaderboardQuerySchema = v.object({
  scope: v.optional(v.picklist(['global', 'club'], 'must be global or club'), 'global'),
  clubId: v.optional(ClubIdSchema),
  limit: pageLimit(20, MAX_PAGE),
  cursor: cursorParameter(leaderboardCursor),
});

// --- XP, seasons, achievements ---

export const SeasonBodySchema = v.strictObject({ name: visibleText(80) });
export const AchievementsQuerySchema = v.object({
  userId: v.optional(userIdSchema()),
});

// --- member <-> shooter links ---

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
