import * as v from 'valibot';
import { MAX_DISPLAY_NAME_LENGTH } from '../auth/signInName';
import { userIdSchema } from '../auth/subject';
import { pageLimit } from '../paging/limit';
import { humanTextSchema } from '../validation/humanText';
import { PROFILE_LANGUAGES } from './responses';

export { PeopleSchema, ProfileSchema, type People, type Profile } from './responses';

/** PUT /api/me/profile: either field, or both; a name follows the rule for names people read. */
export const ProfileBodySchema = v.strictObject({
  displayName: v.optional(humanTextSchema(MAX_DISPLAY_NAME_LENGTH)),
  language: v.optional(v.picklist(PROFILE_LANGUAGES, 'must be de or en')),
});
export type ProfileBody = v.InferOutput<typeof ProfileBodySchema>;

export const PeopleQuerySchema = v.object({
  query: v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(2, 'must be at least 2 characters'),
    v.maxLength(50, 'must be at most 50 characters'),
  ),
  limit: pageLimit(10, 20),
});

/** DELETE /api/admin/people/{userId}: the `sub` of the person's tokens, by the token's own rule. */
export const PersonParamsSchema = v.object({ userId: userIdSchema() });
