import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { portalFunction } from '../../functions/portal';
import { PORTAL_CSP } from '../../shared/http/staticFiles';
import { readJson, type ProblemJson } from '../support/http';
import { startTestHost, useTestHost } from '../support/testHost';
import { buildPortal } from './support';

/** A request whose path goes out exactly as written (fetch would resolve `..` before sending). */
function rawGet(base: string, rawPath: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path: rawPath, method: 'GET' }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

describe('the portal files at /portal/', () => {
  let build: ReturnType<typeof buildPortal>;
  let index: string;

  beforeAll(() => {
    build = buildPortal();
    index = readFileSync(path.join(build.dir, 'index.html'), 'utf8');
  });
  const host = useTestHost([portalFunction(() => build.dir)]);
  afterAll(() => build.remove());

  const assetNames = () => [...index.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((match) => match[1] as string);

  it('redirects /portal to /portal/, which is the page, revalidated on every load and locked down by CSP', async () => {
    const bare = await host.request('GET', '/portal?x=1', { headers: {} });
    expect(bare.url).toBe(`${host.url}/portal/?x=1`);
    const page = await host.request('GET', '/portal/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toBe(PORTAL_CSP);
    expect(PORTAL_CSP).not.toMatch(/https?:|\*|'unsafe-/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page.text()).toBe(index);
  });

  it('serves every file index.html names, same origin only, hashed names as immutable with their content type', async () => {
    expect(index).not.toMatch(/https?:\/\//);
    const names = assetNames();
    expect(names).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^app-[A-Z0-9]{8}\.js$/),
        expect.stringMatching(/^styles-[A-Z0-9]{8}\.css$/),
        'favicon.svg',
      ]),
    );
    const types: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml' };
    for (const name of names) {
      const response = await host.request('GET', `/portal/${name}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(types[name.split('.').pop() as string]);
      expect(response.headers.get('cache-control')).toBe(name === 'favicon.svg' ? 'no-cache' : 'public, max-age=31536000, immutable');
      expect(Buffer.from(await response.arrayBuffer())).toEqual(readFileSync(path.join(build.dir, name)));
    }
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await host.request('GET', '/portal/');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await host.request('GET', '/portal/', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('answers HEAD without a body', async () => {
    const head = await host.request('HEAD', '/portal/');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await head.text()).toBe('');
  });

  it.each([
    '/portal/nothing.js',
    '/portal/app.js',
    '/portal/index.html/x',
    '/portal/../package.json',
    '/portal/%2e%2e/package.json',
    '/portal/%2E%2E%2Fpackage.json',
    '/portal/..%2fpackage.json',
    '/portal/..%5cpackage.json',
    '/portal/%252e%252e%252fpackage.json',
    '/portal/./index.html',
    '/portal/.env',
    '/portal//etc/passwd',
  ])('%s is 404 and reveals no file outside the build', async (rawPath) => {
    const response = await rawGet(host.url, rawPath);
    expect(response.status).toBe(404);
    expect(response.body).not.toContain('"name": "shooting-club-backend"');
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.headers['cache-control'] ?? 'no-store').toBe('no-store');
  });

  it('takes only GET and HEAD', async () => {
    const response = await host.request('POST', '/portal/', { body: 'x' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('without a build answers 404 saying how to make one', async () => {
    const bare = await startTestHost([portalFunction(() => path.join(build.dir, 'missing'))]);
    try {
      const response = await bare.request('GET', '/portal/');
      expect(response.status).toBe(404);
      expect((await readJson<ProblemJson>(response)).detail).toContain('npm run build');
    } finally {
      await bare.close();
    }
  });
});
