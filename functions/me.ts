import { sessionOf, SessionSchema } from '../shared/auth/session';
import { defineGroup } from '../shared/host/definition';
import { declared } from './declarations';
import { authenticatedUser } from '../shared/http/guards';
import { defineRoute, json } from '../shared/http/route';

/** GET /api/me: the admin portal asks it which pages to offer (it gates navigation on capabilities). */
export const meFunctions = [
  defineGroup(declared.me, [
    defineRoute({
      method: 'GET',
      path: '/api/me',
      summary: "The caller's sub, platform roles and the capabilities the server derives from them (shared/auth/roles.ts)",
      guard: authenticatedUser,
      response: SessionSchema,
      handle: ({ caller }) => Promise.resolve(json(sessionOf(caller), 200, { 'cache-control': 'private, no-store' })),
    }),
  ]),
];
