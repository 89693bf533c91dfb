// Bundles the Functions app into one CommonJS file (package.json "main").
import { build } from 'esbuild';

await build({
  entryPoints: ['functions/index.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  // Provided by the Functions worker at run time.
  external: ['@azure/functions-core'],
  logLevel: 'warning',
});
console.log('Bundled functions/index.ts -> dist/main.js');
