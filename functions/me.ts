import { sessionOf, SessionSchema } from '../shared/auth/session';
import { recordFirstUse, skipSignInRecord } from '../shared/auth/signIns';
import { getSql } from '../shared/db/client';
import { defineGroup } from '../shared/host/definition';
import { declared } from './declarations';
import { authenticatedUser, type UserCaller } from '../shared/http/guards';
import { defineRoute, json, noContent } from '../shared/http/route';
import { erasePerson } from '../shared/people/erasure';
import { profileOf, updateProfile, type ProfileOwner } from '../shared/people/profiles';
import { ProfileBodySchema, ProfileSchema } from '../shared/people/schemas';

const PRIVATE = { 'cache-control': 'private, no-store' };
/**
 * The profile routes show what this sign-in brings (a new token's name), so they record it before
 * reading rather than after answering as other routes do.
 */
async function ownerOf(caller: UserCaller): Promise<ProfileOwner> {
  await recordFirstUse(caller);
  return { userId: caller.userId, signInName: caller.signIn?.name };
}

/**
 * GET /api/me: the admin portal asks it which pages to offer (it gates navigation on capabilities).
 * DELETE /api/me: the caller's "forget me". The caller's own profile.
 */
export const meFunctions = [
  defineGroup(declared.me, [
    defineRoute({
      method: 'GET',
      path: '/api/me',
      summary: "The caller's sub, platform roles and the capabilities the server derives from them (shared/auth/roles.ts)",
      guard: authenticatedUser,
      response: SessionSchema,
      handle: ({ caller }) => Promise.resolve(json(sessionOf(caller), 200, PRIVATE)),
    }),
    defineRoute({
      method: 'DELETE',
      status: 204,
      path: '/api/me',
      summary:
        "Erase every row stored about the caller: profile, contact, settings, inbox, push registrations, memberships and leader roles, shooter links, challenge attempts, badges and XP, personal templates (docs/clubs.md, Personal data); the club's shot data stays. Idempotent (any signed-in user, themselves)",
      guard: authenticatedUser,
      async handle({ caller, log }) {
        const changed = await erasePerson(getSql(), caller.userId);
        skipSignInRecord(caller);
        log.info('person_erased', { by: 'themselves', rows: changed });
        return noContent();
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/me/profile',
      summary:
        "The caller's profile: display name (from the sign-in until they choose one), initials and their one stored language (any signed-in user)",
      guard: authenticatedUser,
      response: ProfileSchema,
      handle: async ({ caller }) => json(await profileOf(getSql(), await ownerOf(caller)), 200, PRIVATE),
    }),
    defineRoute({
      method: 'PUT',
      path: '/api/me/profile',
      summary:
        'Change the display name (trimmed, 1..50 characters, no control, line or invisible characters; sign-ins then no longer change it) and/or the language (any signed-in user)',
      guard: authenticatedUser,
      body: ProfileBodySchema,
      response: ProfileSchema,
      handle: async ({ caller, body }) => json(await updateProfile(getSql(), await ownerOf(caller), body), 200, PRIVATE),
    }),
  ]),
];
