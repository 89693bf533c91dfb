/**
 * Sign-in for the browser apps (the member app at /app/, the admin portal at /portal/).
 *
 * This implementation offers the developer fallback only: a bearer token pasted into the app,
 * kept in the tab's sessionStorage (never localStorage, a cookie or a URL) and sent only in the
 * Authorization header. The interface is the one the OpenID Connect sign-in (code flow with PKCE)
 * implements, so the apps do not change when it takes over.
 */

export interface AuthUser {
  sub: string;
  name?: string;
}
export type SignedOutReason = 'signed-out' | 'expired';
export interface AuthSession {
  accessToken(): Promise<string | undefined>;
  user(): AuthUser | undefined;
  signIn(returnTo?: string): Promise<void>;
  signOut(): Promise<void>;
  onSignedOut(listener: (reason: SignedOutReason) => void): void;
  readonly developerFallback: boolean;
  usePastedToken(token: string): void;
}

interface TokenClaims {
  sub?: unknown;
  name?: unknown;
  exp?: unknown;
}

/** The payload of a JWT, read without checking it: the API checks every token it receives. */
function claimsOf(token: string): TokenClaims | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json = decodeURIComponent(Array.from(atob(base64), (char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''));
    const claims = JSON.parse(json) as unknown;
    return typeof claims === 'object' && claims !== null ? claims : undefined;
  } catch {
    return undefined;
  }
}

export function startAuthSession(options: { client: 'portal' | 'app'; basePath: string; apiBase?: string }): Promise<AuthSession> {
  const key = `${options.client}.token`;
  const listeners: ((reason: SignedOutReason) => void)[] = [];
  const end = (reason: SignedOutReason) => {
    sessionStorage.removeItem(key);
    for (const listener of listeners) listener(reason);
  };
  const stored = () => sessionStorage.getItem(key) ?? undefined;

  const session: AuthSession = {
    developerFallback: true,
    accessToken() {
      const token = stored();
      if (!token) return Promise.resolve(undefined);
      const exp = claimsOf(token)?.exp;
      // A token past its expiry ends the session here rather than as a 401 from the API.
      if (typeof exp === 'number' && exp * 1000 <= Date.now()) {
        end('expired');
        return Promise.resolve(undefined);
      }
      return Promise.resolve(token);
    },
    user() {
      const token = stored();
      const claims = token ? claimsOf(token) : undefined;
      if (!claims || typeof claims.sub !== 'string') return undefined;
      return typeof claims.name === 'string' ? { sub: claims.sub, name: claims.name } : { sub: claims.sub };
    },
    // Without an identity provider there is nowhere to go: the app shows its token form.
    signIn: () => Promise.resolve(),
    signOut() {
      end('signed-out');
      return Promise.resolve();
    },
    onSignedOut(listener) {
      listeners.push(listener);
    },
    usePastedToken(token) {
      sessionStorage.setItem(key, token.trim());
    },
  };
  return Promise.resolve(session);
}
