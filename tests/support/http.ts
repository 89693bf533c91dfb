/** Typed reads of JSON response bodies: the test states the body type it expects. */

/** A problem+json body as the app writes it (shared/http/errorResponse.ts). */
export type { ProblemBody as ProblemJson } from '../../shared/http/problem';

/** Any JSON object whose members the test reads by name. */
export type JsonObject = Record<string, unknown>;

/** The response body parsed as JSON, typed as the caller expects it to be. */
export async function readJson<T = JsonObject>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** jest's `expect.any(...)` as `unknown` rather than `any`, for use inside expected objects. */
export const anyOf = (type: unknown): unknown => expect.any(type);
