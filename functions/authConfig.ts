import { signInConfigOf, SignInConfigSchema } from '../shared/auth/signInConfig';
import { getSettings } from '../shared/config/settings';
import { defineGroup } from '../shared/host/definition';
import { declared } from './declarations';
import { publicAccess } from '../shared/http/guards';
import { defineRoute, json } from '../shared/http/route';

/** GET /api/auth/config: anyone, since a browser reads it before anyone has signed in. */
export const authConfigFunctions = [
  defineGroup(declared.authConfig, [
    defineRoute({
      method: 'GET',
      path: '/api/auth/config',
      summary: 'How a browser signs in: the OpenID authority, the client ids of the portal and the member app, the scopes',
      guard: publicAccess,
      response: SignInConfigSchema,
      handle: () => Promise.resolve(json(signInConfigOf(getSettings()), 200, { 'cache-control': 'no-store' })),
    }),
  ]),
];
