// Builds the member app (app/src, TypeScript with Preact's JSX, and CSS) into one folder of static
// files: index.html, main-<hash>.js, styles-<hash>.css, favicon.svg. Content-hashed names let the
// server send them as immutable. Prints the gzip size of the script and the styles and fails when
// either is over its budget (docs/decisions/009-member-app-ui.md). Used by development/build.mjs
// (`npm run build` → dist/app) and, through it, by `npm start` and the app's tests.
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Gzip bytes the first screen may load: everything the app ships is loaded by its first screen. */
export const BUDGET = { js: 40 * 1024, css: 8 * 1024 };

/** @param {{ outdir: string, minify?: boolean, budget?: { js: number, css: number }, log?: (line: string) => void }} options */
export async function buildMemberApp({ outdir, minify = true, budget = BUDGET, log = console.log }) {
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  const result = await build({
    entryPoints: { main: path.join(here, 'src', 'main.tsx'), styles: path.join(here, 'src', 'styles.css') },
    outdir,
    entryNames: '[name]-[hash]',
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    minify,
    sourcemap: true,
    metafile: true,
    tsconfig: path.join(here, 'tsconfig.json'),
    logLevel: 'warning',
  });
  const outputOf = (entry) => {
    const [file] = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint?.endsWith(entry)) ?? [];
    if (!file) throw new Error(`member app build: no output for ${entry}`);
    return path.basename(file);
  };
  const js = outputOf('src/main.tsx');
  const css = outputOf('src/styles.css');
  const html = (await readFile(path.join(here, 'index.html'), 'utf8')).replace('%APP_JS%', js).replace('%APP_CSS%', css);
  await writeFile(path.join(outdir, 'index.html'), html);
  await copyFile(path.join(here, 'favicon.svg'), path.join(outdir, 'favicon.svg'));

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
  return { outdir, files: ['index.html', js, css, 'favicon.svg'], sizes };
}
