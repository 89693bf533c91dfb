/**
 * The bearer token of this tab. Kept in sessionStorage only: it ends with the tab, is never put
 * into a URL, a cookie or localStorage, and is sent only in the Authorization header.
 */
const KEY = 'portal.token';

export function storedToken(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined;
}

export function storeToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(KEY);
}
