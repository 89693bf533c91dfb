import type { JWTPayload } from 'jose';
import type { Settings } from '../config/settings';
import { isWellFormed } from '../validation/humanText';
import { isPlatformRole, type PlatformRole } from './roles';
import { signInNameOf } from './signInName';
import { isUsableSubject } from './subject';
import { verifiedEmailOf } from './signInEmail';
import { VerifiedTokenCache } from './verifiedTokenCache';

export interface VerifiedUser {
  userId: string;
  roles: PlatformRole[];
  /** This token's sign-in, one object per verified token: absent for callers made without a token. */
  signIn?: SignIn;
  /** The token's `email` claim when the identity provider marked it verified (`email_verified: true`). */
  signInEmail?: string;
}

/**
 * What a token says about the person beyond their id, for their profile (shared/auth/signIns.ts):
 * the name its claims suggest, and whether this token's sign-in was recorded on this instance.
 * Kept with the verified token, so the profile is written once per token, not once per request.
 */
export interface SignIn {
  readonly name: string | undefined;
  recorded: boolean;
}

/** Why a token was refused; the message is safe to show the caller. */
export class TokenRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenRejected';
  }
}

export type TokenVerifier = (token: string) => Promise<VerifiedUser>;

type VerifierSettings = Pick<Settings, 'AUTH_JWT_SECRET' | 'AUTH_JWKS_URL' | 'AUTH_ISSUER' | 'AUTH_AUDIENCE'>;

/**
 * Verified tokens remembered per verifier (docs/architecture.md, Authentication): enough for every user active
 * within a token's lifetime on one instance; beyond it the least recently used is verified again.
 */
export const VERIFIED_TOKEN_CACHE_ENTRIES = 10_000;

/**
 * RS256 against the identity provider's JWKS when AUTH_JWKS_URL is set (production, Entra ID);
 * otherwise HS256 with AUTH_JWT_SECRET (local development). Only that one algorithm is accepted,
 * so `alg: none` and algorithm-confusion tokens fail.
 */
export function createTokenVerifier(settings: VerifierSettings): TokenVerifier {
  // A token without exp would be valid forever once leaked.
  const options = { issuer: settings.AUTH_ISSUER, audience: settings.AUTH_AUDIENCE, clockTolerance: 30, requiredClaims: ['exp'] };
  // The key set is made once, on the first token: it caches the provider's keys across requests.
  let loading: Promise<{ verify: (token: string) => Promise<{ payload: JWTPayload }>; jose: JoseModule }> | undefined;
  const load = async () => {
    const jose = await import('./jose');
    if (settings.AUTH_JWKS_URL) {
      const keys = jose.createRemoteJWKSet(new URL(settings.AUTH_JWKS_URL));
      return { jose, verify: (token: string) => jose.jwtVerify(token, keys, { ...options, algorithms: ['RS256'] }) };
    }
    const secret = new TextEncoder().encode(settings.AUTH_JWT_SECRET);
    return { jose, verify: (token: string) => jose.jwtVerify(token, secret, { ...options, algorithms: ['HS256'] }) };
  };

  const verified = new VerifiedTokenCache<VerifiedUser>(VERIFIED_TOKEN_CACHE_ENTRIES);
  return async (token) => {
    const known = verified.get(token);
    // The cached sign-in object is kept (not copied): it remembers whether this token's sign-in was recorded.
    if (known) return { ...known, roles: [...known.roles] };
    loading ??= load();
    const { jose, verify } = await loading;
    let payload;
    try {
      ({ payload } = await verify(token));
    } catch (error) {
      throw new TokenRejected(describeJoseError(jose.errors, error));
    }
    // Lone surrogates would be stored as U+FFFD, so two different subjects could become one user.
    if (!claimsWellFormed(payload)) throw new TokenRejected('The token contains text that is not well-formed Unicode.');
    if (!isUsableSubject(payload.sub)) {
      throw new TokenRejected('The token has no usable sub claim.');
    }
    const rawRoles = payload['roles'];
    if (rawRoles !== undefined && !Array.isArray(rawRoles)) {
      throw new TokenRejected('The roles claim must be an array.');
    }
    // Unknown roles (other applications' app roles) are ignored, not trusted.
    const roles = (rawRoles ?? []).filter(isPlatformRole);
    const signInEmail = verifiedEmailOf(payload);
    const user: VerifiedUser = {
      userId: payload.sub,
      roles: [...new Set(roles)],
      signIn: { name: signInNameOf(payload), recorded: false },
      ...(signInEmail ? { signInEmail } : {}),
    };
    // Remembered until exp itself, not exp plus the clock tolerance: once the tolerance matters,
    // the token is verified again and jose decides. requiredClaims makes exp a number here.
    if (typeof payload.exp === 'number') verified.set(token, { ...user, roles: [...user.roles] }, payload.exp * 1000);
    return user;
  };
}

function claimsWellFormed(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return isWellFormed(value);
  if (depth > 16 || value === null || typeof value !== 'object') return depth <= 16;
  for (const [key, inner] of Object.entries(value)) {
    if (!isWellFormed(key) || !claimsWellFormed(inner, depth + 1)) return false;
  }
  return true;
}

type JoseModule = typeof import('./jose');

function describeJoseError(joseErrors: JoseModule['errors'], error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'The token has expired.';
  if (error instanceof joseErrors.JWTClaimValidationFailed && error.reason === 'missing') return `The token has no ${error.claim} claim.`;
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `The token's ${error.claim} claim is not accepted.`;
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'The token signature is invalid.';
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return 'The token algorithm is not accepted.';
  if (error instanceof joseErrors.JWKSNoMatchingKey) return 'The token was signed by an unknown key.';
  return 'The token is malformed or cannot be verified.';
}
