import * as v from 'valibot';
import { userIdSchema } from '../auth/subject';
import { cursorParameter } from '../paging/cursor';
import { pageLimit } from '../paging/limit';
import { ladderCursor } from './cursors';
import { ClubIdSchema, PersonalizeBodySchema } from './schemas';

/**
 * The schemas of the member's own challenge routes: personalize for oneself, the XP ladders and
 * the visibility of badges from private challenges (docs/challenges.md).
 */

/** The member's own adaptive goal: the service body without `userId` (always the caller) and `rewardXp` (the default). */
export const MemberPersonalizeBodySchema = v.omit(PersonalizeBodySchema, ['userId', 'rewardXp']);

export const UserParamsSchema = v.object({
  userId: userIdSchema(),
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

// The ladder's answer lives in responses.ts (no I/O in its imports, so the member app can import its types).
export { LadderPageSchema, LadderRowSchema } from './responses';
export type { LadderPage, LadderRow } from './responses';

// --- badge visibility ---

export { BadgePreferencesSchema } from './responses';
export type { BadgePreferences } from './responses';

export { MemberBadgesSchema } from './responses';
export type { MemberBadges } from './responses';
