import type { AuthSession } from '../../web/signin/session';

/**
 * The tab's sign-in (web/signin: tokens in sessionStorage only, never in a URL, a cookie or
 * localStorage; sent only in the Authorization header). Set once at start by main.ts.
 */
let current: AuthSession | undefined;

export function setAuthSession(session: AuthSession): void {
  current = session;
}

export function authSession(): AuthSession | undefined {
  return current;
}
