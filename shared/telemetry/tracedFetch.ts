import { telemetry } from './telemetry';

/**
 * `fetch` with a client span when telemetry is on (the box agent's calls of the cloud and of
 * Kafka Connect): named `<method> <path>`, with the server, the path (never the query) and the
 * answer's status, and the span's `traceparent` sent along so that the callee's operation joins
 * the caller's trace. Headers are never recorded: the edge token travels in one. Without
 * telemetry this is `fetch` itself.
 */
export async function tracedFetch(url: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
  const backend = telemetry();
  if (!backend) return fetch(url, init);
  const method = (init.method ?? 'GET').toUpperCase();
  const target = parseUrl(url);
  const span = backend.clientSpan(`${method} ${target?.pathname ?? '/'}`, {
    'http.request.method': method,
    'server.address': target?.hostname,
    'server.port': target ? Number(target.port || (target.protocol === 'https:' ? 443 : 80)) : undefined,
    'url.full': target ? `${target.protocol}//${target.host}${target.pathname}` : undefined,
    'url.path': target?.pathname,
  });
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { ...init.headers, ...span.headers } });
  } catch (error) {
    span.end(error);
    throw error;
  }
  span.end(response.status >= 400 ? new Error(`answered ${response.status}`) : undefined, { 'http.response.status_code': response.status });
  return response;
}

function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
