import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One file of the portal, read into memory once: requests never touch the file system. */
export interface StaticAsset {
  body: Buffer;
  contentType: string;
  etag: string;
  /** `immutable` for content-hashed names (`app-3FQ2K7ZB.js`), revalidated for the rest. */
  cacheControl: string;
}

/** The portal's files by name (`index.html`, `app-3FQ2K7ZB.js`): exactly what may be served. */
export type StaticAssets = ReadonlyMap<string, StaticAsset>;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** esbuild's `[name]-[hash]` names: the content decides the name, so the file never changes. */
const HASHED = /-[A-Z0-9]{8}\.[a-z0-9]+(?:\.map)?$/;
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/**
 * Reads the built portal (`dist/portal`, made by `npm run build`) into memory: the regular files
 * directly in `dir` with a known type; undefined when there is no index.html. Only these names can
 * ever be answered, so no request path reaches the file system (no traversal by construction).
 */
export function readStaticAssets(dir: string): StaticAssets | undefined {
  if (!existsSync(path.join(dir, 'index.html'))) return undefined;
  const assets = new Map<string, StaticAsset>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const contentType = CONTENT_TYPES[path.extname(entry.name).toLowerCase()];
    if (!entry.isFile() || !contentType) continue;
    const body = readFileSync(path.join(dir, entry.name));
    assets.set(entry.name, {
      body,
      contentType,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      cacheControl: HASHED.test(entry.name) ? IMMUTABLE : REVALIDATE,
    });
  }
  return assets;
}
