// Builds the member app (app/src, TypeScript with Preact's JSX, and CSS) into one folder of static
// files: index.html, main-<hash>.js, styles-<hash>.css, favicon.svg (development/buildStaticSite.mjs).
// Prints the gzip size of the script and the styles and fails when
// either is over its budget (docs/decisions/009-member-app-ui.md). Used by development/build.mjs
// (`npm run build` → dist/app) and, through it, by `npm start` and the app's tests.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildStaticSite } from '../development/buildStaticSite.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Gzip bytes the first screen may load: everything the app ships is loaded by its first screen. */
export const BUDGET = { js: 40 * 1024, css: 8 * 1024 };

/** @param {{ outdir: string, minify?: boolean, budget?: { js: number, css: number }, log?: (line: string) => void }} options */
export async function buildMemberApp({ outdir, minify = true, budget = BUDGET, log = console.log }) {
  const { js, css, files } = await buildStaticSite({
    site: 'member app',
    root: here,
    script: 'src/main.tsx',
    entryNames: { script: 'main', styles: 'styles' },
    outdir,
    minify,
  });

  const sizes = {
    js: gzipSync(await readFile(path.join(outdir, js)), { level: 9 }).length,
    css: gzipSync(await readFile(path.join(outdir, css)), { level: 9 }).length,
  };
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  log(`Member app: JS ${kb(sizes.js)} gzip (budget ${kb(budget.js)}), CSS ${kb(sizes.css)} gzip (budget ${kb(budget.css)})`);
  const over = ['js', 'css'].filter((kind) => sizes[kind] > budget[kind]);
  if (over.length > 0) {
    throw new Error(`member app build: over budget: ${over.map((kind) => `${kind} ${kb(sizes[kind])} > ${kb(budget[kind])}`).join(', ')}`);
  }
  return { outdir, files, sizes };
}
