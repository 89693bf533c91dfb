// Builds the member app (app/src, TypeScript with Preact's JSX, and CSS) into one folder of static
// files: index.html, main-<hash>.js, a chunk per language's texts (de-<hash>.js, en-<hash>.js: the
// page loads the one in use), styles-<hash>.css, favicon.svg (web/build/staticSite.mjs),
// and the service worker sw.js (app/sw/sw.ts; a fixed name: browsers look for updates at the URL
// they registered). Prints the gzip size of the first screen's script (entry, its imports and the
// larger language), the styles and the worker and fails when
// one is over its budget (docs/decisions/009-member-app-ui.md). Used by development/build.mjs
// (`npm run build` → dist/app) and, through it, by `npm start` and the app's tests.
import { copyFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { BROWSER_TARGET, buildStaticSite } from '../web/build/staticSite.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Gzip bytes: `js` and `css` the first screen loads (all of the page's script and styles); `sw` the
 * service worker, which the browser fetches apart from the page, when push is switched on.
 */
export const BUDGET = { js: 40 * 1024, css: 8 * 1024, sw: 4 * 1024 };

/** The web app manifest and the icons it names, copied as they are. */
const INSTALL_FILES = ['manifest.json', 'icon.svg', 'icon-192.png', 'icon-512.png'];

/** @param {{ outdir: string, minify?: boolean, budget?: { js: number, css: number, sw?: number }, log?: (line: string) => void }} options */
export async function buildMemberApp({ outdir, minify = true, budget = BUDGET, log = console.log }) {
  const { js, css, chunks, files } = await buildStaticSite({
    site: 'member app',
    root: here,
    script: 'src/main.tsx',
    entryNames: { script: 'main', styles: 'styles' },
    outdir,
    minify,
    page: {
      lang: 'de',
      title: 'Schützen-App',
      themeColor: '#0b4f6c',
      noscript: 'Die App braucht JavaScript. / The app needs JavaScript.',
      manifest: { href: 'manifest.json', touchIcon: 'icon-192.png' },
    },
  });
  // Installable: the manifest and its icons (a phone's Home Screen; iOS allows web push only there).
  for (const name of INSTALL_FILES) await copyFile(path.join(here, name), path.join(outdir, name));
  // A classic script (not a module): every browser with the Push API runs classic workers.
  await build({
    entryPoints: { sw: path.join(here, 'sw', 'sw.ts') },
    outdir,
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: BROWSER_TARGET,
    minify,
    sourcemap: true,
    tsconfig: path.join(here, 'sw', 'tsconfig.json'),
    logLevel: 'warning',
  });

  const gzipped = async (name) => gzipSync(await readFile(path.join(outdir, name)), { level: 9 }).length;
  // The first screen's script: the entry, what it imports, and the larger of the languages' texts (it loads one).
  const sum = async (names) => (await Promise.all(names.map(gzipped))).reduce((total, size) => total + size, 0);
  const lazy = await Promise.all(chunks.lazy.map(gzipped));
  const sizes = { js: (await sum([js, ...chunks.static])) + Math.max(0, ...lazy), css: await gzipped(css), sw: await gzipped('sw.js') };
  const limits = { sw: BUDGET.sw, ...budget };
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  log(
    `Member app: JS ${kb(sizes.js)} gzip (budget ${kb(limits.js)}), CSS ${kb(sizes.css)} gzip (budget ${kb(limits.css)}), ` +
      `service worker ${kb(sizes.sw)} gzip (budget ${kb(limits.sw)})`,
  );
  const over = ['js', 'css', 'sw'].filter((kind) => sizes[kind] > limits[kind]);
  if (over.length > 0) {
    throw new Error(`member app build: over budget: ${over.map((kind) => `${kind} ${kb(sizes[kind])} > ${kb(limits[kind])}`).join(', ')}`);
  }
  return { outdir, files: [...files, ...INSTALL_FILES, 'sw.js'], sizes };
}
