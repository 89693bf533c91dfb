import { ApiError } from '../../web/kit/apiError';
import { jsonOf, request } from '../../web/kit/request';
import { fetchWithSession } from '../../web/signin/session';
import { authSession } from './session';
import type { Session } from './types';

export { ApiError };

/**
 * Calls the API with the session's token. A 401 refreshes the token once and retries
 * (fetchWithSession); when that fails the session ends and main.ts shows the sign-in page.
 * `token`: a pasted token checked before it is kept (no session involved).
 */
function call(method: string, path: string, body?: unknown, token?: string): Promise<Response> {
  const session = authSession();
  return request(token || !session ? fetch : (url, init) => fetchWithSession(session, url, init), method, path, {
    body,
    accept: 'application/json, text/csv;q=0.9',
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

export async function getJson<T>(path: string): Promise<T> {
  return jsonOf<T>(await call('GET', path));
}

export async function send(method: 'POST' | 'DELETE' | 'PATCH' | 'PUT', path: string, body?: unknown): Promise<unknown> {
  return jsonOf<unknown>(await call(method, path, body));
}

/** GET /api/me: with `token`, the pasted token the sign-in form checks before keeping it; else the session's. */
export async function fetchSession(token?: string): Promise<Session> {
  return jsonOf<Session>(await call('GET', '/api/me', undefined, token));
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
