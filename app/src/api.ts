import { ApiError } from '../../web/kit/apiError';
import { jsonOf, request } from '../../web/kit/request';
import { fetchWithSession, type AuthSession } from '../../web/signin/session';
import { language } from './i18n';

export { ApiError };

export interface Api {
  get<T>(path: string): Promise<T>;
  send<T = unknown>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
}

/**
 * The API as the screens call it: every call takes its token from the session at the moment it
 * is made (refreshed when near expiry; a 401 refreshes once and retries), and a 401 that stays
 * (or no token at all) reports the session as expired once, so the app can show its "sign in
 * again" state instead of a broken screen.
 */
export function createApi(session: AuthSession, onUnauthorized: () => void): Api {
  async function call(method: string, path: string, body?: unknown): Promise<Response> {
    if (!(await session.accessToken())) {
      onUnauthorized();
      throw new ApiError(401, 'Unauthorized', undefined, 'no_token', undefined);
    }
    try {
      // The server writes challenge titles, badge names and inbox entries in the language the app shows.
      const headers = { 'accept-language': language() };
      return await request((url, init) => fetchWithSession(session, url, init), method, path, { body, headers });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) onUnauthorized();
      throw error;
    }
  }
  return {
    async get<T>(path: string) {
      return jsonOf<T>(await call('GET', path));
    },
    async send<T>(method: string, path: string, body?: unknown) {
      return jsonOf<T>(await call(method, path, body));
    },
  };
}

/** Waits for `call`; a 404 counts as done: what it removes is gone already (another tab, another leader). */
export async function unlessGone(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
}

/** A path with a query string of the defined values only. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
