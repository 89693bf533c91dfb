import { SignJWT } from 'jose';
import type { Settings } from '../../shared/config/settings';

/**
 * An HS256 access token signed with AUTH_JWT_SECRET, as a host without an OpenID provider accepts
 * it (npm run token, the soak's and the federation run's callers). Roles are platform roles; club
 * roles come from club_membership.
 */
export function signLocalToken(
  settings: Pick<Settings, 'AUTH_ISSUER' | 'AUTH_AUDIENCE' | 'AUTH_JWT_SECRET'>,
  sub: string,
  { roles = [], hours = 2 }: { roles?: readonly string[]; hours?: number } = {},
): Promise<string> {
  return new SignJWT({ roles: [...roles] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(sub)
    .setIssuer(settings.AUTH_ISSUER)
    .setAudience(settings.AUTH_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${hours}h`)
    .sign(new TextEncoder().encode(settings.AUTH_JWT_SECRET ?? ''));
}
