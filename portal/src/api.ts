import { fetchWithSession } from '../../web/signin/session';
import { authSession } from './session';
import type { Session } from './types';

/** A failed API call, with the problem+json the backend answered (its `detail` is the operator text). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string | undefined,
    readonly code: string | undefined,
    readonly requestId: string | undefined,
    /** The fields a 400 named, as the backend lists them (`body.evenings.0.end`). */
    readonly errors?: { path: string; message: string }[],
  ) {
    super(detail ?? title);
    this.name = 'ApiError';
  }
}

/**
 * Calls the API with the session's token. A 401 refreshes the token once and retries
 * (fetchWithSession); when that fails the session ends and main.ts shows the sign-in page.
 * `token`: a pasted token checked before it is kept (no session involved).
 */
async function call(method: string, path: string, body?: unknown, token?: string): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json, text/csv;q=0.9' };
  if (token) headers['authorization'] = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const init: RequestInit = { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' };
  const session = authSession();
  let response: Response;
  try {
    response = token || !session ? await fetch(path, init) : await fetchWithSession(session, path, init);
  } catch {
    throw new ApiError(0, 'Network error', undefined, 'network', undefined);
  }
  if (response.ok) return response;
  throw await problemOf(response);
}

async function problemOf(response: Response): Promise<ApiError> {
  let problem: { title?: unknown; detail?: unknown; code?: unknown; requestId?: unknown; errors?: unknown } = {};
  try {
    if ((response.headers.get('content-type') ?? '').includes('json')) problem = (await response.json()) as typeof problem;
  } catch {
    // an unreadable body: the status alone tells the story
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return new ApiError(
    response.status,
    text(problem.title) ?? response.statusText,
    text(problem.detail),
    text(problem.code),
    text(problem.requestId),
    Array.isArray(problem.errors)
      ? (problem.errors as unknown[]).flatMap((item) => {
          const entry = item as { path?: unknown; message?: unknown };
          return typeof entry.path === 'string' && typeof entry.message === 'string' ? [{ path: entry.path, message: entry.message }] : [];
        })
      : undefined,
  );
}

export async function getJson<T>(path: string): Promise<T> {
  return (await (await call('GET', path)).json()) as T;
}

export async function send(method: 'POST' | 'DELETE' | 'PATCH' | 'PUT', path: string, body?: unknown): Promise<unknown> {
  const response = await call(method, path, body);
  return response.status === 204 ? undefined : ((await response.json()) as unknown);
}

/** GET /api/me: with `token`, the pasted token the sign-in form checks before keeping it; else the session's. */
export async function fetchSession(token?: string): Promise<Session> {
  return (await (await call('GET', '/api/me', undefined, token)).json()) as Session;
}

/**
 * Downloads a file with the bearer token in the header (never in the URL) and saves it under the
 * name of its Content-Disposition.
 */
export async function download(path: string, fallbackName: string): Promise<string> {
  const response = await call('GET', path);
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.hidden = true;
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return name;
}
