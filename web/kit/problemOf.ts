import { ApiError } from './apiError';

/** The ApiError an answer other than 2xx describes: its problem+json, or the status alone. */
export async function problemOf(response: Response): Promise<ApiError> {
  let problem: { title?: unknown; detail?: unknown; code?: unknown; requestId?: unknown; errors?: unknown } = {};
  try {
    if ((response.headers.get('content-type') ?? '').includes('json')) problem = (await response.json()) as typeof problem;
  } catch {
    // an unreadable body: the status alone tells the story
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const fieldErrors = Array.isArray(problem.errors)
    ? (problem.errors as unknown[]).flatMap((item) => {
        const entry = (item ?? {}) as { path?: unknown; message?: unknown };
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
