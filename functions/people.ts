import { getSql } from '../shared/db/client';
import { defineGroup } from '../shared/host/definition';
import { declared } from './declarations';
import { requireCapability } from '../shared/http/guards';
import { defineRoute, json, noContent } from '../shared/http/route';
import { eraseKnownPerson } from '../shared/people/erasure';
import { lookUpPeople } from '../shared/people/profiles';
import { recordSignIn } from '../shared/people/profileRepository';
import { PeopleQuerySchema, PeopleSchema, PersonParamsSchema } from '../shared/people/schemas';

/**
 * GET /api/admin/people: the portal's leader appointment picks from people who have signed in (docs/portal.md).
 * DELETE /api/admin/people/{userId}: the operators erase a person who asked by letter or email.
 */
export const peopleFunctions = [
  defineGroup(declared.people, [
    defineRoute({
      method: 'GET',
      path: '/api/admin/people',
      summary:
        'People who have signed in whose display name or user id contains query (2..50 characters, case-insensitive; prefix matches first, then the most recently seen); limit 1..20 (10) (platform operators: clubs.manage)',
      guard: requireCapability('clubs.manage'),
      query: PeopleQuerySchema,
      response: PeopleSchema,
      handle: async ({ query }) => json(await lookUpPeople(getSql(), query.query, query.limit), 200, { 'cache-control': 'no-store' }),
    }),
    defineRoute({
      method: 'DELETE',
      status: 204,
      path: '/api/admin/people/{userId}',
      summary:
        'Erase every row stored about the user, as DELETE /api/me does, for a request that came by letter or email (platform operators: clubs.manage)',
      guard: requireCapability('clubs.manage'),
      params: PersonParamsSchema,
      responses: { 404: { description: '`code` person_not_found: nothing is stored about this user id (or it was erased before)' } },
      async handle({ params, caller, log }) {
        await eraseKnownPerson(getSql(), params.userId);
        // The erased id is not logged: the log would keep what the erasure removed.
        log.info('person_erased', { by: caller.userId });
        return noContent();
      },
    }),
  ]),
];

/** Records a person's sign-in on their profile (set as the sign-in recorder by functions/registrations.ts). */
export const recordPersonSignIn = (userId: string, name: string | undefined): Promise<void> => recordSignIn(getSql(), userId, name);
