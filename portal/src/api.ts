import { storedToken } from './session';
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

/** Called when the API answers 401: the token expired or was refused. */
let onUnauthorized: (error: ApiError) => void = () => undefined;
export function whenUnauthorized(handler: (error: ApiError) => void): void {
  onUnauthorized = handler;
}

async function call(method: string, path: string, body?: unknown, token = storedToken(), reportUnauthorized = true): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json, text/csv;q=0.9' };
  if (token) headers['authorization'] = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'Network error', undefined, 'network', undefined);
  }
  if (response.ok) return response;
  const error = await problemOf(response);
  if (response.status === 401 && reportUnauthorized) onUnauthorized(error);
  throw error;
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

/** GET /api/me with a given token (the sign-in form checks the pasted token before keeping it). */
export async function fetchSession(token: string): Promise<Session> {
  return (await (await call('GET', '/api/me', undefined, token, false)).json()) as Session;
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
