import { SignJWT } from 'jose';
import type { PlatformRole } from '../../shared/auth/roles';
import { getSettings } from '../../shared/config/settings';

export interface TokenOptions {
  roles?: PlatformRole[] | string[];
  expiresIn?: string | number;
  audience?: string;
  issuer?: string;
  secret?: string;
  /** More claims, as a provider adds them (`name`, `email`, `email_verified`). */
  claims?: Record<string, unknown>;
}

/** A token as the local identity provider (HS256 with AUTH_JWT_SECRET) would mint it. */
export function tokenFor(sub: string, options: TokenOptions = {}): Promise<string> {
  const settings = getSettings();
  return new SignJWT({ ...options.claims, roles: options.roles ?? [] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(sub)
    .setIssuer(options.issuer ?? settings.AUTH_ISSUER)
    .setAudience(options.audience ?? settings.AUTH_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '1h')
    .sign(new TextEncoder().encode(options.secret ?? settings.AUTH_JWT_SECRET));
}

export async function bearer(sub: string, options: TokenOptions = {}): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await tokenFor(sub, options)}` };
}
