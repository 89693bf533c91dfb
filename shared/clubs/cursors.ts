import * as v from 'valibot';
import { cursorCodec } from '../paging/cursor';
import { MicroTimestampSchema } from '../paging/microTimestamp';
import { CLUB_ROLES } from './membershipRepository';

/** The keyset positions of the membership lists, signed by shared/paging (a forged position is a 400). */

/** After which member the next page starts: [role, since with microseconds, user id]. */
export const memberListCursor = cursorCodec(
  'clubs.members',
  v.tuple([v.picklist(CLUB_ROLES), MicroTimestampSchema, v.pipe(v.string(), v.maxLength(200))]),
);

/** After which invitation the next page starts: [created at with microseconds, id]. */
export const invitationListCursor = cursorCodec('clubs.invitations', v.tuple([MicroTimestampSchema, v.pipe(v.string(), v.maxLength(64))]));
