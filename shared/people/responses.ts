import * as v from 'valibot';

/**
 * What the people routes answer. Imports only valibot, so the member app and the portal (browser
 * bundles) import their types with `import type`.
 */

export const PROFILE_LANGUAGES = ['de', 'en'] as const;

export const ProfileSchema = v.pipe(
  v.object({
    displayName: v.string(),
    initials: v.string(),
    /** The member's one stored language (the contact's): emails and pushes come in it. */
    language: v.picklist(PROFILE_LANGUAGES),
    /** True while the name follows the sign-in's; false once the member chose one. */
    nameFromSignIn: v.boolean(),
  }),
  v.title('Profile'),
);
export type Profile = v.InferOutput<typeof ProfileSchema>;

export const PersonSchema = v.pipe(
  v.object({ userId: v.string(), displayName: v.string(), initials: v.string(), lastSeenAt: v.pipe(v.string(), v.isoTimestamp()) }),
  v.title('Person'),
);
export const PeopleSchema = v.pipe(v.object({ items: v.array(PersonSchema) }), v.title('People'));
export type People = v.InferOutput<typeof PeopleSchema>;

/**
 * The name of a person beside their user id wherever a response names one: null for both when the
 * person has no profile yet (the client shows a neutral word in the reader's language).
 */
export const personNameEntries = {
  displayName: v.nullable(v.string()),
  initials: v.nullable(v.string()),
};
