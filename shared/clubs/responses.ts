import * as v from 'valibot';

/**
 * What the club routes answer to a member about their own clubs. Kept apart from the request
 * schemas and the repositories (cursors, database): this file imports only valibot, so the member
 * app (app/, a browser bundle) imports its types with `import type`.
 */

export const CLUB_ROLES = ['member', 'leader'] as const;
export type ClubRole = (typeof CLUB_ROLES)[number];

const timestamp = v.pipe(v.string(), v.isoTimestamp());

export const OwnClubsSchema = v.pipe(
  v.object({
    items: v.array(v.object({ clubId: v.string(), name: v.string(), role: v.picklist(CLUB_ROLES), since: timestamp })),
  }),
  v.title('OwnClubs'),
);
export type OwnClubs = v.InferOutput<typeof OwnClubsSchema>;
