import { ApiError } from './apiError';
import { problemOf } from './problemOf';

/** How a front end sends a request: `fetch`, or the sign-in session's fetch that adds its token. */
export type Fetcher = (path: string, init: RequestInit) => Promise<Response>;

/**
 * One API call: `body` goes as JSON, nothing is cached. Resolves with a 2xx answer; rejects with
 * an ApiError: status 0 (`network`) when no answer came, else what the problem+json says.
 */
export async function request(
  fetcher: Fetcher,
  method: string,
  path: string,
  options: { body?: unknown; accept?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { accept: options.accept ?? 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetcher(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'Network error', undefined, 'network', undefined);
  }
  if (response.ok) return response;
  throw await problemOf(response);
}

/** The JSON an answer carries; undefined for 204 No Content. */
export async function jsonOf<T>(response: Response): Promise<T> {
  return (response.status === 204 ? undefined : await response.json()) as T;
}
