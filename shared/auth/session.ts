import * as v from 'valibot';
import { CAPABILITIES, PLATFORM_ROLES, type Capability, type PlatformRole } from './roles';

/** The body of GET /api/me: who the token names and what the server lets them do. */
export const SessionSchema = v.pipe(
  v.object({
    sub: v.string(),
    roles: v.array(v.picklist(PLATFORM_ROLES)),
    capabilities: v.array(v.picklist(CAPABILITIES)),
  }),
  v.title('Session'),
);
export type Session = v.InferOutput<typeof SessionSchema>;

/**
 * The caller as a client may see it: the platform roles the token carries that the service knows,
 * and the capabilities derived from them server-side (never read from the token). Both in the
 * order of their declaration, so the answer is stable.
 */
export function sessionOf(user: { userId: string; roles: readonly PlatformRole[]; capabilities: ReadonlySet<Capability> }): Session {
  return {
    sub: user.userId,
    roles: PLATFORM_ROLES.filter((role) => user.roles.includes(role)),
    capabilities: CAPABILITIES.filter((capability) => user.capabilities.has(capability)),
  };
}
