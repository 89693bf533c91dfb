/**
 * The pure parts of the browser sign-in (no DOM, no network), so unit tests reach them directly.
 */

/** What a tab keeps in sessionStorage after signing in. */
export interface StoredTokens {
  accessToken: string;
  /** Epoch milliseconds; undefined when the token carries no expiry the tab knows of. */
  expiresAt?: number;
  /** Milliseconds the access token was valid for when issued: the refresh margin is a share of it. */
  lifetime?: number;
  refreshToken?: string;
  idToken?: string;
  sub: string;
  name?: string;
  /** True for a pasted developer token: it cannot be refreshed and ends the session when refused. */
  pasted?: boolean;
}

/** What a tab keeps between starting the redirect and completing the callback. */
export interface PendingSignIn {
  state: string;
  codeVerifier: string;
  nonce: string;
  returnTo: string;
}

/** The response parameters of an authorization redirect, or undefined when the URL is no callback. */
export function callbackParameters(url: URL): URLSearchParams | undefined {
  const { searchParams } = url;
  return searchParams.has('code') || searchParams.has('state') || searchParams.has('error') ? searchParams : undefined;
}

/**
 * Where to go after signing in: a path below `basePath` on this origin, else `basePath` itself,
 * so a crafted returnTo can never send the user to another site.
 */
export function safeReturnTo(returnTo: string | undefined, basePath: string): string {
  if (!returnTo || !returnTo.startsWith(basePath) || returnTo.startsWith('//') || /[\\\s]/.test(returnTo)) return basePath;
  return returnTo;
}

/** The URL the provider redirects back to: the front end's own base path on this origin. */
export function redirectUriOf(origin: string, basePath: string): string {
  return `${origin}${basePath}`;
}

/** True when the access token should be refreshed now: a third of its lifetime left, or one minute, whichever is less. */
export function refreshDue(tokens: Pick<StoredTokens, 'expiresAt' | 'lifetime'>, now: number): boolean {
  if (tokens.expiresAt === undefined) return false;
  const margin = Math.min(60_000, (tokens.lifetime ?? 180_000) / 3);
  return tokens.expiresAt - now <= margin;
}

/** True once the access token's expiry has passed. */
export function expired(tokens: Pick<StoredTokens, 'expiresAt'>, now: number): boolean {
  return tokens.expiresAt !== undefined && tokens.expiresAt <= now;
}

/**
 * The `sub`, `name` and `exp` of a JWT, read without verifying it: only for showing who a pasted
 * developer token is for and when it ends. The API verifies every token it receives.
 */
export function unverifiedClaims(token: string): { sub?: string; name?: string; exp?: number } | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const claims = JSON.parse(json) as Record<string, unknown>;
    return {
      sub: typeof claims['sub'] === 'string' ? claims['sub'] : undefined,
      name: typeof claims['name'] === 'string' ? claims['name'] : undefined,
      exp: typeof claims['exp'] === 'number' ? claims['exp'] : undefined,
    };
  } catch {
    return undefined;
  }
}

/** Reads a stored JSON value back, or undefined when it is missing or not what this code wrote. */
export function parseStored<T extends object>(text: string | null, required: readonly (keyof T)[]): T | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null) return undefined;
    return required.every((key) => typeof (value as Record<string, unknown>)[key as string] === 'string') ? (value as T) : undefined;
  } catch {
    return undefined;
  }
}
