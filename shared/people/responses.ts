import * as v from 'valibot';

/**
 * What the people routes answer. Imports only valibot, so the member app and the portal (browser
 * bundles) import their types with `import type`.
 */

export const PROFILE_LANGUAGES = ['de', 'en'] as const;

/**
 * The name of a person beside their user id wherever a response names one, the caller's own profile
 * included: null for both when the person has no profile or no name (neither their sign-in nor they
 * gave one); the client shows its own word for a member in the reader's language.
 */
export const personNameEntries = {
  displayName: v.nullable(v.string()),
  initials: v.nullable(v.string()),
};

export const ProfileSchema = v.pipe(
  v.object({
    ...personNameEntries,
    /** The member's one stored language (the contact's): emails and pushes come in it. */
    language: v.picklist(PROFILE_LANGUAGES),
    /** True while the name follows the sign-in's; false once the member chose one. */
    nameFromSignIn: v.boolean(),
  }),
  v.title('Profile'),
);
export type Profile = v.InferOutput<typeof ProfileSchema>;

export const PersonSchema = v.pipe(
  v.object({ userId: v.string(), ...personNameEntries, lastSeenAt: v.pipe(v.string(), v.isoTimestamp()) }),
  v.title('Person'),
);
export const PeopleSchema = v.pipe(v.object({ items: v.array(PersonSchema) }), v.title('People'));
export type People = v.InferOutput<typeof PeopleSchema>;
