// Bundles every production entry into one self-contained CommonJS file each: dist/<name>.js runs
// with `node` alone (no tsx, no node_modules). Usage: node scripts/build.mjs [--outdir <dir>]
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

/**
 * One line per long-running process. A worker adds its entry here, e.g.
 * `{ in: 'workers/ingest/main.ts', out: 'ingest-worker' }` (docs/decisions/005-hosting-long-running-processes.md).
 */
const entries = [
  // The Functions app (package.json "main"); the worker provides @azure/functions-core at run time.
  { in: 'functions/index.ts', out: 'main', external: ['@azure/functions-core'], plugins: [costSdkApart()] },
  // The cost provider's Azure SDKs, apart so that a cold start of main.js does not parse them:
  // main.js loads this file from its own folder with import() on the first cost query.
  { in: 'shared/costs/sdk.ts', out: 'costSdk' },
  // The box agent on each club's on-site box.
  { in: 'edge/main.ts', out: 'edge-agent' },
];

const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' } } });

await Promise.all(
  entries.map((entry) =>
    build({
      entryPoints: { [entry.out]: entry.in },
      outdir: values.outdir,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      sourcemap: true,
      external: entry.external ?? [],
      plugins: entry.plugins ?? [],
      logLevel: 'warning',
    }),
  ),
);
for (const entry of entries) console.log(`Bundled ${entry.in} -> ${values.outdir}/${entry.out}.js`);

/** Leaves shared/costs/sdk.ts out of the app bundle: its import() loads costSdk.js at run time. */
function costSdkApart() {
  return {
    name: 'cost-sdk-apart',
    setup(build) {
      build.onResolve({ filter: /^\.\/sdk$/ }, (args) =>
        args.importer.replace(/\\/g, '/').endsWith('shared/costs/azureProvider.ts') ? { path: './costSdk.js', external: true } : undefined,
      );
    },
  };
}
