import * as v from 'valibot';
import { personNameEntries } from '../people/responses';

// The roles of CLUB_ROLES (membershipRepository), spelled out: that module reads the database.
/** A page of a club's memberships (GET /api/admin/clubs/{clubId}/overview); without I/O imports, so the portal can take its types. */
export const ClubMembersPageSchema = v.object({
  items: v.array(v.object({ userId: v.string(), ...personNameEntries, role: v.picklist(['member', 'leader']), since: v.string() })),
  /** Every membership of the club, and how many of them are leaders. */
  total: v.number(),
  leaders: v.number(),
  limit: v.number(),
  offset: v.number(),
  nextOffset: v.nullable(v.number()),
});
export type ClubMembersPage = v.InferOutput<typeof ClubMembersPageSchema>;
