// Bundles the box UI's script (boxUi.ts beside this file, typed by tsconfig.json here) into one
// classic script for the browsers the front ends support. development/build.mjs imports it and
// puts the script into the agent's bundle (a box has no esbuild); the agent running from its
// sources runs this file as a command (edge/boxUiScript.ts), which prints the script.
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { BROWSER_TARGET } from '../../web/build/staticSite.mjs';

/** The box UI's script, minified. */
export function bundleBoxUi() {
  const result = buildSync({
    entryPoints: [fileURLToPath(new URL('./boxUi.ts', import.meta.url))],
    tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)),
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: BROWSER_TARGET,
    minify: true,
    charset: 'utf8',
    logLevel: 'warning',
  });
  const [script] = result.outputFiles;
  if (!script) throw new Error('the box UI bundled to nothing');
  return script.text;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(bundleBoxUi());
