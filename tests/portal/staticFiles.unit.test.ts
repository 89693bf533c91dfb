import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readStaticAssets } from '../../shared/portal/assets';
import { serveStatic } from '../../shared/http/staticFiles';

/** The static responder on raw paths, as a host that does not resolve dot segments would pass them. */
describe('serveStatic', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'portal-assets-'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>x</title>');
    writeFileSync(path.join(dir, 'app-ABCDEFGH.js'), 'console.log(1)');
    writeFileSync(path.join(dir, 'notes.txt'), 'not a served type');
    mkdirSync(path.join(dir, 'sub'));
    writeFileSync(path.join(dir, 'sub', 'inner.js'), 'nested files are not served');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const get = (requestPath: string) =>
    serveStatic(readStaticAssets(dir), '/portal', { method: 'GET', path: requestPath, query: '', ifNoneMatch: null }, 'req-1');

  it('reads only the known file types directly in the folder', () => {
    expect([...(readStaticAssets(dir)?.keys() ?? [])].sort()).toEqual(['app-ABCDEFGH.js', 'index.html']);
    expect(readStaticAssets(path.join(dir, 'sub'))).toBeUndefined();
  });

  it('serves exact names only', () => {
    expect(get('/portal/').status).toBe(200);
    expect(get('/portal/app-ABCDEFGH.js').status).toBe(200);
    for (const bad of [
      '/portal/..',
      '/portal/../index.html',
      '/portal/%2e%2e%2findex.html',
      '/portal/sub/inner.js',
      '/portal/sub%2finner.js',
      '/portal/notes.txt',
      '/portal/.',
      '/portal/INDEX.HTML',
    ]) {
      expect([bad, get(bad).status]).toEqual([bad, 404]);
    }
  });
});
