import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import type { SiteDeclaration } from '../shared/host/bindings';
import type { FunctionDefinition } from '../shared/host/definition';
import { pathOf, REQUEST_ID_HEADER, requestLogger } from '../shared/http/dispatch';
import { lazyLogger } from '../shared/log/logger';
import { getSettings } from '../shared/config/settings';
import { portalCsp, serveStatic, staticErrorResponse } from '../shared/http/staticFiles';
import { readStaticAssets, type StaticAssets } from '../shared/portal/assets';

/**
 * Where a built web app lies: beside the bundle in a deployment (dist/main.js → dist/<folder>),
 * and in dist/<folder> of the checkout when the app runs from source (`npm start`, which builds it
 * first; docs/decisions/006-portal-hosting.md).
 */
export function builtSiteDir(folder: string): string {
  const candidates = [path.join(__dirname, folder), path.join(__dirname, '..', 'dist', folder)];
  return candidates.find((dir) => existsSync(path.join(dir, 'index.html'))) ?? (candidates[0] as string);
}

/**
 * One web app's static files at `/<mount>/` (public: the files hold no data; every figure comes
 * from the authenticated API). Read into memory on first request; a missing build answers 404
 * until it exists. The admin portal and the member app are two of these.
 */
export function staticSiteFunction(declaration: SiteDeclaration, dir: () => string): FunctionDefinition {
  const mount = `/${declaration.mount}`;
  let assets: StaticAssets | undefined;
  return {
    kind: 'http',
    name: declaration.name,
    routes: [],
    options: {
      ...declaration.options,
      handler: (request: HttpRequest, context: InvocationContext) => {
        const requestId = randomUUID();
        const path = pathOf(request.url);
        const log = lazyLogger(() => requestLogger(context, { requestId, method: request.method, path }));
        let response: HttpResponseInit;
        try {
          assets ??= readStaticAssets(dir());
          const query = new URL(request.url).search;
          response = serveStatic(
            assets,
            mount,
            { method: request.method, path, query, ifNoneMatch: request.headers.get('if-none-match') },
            requestId,
            log,
          );
          // The sign-in talks to the OpenID provider from the page (discovery, token), so its origin joins connect-src.
          const authority = getSettings().AUTH_OIDC_AUTHORITY;
          response = withHeaders(response, { 'content-security-policy': portalCsp(authority ? [new URL(authority).origin] : []) });
        } catch (error) {
          // Unreadable files, broken settings: the one error path answers, never the host.
          response = staticErrorResponse(error, requestId, path, log);
        }
        return Promise.resolve(withHeaders(response, { [REQUEST_ID_HEADER]: requestId }));
      },
    },
  };
}

function withHeaders(response: HttpResponseInit, headers: Record<string, string>): HttpResponseInit {
  return { ...response, headers: { ...(response.headers as Record<string, string>), ...headers } };
}
