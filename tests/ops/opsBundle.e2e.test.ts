import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { startFakeAppInsights, type FakeAppInsights, type TelemetryEnvelope } from '../../development/appInsightsFake/server';
import { readFakeTls } from '../../development/costsFake/certificate';
import { buildBundles, type BuiltBundles } from '../support/bundles';

const root = path.resolve(__dirname, '..', '..');

/**
 * The production commands as a workflow runs them: `node dist/ops.js <command>` from `npm run
 * build`, away from node_modules, with only the variables the test passes (no settings file).
 */
describe('the production commands bundle (dist/ops.js)', () => {
  let bundles: BuiltBundles;

  beforeAll(async () => {
    bundles = await buildBundles('ops-bundle');
  }, 120_000);

  afterAll(() => bundles.remove());

  const ops = async (args: string[], env: Record<string, string> = {}) => {
    const started = bundles.start('ops', env, args);
    const code = await started.exited;
    return { code, output: started.output(), stderr: started.stderr() };
  };

  /** What each database command needs besides DATABASE_URL, so that DATABASE_URL is the one missing. */
  const databaseCommands: [string, string[], Record<string, string>][] = [
    ['migrate', [], {}],
    ['edge:token', ['--club', '4711'], {}],
    ['seed:challenges', [], {}],
    [
      'ingest:backfill-shooters',
      ['4711'],
      {
        INGEST_EVENTHUB_CONNECTION: 'Endpoint=sb://hub.example.net/;SharedAccessKeyName=k;SharedAccessKey=s',
        AzureWebJobsStorage: 'UseDevelopmentStorage=true',
      },
    ],
  ];

  describe.each(databaseCommands)('%s', (command, args, env) => {
    it.each([
      ['unset', {}],
      ['empty, as an empty deployment secret arrives', { DATABASE_URL: '' }],
      ['blank', { DATABASE_URL: '   ' }],
    ])(
      'with DATABASE_URL %s stops with exit 2 and one line on stderr naming it',
      async (_case, database) => {
        const result = await ops([command, ...args], { ...env, ...database });
        expect(result.code).toBe(2);
        expect(result.stderr.trim().split('\n')).toEqual([
          `${command}: DATABASE_URL is not set: the PostgreSQL connection string of the service database.`,
        ]);
        // Nothing was started or changed: no embedded database, no settings file read.
        expect(result.output).not.toMatch(/embedded|local\.settings|applied|Database:/);
      },
      30_000,
    );
  });

  it('migrate applies to DATABASE_URL with no other setting and never prints the password', async () => {
    const url = new URL(process.env['DATABASE_URL'] ?? '');
    const result = await ops(['migrate'], { DATABASE_URL: url.toString() });
    expect(result.output).toMatch(/applied 0 migration\(s\), \d+ already applied/);
    expect(result.output).toContain(`${url.host}${url.pathname}`);
    if (url.password) expect(result.output).not.toContain(url.password);
    expect(result.code).toBe(0);
  }, 30_000);

  it('an invalid setting stops the command with exit 2, naming the setting and not its value', async () => {
    const result = await ops(['migrate'], { DATABASE_URL: process.env['DATABASE_URL'] ?? '', DATABASE_POOL_MAX: 'lots' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^migrate: invalid settings: DATABASE_POOL_MAX /);
    expect(result.stderr).not.toContain('lots');
  }, 30_000);

  it('a command that needs no settings runs with none', async () => {
    const result = await ops(['challenges:service-token']);
    expect(result.code).toBe(0);
    expect(result.output).toContain('CHALLENGE_SERVICE_TOKEN_HASH value:');
  }, 30_000);

  describe('telemetry', () => {
    let ingestion: FakeAppInsights;
    const caFile = process.env['NODE_EXTRA_CA_CERTS'] ?? '';
    beforeAll(async () => {
      ingestion = await startFakeAppInsights({ tls: readFakeTls(caFile) });
    });
    afterAll(() => ingestion.close());
    const requests = () => ingestion.envelopes.filter((envelope) => envelope.data?.baseType === 'RequestData');
    const propertiesOf = (envelope: TelemetryEnvelope | undefined) => envelope?.data?.baseData?.['properties'] as Record<string, string>;

    it('with APPLICATIONINSIGHTS_CONNECTION_STRING, a command is one request span with its queries inside, sent before exit', async () => {
      const result = await ops(['migrate'], {
        DATABASE_URL: process.env['DATABASE_URL'] ?? '',
        APPLICATIONINSIGHTS_CONNECTION_STRING: ingestion.connectionString,
        NODE_EXTRA_CA_CERTS: caFile,
      });
      expect(result.code).toBe(0);
      // Sent before the process exited: nothing is waited for after it.
      const [command, ...others] = requests().filter((envelope) => envelope.data?.baseData?.['name'] === 'ops migrate');
      expect(others).toEqual([]);
      expect(command?.data?.baseData).toMatchObject({ success: true });
      expect(propertiesOf(command)).toMatchObject({ 'app.trigger': 'command', 'app.exit_code': '0' });
      expect(command?.tags?.['ai.cloud.role']).toBe('shooting-club-ops');
      const operation = command?.tags?.['ai.operation.id'];
      const queries = ingestion.envelopes.filter(
        (envelope) => envelope.data?.baseType === 'RemoteDependencyData' && envelope.tags?.['ai.operation.id'] === operation,
      );
      expect(queries.length).toBeGreaterThan(0);
      expect(queries.map((query) => query.data?.baseData?.['type'])).toEqual(queries.map(() => 'postgresql'));
    }, 60_000);

    it('a command that fails is a failed request with its exit code', async () => {
      const result = await ops(['migrate'], {
        DATABASE_URL: process.env['DATABASE_URL'] ?? '',
        DATABASE_POOL_MAX: 'lots',
        APPLICATIONINSIGHTS_CONNECTION_STRING: ingestion.connectionString,
        NODE_EXTRA_CA_CERTS: caFile,
      });
      expect(result.code).toBe(2);
      const failed = requests().find(
        (envelope) => envelope.data?.baseData?.['name'] === 'ops migrate' && propertiesOf(envelope)['app.exit_code'] === '2',
      );
      expect(failed?.data?.baseData).toMatchObject({ success: false });
    }, 60_000);

    it('without the connection string runs as before and sends nothing', async () => {
      const before = ingestion.bodies.length;
      const result = await ops(['challenges:service-token'], { NODE_EXTRA_CA_CERTS: caFile });
      expect(result.code).toBe(0);
      expect(result.output).not.toMatch(/telemetry/i);
      expect(ingestion.bodies.length).toBe(before);
    }, 30_000);
  });

  it('names the commands on no or an unknown command, with exit 64', async () => {
    for (const args of [[], ['migrations']]) {
      const result = await ops(args);
      expect(result.code).toBe(64);
      expect(result.stderr).toContain(args.length ? 'Unknown command "migrations"' : 'No command given');
      for (const command of ['migrate', 'ingest:backfill-shooters', 'freshness:check', 'edge:token', 'seed:challenges', 'rollout:gate'])
        expect(result.stderr).toContain(`  ${command}`);
    }
  }, 30_000);

  describe('no production bundle carries development tooling', () => {
    interface Metafile {
      inputs: Record<string, { imports: { path: string }[] }>;
    }
    /**
     * What in a bundle belongs to development only: files from development/, and the project's own
     * files that import rhea (the local Event Hubs endpoint's AMQP library). The Event Hubs SDK
     * brings rhea along through rhea-promise; that copy is the SDK's, not the project's.
     */
    const developmentInputs = (metafile: Metafile) => [
      ...Object.keys(metafile.inputs).filter((input) => /^development\//.test(input)),
      // The local OpenID provider (oidc-provider accepts demo users): development only.
      ...Object.keys(metafile.inputs).filter((input) => /(^|\/)node_modules\/oidc-provider\//.test(input)),
      ...Object.entries(metafile.inputs)
        .filter(
          ([input, { imports }]) =>
            !input.includes('node_modules/') && imports.some((imported) => /(^|\/)node_modules\/rhea\//.test(imported.path)),
        )
        .map(([input]) => `${input} imports rhea`),
    ];

    const metafiles = () => readdirSync(bundles.outdir).filter((file) => file.endsWith('.meta.json'));

    it('checks every bundle the build emits', () => {
      expect(metafiles().sort()).toEqual(
        expect.arrayContaining(['edge-agent.meta.json', 'ingest-worker.meta.json', 'main.meta.json', 'ops.meta.json']),
      );
    });

    it.each(['main', 'ingest-worker', 'edge-agent', 'ops', 'costSdk', 'identitySdk', 'tablesSdk', 'emailSdk', 'joseSdk', 'postgresDriver'])(
      '%s.js holds nothing of development/ and no own use of rhea',
      (name) => {
        const metafile = JSON.parse(readFileSync(path.join(bundles.outdir, `${name}.meta.json`), 'utf8')) as Metafile;
        expect(Object.keys(metafile.inputs).length).toBeGreaterThan(0);
        expect(developmentInputs(metafile)).toEqual([]);
      },
    );

    it('would see it: a bundle of the local Event Hubs endpoint is development code that imports rhea', async () => {
      const result = await build({
        entryPoints: [path.join(root, 'development', 'local', 'eventHubs', 'localEventHubs.ts')],
        absWorkingDir: root,
        bundle: true,
        platform: 'node',
        write: false,
        metafile: true,
        logLevel: 'silent',
      });
      expect(developmentInputs(result.metafile)).toEqual(
        expect.arrayContaining([
          'development/local/eventHubs/localEventHubs.ts',
          'development/local/eventHubs/localEventHubs.ts imports rhea',
        ]),
      );
    }, 30_000);

    it('would see it: the local OpenID provider is development code with oidc-provider in it', async () => {
      const result = await build({
        entryPoints: [path.join(root, 'development', 'oidcProvider', 'server.ts')],
        absWorkingDir: root,
        bundle: true,
        platform: 'node',
        format: 'esm',
        write: false,
        metafile: true,
        logLevel: 'silent',
      });
      const found = developmentInputs(result.metafile);
      expect(found).toContain('development/oidcProvider/server.ts');
      expect(found).toContain('node_modules/oidc-provider/lib/index.js');
    }, 30_000);

    it('the local OpenID provider is a development dependency only', () => {
      const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
      expect(manifest['dependencies']).not.toHaveProperty('oidc-provider');
      expect(manifest['devDependencies']).toHaveProperty('oidc-provider');
    });

    it('the project itself needs rhea only for development (the Event Hubs SDK brings its own)', () => {
      const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
      expect(manifest['dependencies']).not.toHaveProperty('rhea');
      expect(manifest['devDependencies']).toHaveProperty('rhea');
    });
  });
});
