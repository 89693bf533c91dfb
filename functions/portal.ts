import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { HttpRequest } from '@azure/functions';
import type { FunctionDefinition } from '../shared/host/definition';
import { pathOf, REQUEST_ID_HEADER } from '../shared/http/dispatch';
import { getSettings } from '../shared/config/settings';
import { portalCsp, serveStatic } from '../shared/http/staticFiles';
import { readStaticAssets, type StaticAssets } from '../shared/portal/assets';

export const PORTAL_MOUNT = '/portal';

/**
 * Where the built portal lies: beside the bundle in a deployment (dist/main.js → dist/portal),
 * and in dist/portal of the checkout when the app runs from source (`npm start`, which builds it
 * first; docs/decisions/006-portal-hosting.md).
 */
export function defaultPortalDir(): string {
  const candidates = [path.join(__dirname, 'portal'), path.join(__dirname, '..', 'dist', 'portal')];
  return candidates.find((dir) => existsSync(path.join(dir, 'index.html'))) ?? (candidates[0] as string);
}

/**
 * The admin portal's static files at /portal/ (public: the files hold no data; every figure comes
 * from the authenticated API). Not `/admin/`: the Azure host reserves routes starting with admin.
 * Read into memory on first request; a missing build answers 404 until it exists.
 */
export function portalFunction(dir: () => string = defaultPortalDir): FunctionDefinition {
  let assets: StaticAssets | undefined;
  return {
    kind: 'http',
    name: 'portal',
    routes: [],
    options: {
      route: 'portal/{*rest}',
      methods: ['GET', 'HEAD'],
      authLevel: 'anonymous',
      handler: (request: HttpRequest) => {
        assets ??= readStaticAssets(dir());
        const requestId = randomUUID();
        const query = new URL(request.url).search;
        const response = serveStatic(
          assets,
          PORTAL_MOUNT,
          { method: request.method, path: pathOf(request.url), query, ifNoneMatch: request.headers.get('if-none-match') },
          requestId,
        );
        const authority = getSettings().AUTH_OIDC_AUTHORITY;
        const csp = portalCsp(authority ? [new URL(authority).origin] : []);
        return Promise.resolve({
          ...response,
          headers: { ...(response.headers as Record<string, string>), 'content-security-policy': csp, [REQUEST_ID_HEADER]: requestId },
        });
      },
    },
  };
}
