import type { HttpResponseInit } from '@azure/functions';
import { appLogger } from '../log/appLogger';
import { lazyLogger, type Logger } from '../log/logger';
import { errorResponse } from './errorResponse';
import { HttpProblem } from './problem';

/**
 * Same origin only, nothing inline, nothing from elsewhere (no CDN at run time): scripts and styles
 * come from the web app's own files, data from the API of the same app. The admin portal and the
 * member app are served under it alike.
 */
export const PORTAL_CSP = portalCsp([]);

/**
 * The portal's policy, with the origins it may also call: the OpenID provider's (discovery,
 * token, revocation), whose sign-in runs in the browser (docs/decisions/010-sign-in.md).
 */
export function portalCsp(connectOrigins: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    // The member app's web app manifest (installable; iOS gives web push only to an installed app).
    "manifest-src 'self'",
    ["connect-src 'self'", ...connectOrigins].join(' '),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const SECURITY_HEADERS = {
  'content-security-policy': PORTAL_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/** What serveStatic needs of a file (shared/portal/assets.ts reads the portal's files into this shape). */
export interface ServedFile {
  body: Buffer;
  contentType: string;
  etag: string;
  cacheControl: string;
}

export interface StaticRequest {
  method: string;
  /** The path exactly as sent (dispatch.ts pathOf), query not included. */
  path: string;
  query: string;
  ifNoneMatch: string | null;
}

/**
 * Answers a request for the files of a web app mounted at `mount` (`/portal`): the bare mount
 * redirects to `mount/`, which is index.html; any other name must be one of `assets` exactly.
 * Names are compared as sent, never decoded or joined to a path: `..`, `%2e%2e`, `a%2fb` and
 * `a/b` are simply names that do not exist (404).
 */
export function serveStatic(
  assets: ReadonlyMap<string, ServedFile> | undefined,
  mount: string,
  request: StaticRequest,
  requestId: string,
  log: Logger = lazyLogger(appLogger),
): HttpResponseInit {
  try {
    return answer(assets, mount, request);
  } catch (error) {
    return staticErrorResponse(error, requestId, request.path, log);
  }
}

/** What a thrown value answers on a web app's path: problem+json (shared/http/errorResponse.ts) with the web apps' security headers. */
export function staticErrorResponse(error: unknown, requestId: string, path: string, log: Logger): HttpResponseInit {
  const response = errorResponse(error, requestId, path, log);
  return { ...response, headers: { ...SECURITY_HEADERS, ...(response.headers as Record<string, string>) } };
}

function answer(assets: ReadonlyMap<string, ServedFile> | undefined, mount: string, request: StaticRequest): HttpResponseInit {
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') {
    throw new HttpProblem(405, 'Method Not Allowed', `${method} is not supported here.`, undefined, { allow: 'GET, HEAD' });
  }
  const rest = request.path.slice(mount.length);
  if (request.path.toLowerCase().startsWith(mount.toLowerCase()) && rest === '') {
    return { status: 308, headers: { ...SECURITY_HEADERS, location: `${mount}/${request.query}`, 'cache-control': 'no-cache' } };
  }
  if (!assets)
    throw missing(`The web app at ${mount}/ is not part of this build; \`npm run build\` (or \`npm start\`) makes dist${mount}.`);
  const name = rest === '/' ? 'index.html' : rest.slice(1);
  const asset = rest.startsWith('/') && /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(name) ? assets.get(name) : undefined;
  if (!asset) throw missing(`The web app at ${mount}/ has no such file.`);

  const headers = {
    ...SECURITY_HEADERS,
    'content-type': asset.contentType,
    'cache-control': asset.cacheControl,
    etag: asset.etag,
  };
  if (request.ifNoneMatch?.split(',').some((tag) => tag.trim() === asset.etag || tag.trim() === '*')) {
    return { status: 304, headers };
  }
  return {
    status: 200,
    headers: { ...headers, 'content-length': String(asset.body.length) },
    body: method === 'HEAD' ? undefined : asset.body,
  };
}

/** A 404 no cache keeps: the file may be there after the next deployment. */
function missing(detail: string): HttpProblem {
  return new HttpProblem(404, 'Not Found', detail, undefined, { 'cache-control': 'no-store' });
}
