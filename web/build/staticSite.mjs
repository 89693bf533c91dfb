// The build both front ends share (portal/build.mjs, app/build.mjs): one entry script and one
// stylesheet bundled by esbuild into content-hashed files, index.html naming them, and the favicon.
// Content-hashed names let the server send the files as immutable; index.html names the current ones.
// Production code: the front ends' builds import it, never development/.
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { indexHtml } from './indexHtml.mjs';

/** The browsers the front ends support (the box UI's too): what the Push API and top-level await need. */
export const BROWSER_TARGET = ['es2022', 'chrome110', 'firefox110', 'safari16'];

/**
 * @param {{ site: string, root: string, script: string, entryNames: { script: string, styles: string }, outdir: string, minify: boolean, page: import('./indexHtml.mjs').Page }} options
 * `root` holds favicon.svg, tsconfig.json, `script` and `src/styles.css`; `page` is what index.html
 * says around them; `site` names the build in errors.
 */
export async function buildStaticSite({ site, root, script, entryNames, outdir, minify, page }) {
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  const result = await build({
    entryPoints: { [entryNames.script]: path.join(root, script), [entryNames.styles]: path.join(root, 'src', 'styles.css') },
    outdir,
    entryNames: '[name]-[hash]',
    bundle: true,
    platform: 'browser',
    format: 'esm',
    // A dynamic import() becomes a chunk of its own, loaded when it runs (the member app's languages).
    splitting: true,
    // Umlauts as they are (served as UTF-8), not as \xFC escapes: the texts are half the script.
    charset: 'utf8',
    target: BROWSER_TARGET,
    minify,
    sourcemap: true,
    metafile: true,
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'warning',
  });
  const outputOf = (entry) => {
    const [file] = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint?.endsWith(entry)) ?? [];
    if (!file) throw new Error(`${site} build: no output for ${entry}`);
    return path.basename(file);
  };
  const js = outputOf(script);
  const css = outputOf('src/styles.css');
  await writeFile(path.join(outdir, 'index.html'), indexHtml(page, { js, css }));
  await copyFile(path.join(root, 'favicon.svg'), path.join(outdir, 'favicon.svg'));
  // Chunks the entry script loads: `static` with it, `lazy` when an import() runs (a language's texts).
  const imports =
    result.metafile.outputs[Object.keys(result.metafile.outputs).find((file) => path.basename(file) === js) ?? '']?.imports ?? [];
  const chunks = (kind) => imports.filter((item) => item.kind === kind).map((item) => path.basename(item.path));
  return {
    js,
    css,
    chunks: { static: chunks('import-statement'), lazy: chunks('dynamic-import') },
    files: ['index.html', js, css, 'favicon.svg', ...chunks('import-statement'), ...chunks('dynamic-import')],
    metafile: result.metafile,
  };
}
