import { fetchWithSession, type AuthSession } from '../../web/signin/session';

/** A failed API call with what the problem+json said (`detail` names the field on a 400). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string | undefined,
    readonly code: string | undefined,
    readonly requestId: string | undefined,
    /** The fields a 400 names: `body.notifications.dnd.from` and what is wrong with it. */
    readonly fieldErrors: readonly { path: string; message: string }[] = [],
  ) {
    super(detail ?? title);
    this.name = 'ApiError';
  }
}

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
    const token = await session.accessToken();
    if (!token) {
      onUnauthorized();
      throw new ApiError(401, 'Unauthorized', undefined, 'no_token', undefined);
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetchWithSession(session, path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
      });
    } catch {
      throw new ApiError(0, 'Network error', undefined, 'network', undefined);
    }
    if (response.ok) return response;
    const error = await problemOf(response);
    if (response.status === 401) onUnauthorized();
    throw error;
  }
  return {
    async get<T>(path: string) {
      return (await (await call('GET', path)).json()) as T;
    },
    async send<T>(method: string, path: string, body?: unknown) {
      const response = await call(method, path, body);
      return (response.status === 204 ? undefined : await response.json()) as T;
    },
  };
}

async function problemOf(response: Response): Promise<ApiError> {
  let problem: { title?: unknown; detail?: unknown; code?: unknown; requestId?: unknown; errors?: unknown } = {};
  try {
    if ((response.headers.get('content-type') ?? '').includes('json')) problem = (await response.json()) as typeof problem;
  } catch {
    // an unreadable body: the status alone tells the story
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const fieldErrors = Array.isArray(problem.errors)
    ? problem.errors.flatMap((entry: { path?: unknown; message?: unknown }) => {
        const path = text(entry.path);
        const message = text(entry.message);
        return path && message ? [{ path, message }] : [];
      })
    : [];
  return new ApiError(
    response.status,
    text(problem.title) ?? response.statusText,
    text(problem.detail),
    text(problem.code),
    text(problem.requestId),
    fieldErrors,
  );
}

/** A path with a query string of the defined values only. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
