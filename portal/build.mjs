// Builds the admin portal (portal/src, TypeScript and CSS) into one folder of static files:
// index.html, app-<hash>.js, app-<hash>.css, favicon.svg. Content-hashed names let the server
// send them as immutable; index.html names the current ones. Used by development/build.mjs
// (`npm run build` → dist/portal) and, through it, by `npm start` and the portal tests.
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));

/** @param {{ outdir: string, minify?: boolean }} options */
export async function buildPortal({ outdir, minify = true }) {
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  const result = await build({
    entryPoints: { app: path.join(here, 'src', 'main.ts'), styles: path.join(here, 'src', 'styles.css') },
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
    if (!file) throw new Error(`portal build: no output for ${entry}`);
    return path.basename(file);
  };
  const html = (await readFile(path.join(here, 'index.html'), 'utf8'))
    .replace('%APP_JS%', outputOf('src/main.ts'))
    .replace('%APP_CSS%', outputOf('src/styles.css'));
  await writeFile(path.join(outdir, 'index.html'), html);
  await copyFile(path.join(here, 'favicon.svg'), path.join(outdir, 'favicon.svg'));
  return {
    outdir,
    files: ['index.html', outputOf('src/main.ts'), outputOf('src/styles.css'), 'favicon.svg'],
    metafile: result.metafile,
  };
}
