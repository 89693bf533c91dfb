/**
 * What a database error means, in one place. The HTTP dispatcher, the area services and the
 * ingest runners ask these questions instead of comparing SQLSTATE codes themselves.
 */

/** The shape postgres.js gives a server-side error. */
export interface PostgresError extends Error {
  name: 'PostgresError';
  code: string;
  constraint_name?: string;
}

export function isPostgresError(error: unknown): error is PostgresError {
  return error instanceof Error && error.name === 'PostgresError' && typeof (error as { code?: unknown }).code === 'string';
}

/** The SQLSTATE of a server-side error, else undefined. */
export function sqlState(error: unknown): string | undefined {
  return isPostgresError(error) ? error.code : undefined;
}

export const isUniqueViolation = (error: unknown): boolean => sqlState(error) === '23505';
export const isForeignKeyViolation = (error: unknown): boolean => sqlState(error) === '23503';
/** lock_timeout ran out (55P03). */
export const isLockTimeout = (error: unknown): boolean => sqlState(error) === '55P03';
/** Class 22: a value the database cannot take or compare (a NUL character, an impossible date). */
export const isDataException = (error: unknown): boolean => sqlState(error)?.startsWith('22') ?? false;

/**
 * SQLSTATEs after which the same work may succeed when simply run again: serialization failure,
 * deadlock, lock timeout, admin shutdown / crash shutdown / cannot connect now, and the whole
 * connection-exception class 08.
 */
const TRANSIENT_STATES = new Set(['40001', '40P01', '55P03', '57P01', '57P02', '57P03']);

/** Client-side codes postgres.js and Node give a lost or refused connection. */
const CONNECTION_LOSS_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/** True when running the same work again later may succeed: an infrastructure failure, not bad data. */
export function isTransient(error: unknown): boolean {
  const state = sqlState(error);
  if (state) return TRANSIENT_STATES.has(state) || state.startsWith('08');
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CONNECTION_LOSS_CODES.has(code);
}
