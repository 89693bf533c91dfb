import { memberAppFunction } from '../../functions/app';
import { PORTAL_CSP } from '../../shared/http/staticFiles';
import { useTestHost } from '../support/testHost';
import { buildApp } from './support';

/** The member app's files at /app/, served by the memberApp function like the portal's. */
describe('GET /app/', () => {
  let build: ReturnType<typeof buildApp> | undefined;
  const dir = () => {
    build ??= buildApp();
    return build.dir;
  };
  const host = useTestHost([memberAppFunction(dir)]);
  const missing = useTestHost([memberAppFunction(() => '/nonexistent/app-build')]);
  afterAll(() => build?.remove());

  it('redirects /app to /app/ and answers index.html there with the CSP, revalidated', async () => {
    const bare = await host.request('GET', '/app?x=1');
    expect([bare.status, bare.url]).toEqual([200, `${host.url}/app/?x=1`]);
    const index = await host.request('GET', '/app/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toBe(PORTAL_CSP);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    const script = /src="\.\/(main-[A-Z0-9]{8}\.js)"/.exec(html)?.[1];
    const asset = await host.request('GET', `/app/${script}`);
    expect([asset.status, asset.headers.get('content-type'), asset.headers.get('cache-control')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'public, max-age=31536000, immutable',
    ]);
  });

  it('serves the service worker at a fixed name as JavaScript, revalidated, so a new version reaches browsers at once', async () => {
    const worker = await host.request('GET', '/app/sw.js');
    expect([worker.status, worker.headers.get('content-type'), worker.headers.get('cache-control')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'no-cache',
    ]);
    // Its default scope is its folder, /app/: the app's pages and nothing else of the origin.
    expect(await worker.text()).toContain('notificationclick');
  });

  it.each(['/app/..%2fpackage.json', '/app/%2e%2e/host.json', '/app/nothing.js', '/app/portal'])(
    'answers %s with 404',
    async (requestPath) => {
      const response = await host.request('GET', requestPath);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
    },
  );

  it('takes only GET and HEAD', async () => {
    const response = await host.request('POST', '/app/', { body: 'x' });
    expect([response.status, response.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('without a build answers 404 saying how to make one', async () => {
    const response = await missing.request('GET', '/app/');
    expect(response.status).toBe(404);
    expect(((await response.json()) as { detail: string }).detail).toBe(
      'The web app at /app/ is not part of this build; `npm run build` (or `npm start`) makes dist/app.',
    );
  });
});
