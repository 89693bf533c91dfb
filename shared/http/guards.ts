import type { HttpRequest } from '@azure/functions';
import { createTokenVerifier, TokenRejected, type TokenVerifier, type VerifiedUser } from '../auth/jwt';
import { capabilitiesOf, type Capability } from '../auth/roles';
import { getSettings, type Settings } from '../config/settings';
import { forbidden, unauthorized } from './problem';

/** Who called: the authenticated user, with capabilities derived from their platform roles. */
export interface UserCaller extends VerifiedUser {
  kind: 'user';
  capabilities: ReadonlySet<Capability>;
}

export interface AnonymousCaller {
  kind: 'anonymous';
}

/**
 * States who may call a route. `authorize` returns the caller or throws a 401/403 problem.
 * `security` names the scheme for the OpenAPI document; `description` for humans.
 */
export interface Guard<TCaller> {
  readonly description: string;
  readonly security: 'none' | 'bearer' | 'edgeToken' | 'serviceToken';
  /** `params` are the route's path parameters, as matched (before the route's params schema). */
  authorize(request: HttpRequest, params: Readonly<Record<string, string>>): Promise<TCaller>;
}

let verifier: { for: Settings; verify: TokenVerifier } | undefined;
/** One verifier (and its JWKS cache) per settings: made again only when the settings are read anew. */
function getVerifier(): TokenVerifier {
  const settings = getSettings();
  if (verifier?.for !== settings) verifier = { for: settings, verify: createTokenVerifier(settings) };
  return verifier.verify;
}

/** Reads `Authorization: Bearer <token>`; throws 401 when absent or not a bearer credential. */
export function bearerToken(request: HttpRequest): string {
  const header = request.headers.get('authorization');
  if (!header) throw unauthorized('An Authorization: Bearer token is required.');
  const match = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
  if (!match?.[1]) throw unauthorized('The Authorization header must be "Bearer <token>".');
  return match[1];
}

async function authenticate(request: HttpRequest): Promise<UserCaller> {
  const token = bearerToken(request);
  try {
    const user = await getVerifier()(token);
    return { kind: 'user', ...user, capabilities: capabilitiesOf(user.roles) };
  } catch (error) {
    if (error instanceof TokenRejected) throw unauthorized(error.message);
    throw error;
  }
}

export const publicAccess: Guard<AnonymousCaller> = {
  description: 'anyone',
  security: 'none',
  authorize: () => Promise.resolve({ kind: 'anonymous' }),
};

/**
 * Anyone; a bearer token, when sent, is verified and names the caller (a route may then show
 * more). A token that fails verification still answers 401 rather than silently showing less.
 */
export const optionalUser: Guard<UserCaller | AnonymousCaller> = {
  description: 'anyone (a bearer token adds detail for some roles)',
  security: 'none',
  authorize: async (request) => (request.headers.get('authorization') ? authenticate(request) : { kind: 'anonymous' }),
};

export const authenticatedUser: Guard<UserCaller> = {
  description: 'any authenticated user',
  security: 'bearer',
  authorize: authenticate,
};

/** An authenticated user holding `capability`; anyone else authenticated gets 403 with `denied`. */
function capabilityGuard(capability: Capability, description: string, denied: string): Guard<UserCaller> {
  return {
    description,
    security: 'bearer',
    async authorize(request) {
      const caller = await authenticate(request);
      if (!caller.capabilities.has(capability)) throw forbidden(denied);
      return caller;
    },
  };
}

/** Platform admins: the `platform.admin` capability, which only the platform_admin role grants. */
export const platformAdmin: Guard<UserCaller> = capabilityGuard(
  'platform.admin',
  'platform_admin',
  'This operation needs the platform_admin role.',
);

/** Any authenticated user holding the capability (derived from roles server-side). */
export function requireCapability(capability: Capability): Guard<UserCaller> {
  return capabilityGuard(capability, `capability ${capability}`, `This operation needs the ${capability} capability.`);
}

/** Any authenticated user holding at least one of the capabilities; what each may see is the route's to decide. */
export function requireAnyCapability(...capabilities: [Capability, ...Capability[]]): Guard<UserCaller> {
  const names = capabilities.join(' or ');
  return {
    description: `capability ${names}`,
    security: 'bearer',
    async authorize(request) {
      const caller = await authenticate(request);
      if (!capabilities.some((capability) => caller.capabilities.has(capability))) {
        throw forbidden(`This operation needs the ${names} capability.`);
      }
      return caller;
    },
  };
}

/** A user acting on one club: the club from the path, and the role they hold there (if any). */
export interface ClubCaller<TRole extends string = string> extends UserCaller {
  clubId: string;
  clubRole: TRole | undefined;
}

/** How a club-role guard learns a user's role; the clubs area supplies it (functions/guards/clubRole.ts). */
export interface ClubRoleLookup<TRole extends string> {
  find(clubId: string, userId: string): Promise<TRole | undefined>;
  /** Whether `held` is enough for `required` (a leader satisfies member). */
  satisfies(held: TRole | undefined, required: TRole): boolean;
}

export type ClubRoleGuard<TRole extends string> = (
  param: string,
  role: TRole,
  options?: { orCapability?: Capability },
) => Guard<ClubCaller<TRole>>;

/**
 * Guards for a user holding `role` in the club named by the path parameter `param`, or any user
 * holding the platform capability `orCapability` (platform admins acting on any club). Anyone
 * else gets 403, whether or not the club exists, so ids cannot be probed.
 */
export function clubRoleGuard<TRole extends string>(lookup: ClubRoleLookup<TRole>): ClubRoleGuard<TRole> {
  return (param, role, options = {}) => {
    const { orCapability } = options;
    return {
      description: `club ${role} of {${param}}${orCapability ? ` or capability ${orCapability}` : ''}`,
      security: 'bearer',
      async authorize(request, params) {
        const caller = await authenticate(request);
        const clubId = params[param] ?? '';
        const held = clubId ? await lookup.find(clubId, caller.userId) : undefined;
        if (lookup.satisfies(held, role) || (orCapability && caller.capabilities.has(orCapability))) {
          return { ...caller, clubId, clubRole: held };
        }
        throw forbidden(`This operation needs the ${role} role in this club${orCapability ? ` or the ${orCapability} capability` : ''}.`);
      },
    };
  };
}

/**
 * `Authorization: Bearer <credential>` that is not a user token (an edge box, a service): the
 * owning area's `identify` names the caller or returns undefined, which answers 401 `rejected`.
 */
export function bearerCredentialGuard<TCaller>(options: {
  description: string;
  security: 'edgeToken' | 'serviceToken';
  rejected: string;
  identify: (credential: string) => Promise<TCaller | undefined>;
}): Guard<TCaller> {
  const { description, security, rejected, identify } = options;
  return {
    description,
    security,
    async authorize(request) {
      const caller = await identify(bearerToken(request));
      if (caller === undefined) throw unauthorized(rejected);
      return caller;
    },
  };
}
