/**
 * What went wrong at the cost provider, decided by where the error came from and its code, not by
 * the HTTP status alone: a 401 from the token endpoint (AADSTS7000222) means an expired secret, a
 * 401 from Cost Management (RBACAccessDenied) a missing role.
 */
export const COST_FAILURES = [
  'secret_expired',
  'access_denied',
  'provider_not_registered',
  'rate_limited',
  'provider_unavailable',
  'provider_refused',
] as const;
export type CostFailure = (typeof COST_FAILURES)[number];

export class CostProviderError extends Error {
  constructor(
    readonly failure: CostFailure,
    /** The provider's text (no secret, no token), for the log line. */
    message: string,
    readonly httpStatus?: number,
    readonly providerCode?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'CostProviderError';
  }
}

/** Used when a 429 names no wait: Cost Management's per-scope budget refills within a minute. */
export const DEFAULT_RETRY_AFTER_SECONDS = 60;
const MAX_RETRY_AFTER_SECONDS = 3600;

interface ErrorShape {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  statusCode?: unknown;
  response?: { headers?: { toJSON?: () => Record<string, string> } };
}

/**
 * The wait a throttled answer asks for: the largest of `Retry-After` and Cost Management's own
 * `x-ms-ratelimit-microsoft.costmanagement-*-retry-after` headers (it often sends only those).
 */
export function retryAfterSeconds(headers: Record<string, string>, nowMs: number): number {
  let wait = 0;
  for (const [name, raw] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (key !== 'retry-after' && !/^x-ms-ratelimit-microsoft\.[a-z]+(-[a-z]+)?-retry-after$/.test(key)) continue;
    const seconds = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : (Date.parse(raw) - nowMs) / 1000;
    if (Number.isFinite(seconds)) wait = Math.max(wait, Math.ceil(seconds));
  }
  return Math.min(Math.max(wait, 0) || DEFAULT_RETRY_AFTER_SECONDS, MAX_RETRY_AFTER_SECONDS);
}

const NETWORK_CODES = new Set(['REQUEST_SEND_ERROR', 'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EAI_AGAIN', 'EPIPE']);

export function classifyProviderError(error: unknown, nowMs = Date.now()): CostProviderError {
  if (error instanceof CostProviderError) return error;
  const shape = (typeof error === 'object' && error !== null ? error : {}) as ErrorShape;
  const name = typeof shape.name === 'string' ? shape.name : '';
  const message = typeof shape.message === 'string' ? shape.message : String(error);
  const code = typeof shape.code === 'string' ? shape.code : undefined;
  const status = typeof shape.statusCode === 'number' ? shape.statusCode : undefined;

  if (name === 'AbortError' || name === 'TimeoutError')
    return new CostProviderError('provider_unavailable', `no answer in time: ${message}`, status, code);

  // @azure/identity: the token endpoint's answer is only in the message (no status, no code).
  if (name === 'AuthenticationRequiredError' || name === 'AuthenticationError' || name === 'CredentialUnavailableError') {
    if (/AADSTS7000222\b/.test(message)) return new CostProviderError('secret_expired', message, 401, 'AADSTS7000222');
    const aadsts = /AADSTS(\d+)/.exec(message)?.[0];
    if (aadsts) return new CostProviderError('provider_refused', message, 400, aadsts);
    return new CostProviderError('provider_unavailable', message, status, code);
  }

  if (code === 'RBACAccessDenied' || code === 'AuthorizationFailed') return new CostProviderError('access_denied', message, status, code);
  if (code === 'MissingSubscriptionRegistration' || code === 'SubscriptionNotRegistered') {
    return new CostProviderError('provider_not_registered', message, status, code);
  }
  if (status === 429) {
    const headers = shape.response?.headers?.toJSON?.() ?? {};
    return new CostProviderError('rate_limited', message, status, code, retryAfterSeconds(headers, nowMs));
  }
  if (status === undefined || status >= 500 || (code !== undefined && NETWORK_CODES.has(code))) {
    return new CostProviderError('provider_unavailable', message, status, code);
  }
  return new CostProviderError('provider_refused', message, status, code);
}
