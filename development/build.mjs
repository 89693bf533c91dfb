// Bundles every production entry into one self-contained CommonJS file each: dist/<name>.js runs
// with `node` alone (no tsx, no node_modules). The Functions app is the exception: ES modules in
// <outdir>/functions (an entry, one module per area loaded on first use, the chunks they share)
// behind <outdir>/main.js, which requires the entry. The admin portal's static files go to
// <outdir>/portal, the member app's to <outdir>/app (which fails the build when over its size budget).
// Usage: node development/build.mjs [--outdir <dir>] [--only portal|app] [--metafile]
// --metafile also writes <outdir>/<name>.meta.json, esbuild's list of what each bundle holds.
import { cp, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { buildMemberApp } from '../app/build.mjs';
import { buildPortal } from '../portal/build.mjs';

/** Which module an importer loads with import(), and the bundle file that replaces it at run time. */
const SDKS_APART = [
  { importer: 'shared/costs/azureProvider.ts', specifier: './sdk', file: './costSdk.js' },
  { importer: 'shared/storage/tables.ts', specifier: './identity', file: './identitySdk.js' },
  { importer: 'functions/health.ts', specifier: '../shared/storage/tables', file: './tablesSdk.js' },
  { importer: 'shared/notifications/channels/email/acsEmailSender.ts', specifier: './emailSdk', file: './emailSdk.js' },
  { importer: 'shared/auth/jwt.ts', specifier: './jose', file: './joseSdk.js' },
  { importer: 'shared/db/client.ts', specifier: './driver', file: './postgresDriver.js' },
  { importer: 'shared/telemetry/startup.ts', specifier: './sdk', file: './telemetrySdk.js' },
  { importer: 'shared/notifications/channels/loadPushSdk.ts', specifier: './pushSdk', file: './pushSdk.js' },
];

/**
 * One line per long-running process. A worker adds its entry here, e.g.
 * `{ in: 'workers/ingest/main.ts', out: 'ingest-worker' }` (docs/decisions/005-hosting-long-running-processes.md).
 */
const entries = [
  // The Functions app (package.json "main") is built by buildFunctionsApp below.
  // Large Azure SDKs, apart so that a cold start of main.js does not parse them: main.js loads
  // each from its own folder with import() on first use (the first cost query; the first token
  // of an identity-based storage connection).
  { in: 'shared/costs/sdk.ts', out: 'costSdk' },
  { in: 'shared/storage/identity.ts', out: 'identitySdk' },
  // The Tables client of the health check's storage probe, loaded on the first health request.
  { in: 'shared/storage/tables.ts', out: 'tablesSdk', plugins: [sdksApart('./')] },
  // Email delivery's SDKs (Communication Services, identity), loaded with the first email sent.
  { in: 'shared/notifications/channels/email/emailSdk.ts', out: 'emailSdk' },
  // Push delivery's SDKs (Notification Hubs, web-push), loaded with the first push or registration.
  { in: 'shared/notifications/channels/pushSdk.ts', out: 'pushSdk' },
  // Token verification (jose), loaded with the first token a request carries.
  { in: 'shared/auth/jose.ts', out: 'joseSdk' },
  // The PostgreSQL driver, required when the first pool opens.
  { in: 'shared/db/driver.ts', out: 'postgresDriver' },
  // OpenTelemetry with the Azure Monitor distro, loaded after the app registered its functions
  // when APPLICATIONINSIGHTS_CONNECTION_STRING is set (shared/telemetry/startup.ts).
  // Some of its packages resolve to their ES module builds, which read import.meta.url: given the file's own URL.
  {
    in: 'shared/telemetry/sdk.ts',
    out: 'telemetrySdk',
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;",
  },
  // The box agent on each club's on-site box: boxes run the Node.js their Debian offers (20 or newer).
  // It carries its own telemetry backend, loaded only with APPLICATIONINSIGHTS_CONNECTION_STRING.
  {
    in: 'edge/main.ts',
    out: 'edge-agent',
    target: 'node20',
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;",
    plugins: [boxUiBuilt()],
  },
  // The staging ingest worker (workers/README.md).
  // It carries its own telemetry backend (the image holds this one file): see telemetrySdk below.
  {
    in: 'workers/ingest/main.ts',
    out: 'ingest-worker',
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;",
  },
  // The production commands an operator or a workflow runs (docs/decisions/007-production-commands.md).
  // It carries its own telemetry backend, loaded only with APPLICATIONINSIGHTS_CONNECTION_STRING.
  {
    in: 'ops/main.ts',
    out: 'ops',
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;",
  },
];

// The cloud's bundles are built for the Node.js of .nvmrc, the one version tests, CI and Azure run.
const pinnedNode = `node${(await readFile(new URL('../.nvmrc', import.meta.url), 'utf8')).trim().split('.')[0]}`;

const { values } = parseArgs({
  options: { outdir: { type: 'string', default: 'dist' }, only: { type: 'string' }, metafile: { type: 'boolean', default: false } },
});
const SITES = ['portal', 'app'];
// The area modules of the Functions app: every `require('./<area>')` of functions/registrations.ts.
const AREAS = [
  ...(await readFile(new URL('../functions/registrations.ts', import.meta.url), 'utf8')).matchAll(/require\('\.\/(\w+)'\)/g),
].map((match) => match[1]);
if (values.only !== undefined && !SITES.includes(values.only)) throw new Error(`--only takes: ${SITES.join(', ')}`);
const siteOnly = values.only !== undefined;
const wanted = (site) => values.only === undefined || values.only === site;

await Promise.all([
  // The admin portal (docs/portal.md): served by the app's `portal` function from dist/portal.
  ...(wanted('portal')
    ? [
        buildPortal({ outdir: path.join(values.outdir, 'portal') }).then(async (portal) => {
          // Beside the portal's folder, not in it: the app serves that folder.
          if (values.metafile) await writeFile(path.join(values.outdir, 'portal.meta.json'), JSON.stringify(portal.metafile));
        }),
      ]
    : []),
  // The member app (docs/member-app.md): served by the `memberApp` function from dist/app.
  ...(wanted('app') ? [buildMemberApp({ outdir: path.join(values.outdir, 'app') })] : []),
  ...(siteOnly ? [] : [buildFunctionsApp()]),
  ...(siteOnly ? [] : entries).map(async (entry) => {
    const result = await build({
      entryPoints: { [entry.out]: entry.in },
      outdir: values.outdir,
      bundle: true,
      platform: 'node',
      target: entry.target ?? pinnedNode,
      format: 'cjs',
      sourcemap: true,
      external: entry.external ?? [],
      plugins: entry.plugins ?? [],
      define: entry.define ?? {},
      banner: entry.banner ? { js: entry.banner } : {},
      logLevel: 'warning',
      metafile: values.metafile,
    });
    if (values.metafile) await writeFile(path.join(values.outdir, `${entry.out}.meta.json`), JSON.stringify(result.metafile));
  }),
]);
// The migrations beside the bundles: `ops.js migrate` reads them from <outdir>/migrations, as the
// sources read shared/db/migrations (shared/db/migrate.ts DEFAULT_MIGRATIONS_DIR).
if (!siteOnly) {
  const from = path.join('shared', 'db', 'migrations');
  const files = (await readdir(from)).filter((name) => name.endsWith('.sql'));
  await Promise.all(files.map((name) => cp(path.join(from, name), path.join(values.outdir, 'migrations', name))));
  await cp(path.join(from, 'live'), path.join(values.outdir, 'migrations', 'live'), { recursive: true });
  console.log(`Copied ${files.length} migrations and their live files -> ${values.outdir}/migrations/`);
}
if (!siteOnly) console.log(`Bundled functions/index.ts -> ${values.outdir}/main.js (${values.outdir}/functions/, ${AREAS.length} areas)`);
for (const entry of siteOnly ? [] : entries) console.log(`Bundled ${entry.in} -> ${values.outdir}/${entry.out}.js`);
for (const site of SITES.filter(wanted)) console.log(`Bundled ${site}/src -> ${values.outdir}/${site}/`);

/**
 * The Functions app. Its cold start (the host times the require of main.js) evaluates only what
 * registers the functions: functions/registrations.ts declares each one and loads its area module
 * with `require('./<area>')` on the first invocation (docs/decisions/012-functions-load-their-area-on-first-use.md).
 * Built as ES modules, so that every module exists once (the database pool, the settings, the
 * telemetry seam): the entry is one file, functions/main.mjs, which also exports its own modules;
 * the areas, each an entry of a second build with code splitting, import those from main.mjs and
 * share the rest in chunks. (The entry built with the areas would import its share of those chunks
 * too: measured, 1.31× against 1.12× for one file.) Only valibot is in both builds: stateless as
 * the app uses it. main.js stays CommonJS for the worker, the tests and the benches, and requires
 * the entry (Node.js 22.12 and later load an ES module graph without top-level await through require).
 */
async function buildFunctionsApp() {
  const outdir = path.join(values.outdir, 'functions');
  const common = {
    outdir,
    bundle: true,
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    platform: 'node',
    target: pinnedNode,
    sourcemap: true,
    // The worker provides @azure/functions-core at run time, through require.
    external: ['@azure/functions-core'],
    // What the bundled CommonJS code (@azure/functions, the postgres driver's require, the static
    // sites' __dirname) expects of a module scope.
    banner: {
      js: [
        "import { createRequire as __createRequire } from 'node:module';",
        "import { fileURLToPath as __fileURLToPath } from 'node:url';",
        "import { dirname as __pathDirname } from 'node:path';",
        'const require = __createRequire(import.meta.url);',
        'const __filename = __fileURLToPath(import.meta.url);',
        'const __dirname = __pathDirname(__filename);',
      ].join('\n'),
    },
    logLevel: 'warning',
    metafile: true,
  };
  // The entry, one file: what the cold start evaluates. It also exports every module of its own
  // (the settings, the logger, the telemetry seam...), so the areas import them from it.
  const probe = await build({
    ...common,
    entryPoints: { main: 'functions/index.ts' },
    plugins: [sdksApart('../'), areasApart()],
    write: false,
  });
  const own = Object.keys(probe.metafile.inputs).filter((input) => /^(shared|functions)\//.test(input) && input !== 'functions/index.ts');
  const entry = await build({
    ...common,
    stdin: {
      contents: ["import './functions/index.ts';", ...own.map((input) => `export * from './${input}';`)].join('\n'),
      resolveDir: path.resolve('.'),
      // Generated: not a file of the repository.
      sourcefile: 'main.mjs entry (development/build.mjs)',
      loader: 'ts',
    },
    entryNames: 'main',
    plugins: [sdksApart('../'), areasApart()],
  });
  const fromEntry = new Set(own.map((input) => path.resolve(input)));
  // The areas, each an entry; what several of them share lands in one chunk that all of them import.
  const areas = await build({
    ...common,
    entryPoints: Object.fromEntries(AREAS.map((area) => [area, `functions/${area}.ts`])),
    splitting: true,
    chunkNames: 'shared-[hash]',
    plugins: [sdksApart('../'), intoEntry(fromEntry)],
  });
  await writeFile(
    path.join(values.outdir, 'main.js'),
    [
      '"use strict";',
      '// The Functions app (development/build.mjs): ES modules in ./functions, each area loaded on first use.',
      "module.exports = require('./functions/main.mjs');",
      '',
    ].join('\n'),
  );
  const metafile = {
    inputs: { ...entry.metafile.inputs, ...areas.metafile.inputs },
    outputs: { ...entry.metafile.outputs, ...areas.metafile.outputs },
  };
  if (values.metafile) await writeFile(path.join(values.outdir, 'main.meta.json'), JSON.stringify(metafile));
}

/** Makes the areas import the entry's own modules from main.mjs, the one instance of each. */
function intoEntry(modules) {
  return {
    name: 'into-entry',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.pluginData === 'into-entry') return undefined;
        const resolved = await build.resolve(args.path, {
          resolveDir: args.resolveDir,
          kind: args.kind,
          importer: args.importer,
          pluginData: 'into-entry',
        });
        return modules.has(resolved.path) ? { path: './main.mjs', external: true } : undefined;
      });
    },
  };
}

/** Leaves each area module functions/registrations.ts requires out of the entry: the area's own module, beside it, loads on first use. */
function areasApart() {
  return {
    name: 'areas-apart',
    setup(build) {
      build.onResolve({ filter: /^\.\/\w+$/ }, (args) => {
        if (args.kind !== 'require-call' || !args.importer.replace(/\\/g, '/').endsWith('functions/registrations.ts')) return undefined;
        const area = args.path.slice(2);
        if (!AREAS.includes(area)) throw new Error(`functions/registrations.ts requires ${args.path}, which is no area entry`);
        return { path: `./${area}.mjs`, external: true };
      });
    },
  };
}

/**
 * Puts the box UI's script, bundled now (edge/ui/bundle.mjs), in the place of edge/boxUiScript.ts,
 * which bundles it at run time from the sources: a box has no esbuild.
 */
function boxUiBuilt() {
  return {
    name: 'box-ui-built',
    setup(build) {
      build.onLoad({ filter: /[\\/]edge[\\/]boxUiScript\.ts$/ }, async () => {
        const { bundleBoxUi } = await import('../edge/ui/bundle.mjs');
        return { contents: `export const boxUiScript = () => ${JSON.stringify(bundleBoxUi())};`, loader: 'js' };
      });
    },
  };
}

/** Leaves the SDK modules of SDKS_APART out of the app bundle: their import() loads the separate files (in `dir`, relative to the bundle). */
function sdksApart(dir) {
  return {
    name: 'sdks-apart',
    setup(build) {
      const specifiers = new Set(SDKS_APART.map((entry) => entry.specifier));
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (!specifiers.has(args.path)) return undefined;
        const importer = args.importer.replace(/\\/g, '/');
        const apart = SDKS_APART.find((entry) => entry.specifier === args.path && importer.endsWith(entry.importer));
        return apart ? { path: apart.file.replace('./', dir), external: true } : undefined;
      });
    },
  };
}
