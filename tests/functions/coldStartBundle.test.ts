import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildBundles, type BuiltBundles } from '../support/bundles';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

/**
 * What dist/main.js keeps out of a cold start: each of these loads from its own file beside the
 * bundle on first use (development/build.mjs, SDKS_APART). The figure is the cold-import bench.
 */
const APART = {
  postgresDriver: 'node_modules/postgres/',
  joseSdk: 'node_modules/jose/',
  tablesSdk: 'node_modules/@azure/data-tables/',
  emailSdk: 'node_modules/@azure/communication-email/',
  pushSdk: 'node_modules/@azure/notification-hubs/',
  identitySdk: 'node_modules/@azure/identity/',
  telemetrySdk: 'node_modules/@azure/monitor-opentelemetry/',
};

// Loads the bundle as the Functions worker does (a stand-in for @azure/functions-core), records
// which of the separate files the load itself required, then uses each file as main.js would.
const probe = `
  const Module = require('node:module');
  const path = require('node:path');
  const { fileURLToPath } = require('node:url');
  const dir = path.dirname(process.argv[1]);
  // Every file of the build that loads, CommonJS or ES module, as a path relative to the build.
  const loaded = [];
  Module.registerHooks({
    load(url, context, nextLoad) {
      const file = url.startsWith('file:') ? path.relative(dir, fileURLToPath(url)) : '..';
      if (!file.startsWith('..')) loaded.push(file);
      return nextLoad(url, context);
    },
  });
  const handlers = new Map();
  const load = Module._load;
  Module._load = function (request, ...rest) {
    if (request === '@azure/functions-core') return { setProgrammingModel() {}, registerHook: () => ({ dispose() {} }), log() {}, registerFunction: (metadata, handler) => (handlers.set(metadata.name, handler), { dispose() {} }) };
    return load.call(this, request, ...rest);
  };
  require(process.argv[1]);
  const atLoad = [...loaded];
  (async () => {
    // The first request of a group loads its area module (and what it shares with others), nothing else.
    const { HttpRequest, InvocationContext } = require('@azure/functions');
    const response = await handlers.get('authConfig')(new HttpRequest({ method: 'GET', url: 'http://localhost/api/auth/config' }), new InvocationContext({ logHandler: () => {} }));
    const firstRequest = { status: response.status, loaded: loaded.slice(atLoad.length).filter((file) => !/^functions[\\/]shared-/.test(file)) };
    // The OpenAPI document reads every group's routes: every area links against the entry's exports.
    const openapi = await handlers.get('openapi')(new HttpRequest({ method: 'GET', url: 'http://localhost/api/openapi.json' }), new InvocationContext({ logHandler: () => {} }));
    firstRequest.openapi = openapi.status;
    const driver = require(path.join(dir, 'postgresDriver.js')).default;
    const sql = driver(process.env.DATABASE_URL, { max: 1 });
    const [{ one }] = await sql\`select 1 as one\`;
    await sql.end();
    const tables = await import(path.join(dir, 'tablesSdk.js'));
    await tables.tableService().getProperties();
    const jose = await import(path.join(dir, 'joseSdk.js'));
    const email = await import(path.join(dir, 'emailSdk.js'));
    const push = await import(path.join(dir, 'pushSdk.js'));
    process.stdout.write(JSON.stringify({ atLoad, firstRequest, database: one, storage: 'up', jose: typeof jose.jwtVerify, email: typeof email.EmailClient, push: [typeof push.NotificationHubsClient, typeof push.webPush.sendNotification] }));
  })().catch((error) => { process.stderr.write(String(error && error.stack)); process.exit(1); });`;

// Loads the bundle, then waits (up to 5 s) for the telemetry backend to arrive once the load is done.
const telemetryProbe = `
  const Module = require('node:module');
  const path = require('node:path');
  const hooks = [];
  const load = Module._load;
  Module._load = function (request, ...rest) {
    if (request === '@azure/functions-core') return { setProgrammingModel() {}, registerHook: (name) => (hooks.push(name), { dispose() {} }), log() {}, registerFunction: () => ({ dispose() {} }) };
    return load.call(this, request, ...rest);
  };
  require(process.argv[1]);
  const loaded = () => Object.keys(require.cache).some((file) => path.basename(file) === 'telemetrySdk.js');
  const atLoad = loaded();
  const started = Date.now();
  const poll = setInterval(() => {
    if (!loaded() && Date.now() - started < 5000) return;
    clearInterval(poll);
    process.stdout.write(JSON.stringify({ atLoad, later: loaded(), hooks: [...new Set(hooks)].sort() }));
    process.exit(0);
  }, 20);`;

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown>; imports: { path: string; kind: string; external?: boolean }[] }>;
}

describe('dist/main.js keeps the large SDKs and the areas out of a cold start', () => {
  let bundles: BuiltBundles;
  let outdir: string;

  beforeAll(async () => {
    bundles = await buildBundles('cold-start');
    outdir = bundles.outdir;
  }, 120_000);

  afterAll(() => bundles.remove());

  it('bundles none of them into main.js, and each separate file holds its own', () => {
    const inputsOf = (name: string) =>
      Object.keys((JSON.parse(readFileSync(path.join(outdir, `${name}.meta.json`), 'utf8')) as { inputs: object }).inputs);
    const main = inputsOf('main');
    expect(main.some((input) => input.startsWith('shared/http/dispatch.ts'))).toBe(true);
    for (const [file, module] of Object.entries(APART)) {
      expect(main.filter((input) => input.includes(module))).toEqual([]);
      expect(inputsOf(file).some((input) => input.includes(module))).toBe(true);
    }
  });

  it('puts every module of the app in one file only, so the pool, the settings and the telemetry seam exist once', () => {
    const { outputs } = JSON.parse(readFileSync(path.join(outdir, 'main.meta.json'), 'utf8')) as Metafile;
    const holders = new Map<string, string[]>();
    for (const [output, { inputs }] of Object.entries(outputs)) {
      for (const input of Object.keys(inputs)) holders.set(input, [...(holders.get(input) ?? []), output]);
    }
    expect(holders.get('shared/db/client.ts')).toHaveLength(1);
    expect(holders.get('shared/config/settings.ts')).toHaveLength(1);
    expect(holders.get('shared/telemetry/telemetry.ts')).toHaveLength(1);
    // valibot twice: the entry holds the part the settings check uses, the areas the rest. The app
    // sets none of valibot's global configuration, and its schemas are plain objects either copy runs.
    expect([...holders].filter(([input, files]) => files.length > 1 && !input.endsWith('node_modules/valibot/dist/index.mjs'))).toEqual([]);
  });

  it('keeps every area out of what main.js evaluates: the entry and the chunks it imports hold only the declarations and registrations', () => {
    const { outputs } = JSON.parse(readFileSync(path.join(outdir, 'main.meta.json'), 'utf8')) as Metafile;
    const atStart = new Set<string>();
    const visit = (output: string) => {
      if (atStart.has(output)) return;
      atStart.add(output);
      for (const imported of outputs[output]?.imports ?? [])
        if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
    };
    const entry = Object.keys(outputs).find(
      (output) => output.endsWith(`functions${path.sep}main.mjs`) || output.endsWith('functions/main.mjs'),
    );
    visit(entry ?? 'missing entry');
    const inputs = [...atStart].flatMap((output) => Object.keys(outputs[output]?.inputs ?? {}));
    expect(inputs).toEqual(
      expect.arrayContaining([
        'functions/index.ts',
        'functions/declarations.ts',
        'functions/registrations.ts',
        'shared/config/settings.ts',
      ]),
    );
    const areaCode = inputs.filter((input) =>
      /^functions\/(?!index|declarations|registrations)|^shared\/(http|challenges|notifications|ingest|clubMaster|clubs|costs|freshness|portal|health)\//.test(
        input,
      ),
    );
    expect(areaCode).toEqual([]);
  });

  it('loads none of them with the bundle, and the separate files reach PostgreSQL and the storage account', async () => {
    const { stdout } = await run(process.execPath, ['-e', probe, path.join(outdir, 'main.js')], {
      cwd: root,
      env: {
        PATH: process.env['PATH'] ?? '',
        AUTH_JWT_SECRET: 'x'.repeat(40),
        AUTH_ISSUER: 'local-dev',
        AUTH_AUDIENCE: 'api',
        DATABASE_URL: process.env['DATABASE_URL'] ?? '',
        AzureWebJobsStorage: process.env['AzureWebJobsStorage'] ?? '',
      },
    });
    const { atLoad, ...rest } = JSON.parse(stdout) as { atLoad: string[] };
    // The entry alone: no SDK file, no area module, no chunk the areas share.
    expect(atLoad).toEqual(['main.js', path.join('functions', 'main.mjs')]);
    expect(rest).toEqual({
      firstRequest: { status: 200, loaded: [path.join('functions', 'authConfig.mjs')], openapi: 200 },
      database: 1,
      storage: 'up',
      jose: 'function',
      email: 'function',
      push: ['function', 'function'],
    });
  }, 60_000);

  const settings = {
    PATH: process.env['PATH'] ?? '',
    AUTH_JWT_SECRET: 'x'.repeat(40),
    AUTH_ISSUER: 'local-dev',
    AUTH_AUDIENCE: 'api',
    // Nothing listens there: the backend loads, and its first export would fail.
    APPLICATIONINSIGHTS_CONNECTION_STRING: 'InstrumentationKey=00000000-0000-0000-0000-000000000000;IngestionEndpoint=https://127.0.0.1:9/',
  };

  it('with a connection string, loads OpenTelemetry after the load, not in it, and hooks into the invocations', async () => {
    const { stdout } = await run(process.execPath, ['-e', telemetryProbe, path.join(outdir, 'main.js')], { cwd: root, env: settings });
    expect(JSON.parse(stdout)).toEqual({ atLoad: false, later: true, hooks: ['log', 'preInvocation'] });
  }, 60_000);

  it('without one, never loads it', async () => {
    const { APPLICATIONINSIGHTS_CONNECTION_STRING: _unset, ...withoutTelemetry } = settings;
    const { stdout } = await run(process.execPath, ['-e', telemetryProbe, path.join(outdir, 'main.js')], {
      cwd: root,
      env: withoutTelemetry,
    });
    expect(JSON.parse(stdout)).toEqual({ atLoad: false, later: false, hooks: [] });
  }, 60_000);
});
