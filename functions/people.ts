import { getSql } from '../shared/db/client';
import { defineGroup } from '../shared/host/definition';
import { declared } from './declarations';
import { requireCapability } from '../shared/http/guards';
import { defineRoute, json } from '../shared/http/route';
import { lookUpPeople } from '../shared/people/profiles';
import { recordSignIn } from '../shared/people/profileRepository';
import { PeopleQuerySchema, PeopleSchema } from '../shared/people/schemas';

/** GET /api/admin/people: the portal's leader appointment picks from people who have signed in (docs/portal.md). */
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
  ]),
];

/** Records a person's sign-in on their profile (set as the sign-in recorder by functions/registrations.ts). */
export const recordPersonSignIn = (userId: string, name: string | undefined): Promise<void> => recordSignIn(getSql(), userId, name);
