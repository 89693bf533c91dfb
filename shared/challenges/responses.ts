import * as v from 'valibot';
import { personNameEntries } from '../people/responses';
import { ChallengeSchema } from './model';
import { METRICS } from './rules';
import { TIERS } from './tiers';

/**
 * What the challenges API answers. Kept apart from the request schemas (schemas.ts), whose cursors
 * need Node's crypto: this file imports only valibot and the pure model, so the member app
 * (app/, a browser bundle) imports its types with `import type`.
 */

const timestamp = v.pipe(v.string(), v.isoTimestamp());

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

export const SharingPreferencesSchema = v.pipe(
  v.strictObject({
    shareWithinClub: v.boolean('must be true or false'),
    shareGlobally: v.boolean('must be true or false'),
  }),
  v.title('SharingPreferences'),
);

export const LeaderboardRowSchema = v.pipe(
  v.object({
    rank: v.number(),
    participationId: v.string(),
    userId: v.string(),
    ...personNameEntries,
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

/**
 * A page of a ranked board (a leaderboard, an XP ladder): the rows in rank order, the viewer's own
 * row with its rank wherever it is (null when they are not on the board), and, when it is not on
 * this page, up to two visible rows before and after it.
 */
function rankedPageEntries<TRow extends v.GenericSchema>(row: TRow) {
  return {
    board: v.picklist(['global', 'club']),
    clubId: v.nullable(v.string()),
    items: v.array(row),
    nextCursor: v.nullable(v.string()),
    me: v.nullable(row),
    around: v.array(row),
  };
}

/**
 * `me` is null when the viewer has not joined (or is not on this club's board). `challenge` names
 * what the board ranks (the route always answers it): its title, the goal's metric (the score's
 * unit) and its end, so a board opened from a link says what it is.
 */
export const LeaderboardPageSchema = v.pipe(
  v.object({
    ...rankedPageEntries(LeaderboardRowSchema),
    challenge: v.optional(v.object({ title: v.string(), metric: v.picklist(METRICS), endsAt: v.nullable(timestamp) })),
  }),
  v.title('LeaderboardPage'),
);
export type LeaderboardPage = v.InferOutput<typeof LeaderboardPageSchema>;

export const SeasonSchema = v.pipe(v.object({ id: v.string(), name: v.string(), startsAt: v.string() }), v.title('Season'));

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

/** Highest quality first; within a quality, oldest first. */
const BadgeGroupsSchema = v.array(v.object({ quality: v.picklist(TIERS), badges: v.array(EarnedBadgeSchema) }));

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
    badgeGroups: BadgeGroupsSchema,
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

export const LINK_STATUSES = ['pending', 'confirmed', 'rejected'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

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
/** A club's claims as its leaders review them: each with the claimant's name, so they decide about a person. */
export const ClubShooterLinkSchema = v.pipe(v.object({ ...ShooterLinkSchema.entries, ...personNameEntries }), v.title('ClubShooterLink'));
export type ClubShooterLink = v.InferOutput<typeof ClubShooterLinkSchema>;
export const ClubShooterLinkListSchema = v.object({ items: v.array(ClubShooterLinkSchema) });

export const LadderRowSchema = v.pipe(
  v.object({
    rank: v.number(),
    userId: v.string(),
    ...personNameEntries,
    xp: v.number(),
    tier: v.picklist(TIERS),
    isOwn: v.boolean(),
    /** Only on the viewer's own row: true when others cannot see it on this ladder. */
    hiddenFromOthers: v.boolean(),
  }),
  v.title('LadderRow'),
);
export type LadderRow = v.InferOutput<typeof LadderRowSchema>;

/** `me` is null when the viewer has no XP in this period (or is not on this club's ladder). */
export const LadderPageSchema = v.pipe(
  v.object({
    period: v.picklist(['lifetime', 'season']),
    season: v.nullable(v.object({ id: v.string(), name: v.string(), startsAt: timestamp, endsAt: v.nullable(timestamp) })),
    ...rankedPageEntries(LadderRowSchema),
  }),
  v.title('LadderPage'),
);
export type LadderPage = v.InferOutput<typeof LadderPageSchema>;

export const BadgePreferencesSchema = v.pipe(
  v.strictObject({ showPrivateBadges: v.boolean('must be true or false') }),
  v.title('BadgePreferences'),
);
export type BadgePreferences = v.InferOutput<typeof BadgePreferencesSchema>;

/**
 * Another member's public profile (GET /api/challenges/members/{userId}/badges): the badges the
 * viewer may see and, when the member shares it with the viewer, their XP and tier.
 */
export const MemberBadgesSchema = v.pipe(
  v.object({
    userId: v.string(),
    ...personNameEntries,
    /**
     * Lifetime XP and tier, under the XP ladders' opt-in: shown when the member shares globally, or
     * within the club and the viewer is in one of their clubs; always to themself and platform
     * admins; null otherwise.
     */
    standing: v.nullable(v.object({ xp: v.number(), tier: v.picklist(TIERS) })),
    badgeGroups: BadgeGroupsSchema,
  }),
  v.title('MemberBadges'),
);
export type MemberBadges = v.InferOutput<typeof MemberBadgesSchema>;
