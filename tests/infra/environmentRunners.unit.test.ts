import { ingestEventFunction, ingestHeartbeatFunction } from '../../functions/ingest';
import { parseIngestWorkerSettings, parseSomeSettings, type Settings } from '../../shared/config/settings';
import { ingestHealthSource } from '../../shared/ingest/healthSource';
import { eventHubConnection } from '../../shared/ingest/eventHubConnection';
import { storageConnection } from '../../shared/storage/tables';
import { bicepParamFile, environmentSettings, environments, infraSettings, mainBicep, root } from './settingsSources';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What infra hands each ingest runner, read from the files it deploys (no Bicep compiler runs
 * here): the function app's settings as functionApp.bicep resolves app-settings.json, and the
 * worker container's env block.
 */

const readInfra = (file: string) => readFileSync(path.join(root, 'infra', file), 'utf8');

/** The function app's literal and env: settings of one environment, as functionApp.bicep writes them. */
function functionAppSettings(environment: string): Record<string, string> {
  const { app, platform } = infraSettings();
  const values = environmentSettings(environment);
  const resolved: Record<string, string> = {};
  for (const [name, source] of Object.entries({ ...app, ...platform })) {
    if (source.startsWith('secret:') || source.startsWith('resource:')) continue;
    const value = source.startsWith('env:') ? values[source.slice('env:'.length)] : source;
    if (value !== undefined) resolved[name] = value;
  }
  return resolved;
}

/** `{ name: 'X', value: ... }` / `{ name: 'X', secretRef: ... }` entries of the worker container's env block. */
function workerEnvBlock(): { name: string; value?: string; secretRef?: string }[] {
  const bicep = readInfra('modules/ingestWorker.bicep');
  const env = /env: \[([\s\S]*?)\n\s*\]/.exec(bicep)?.[1] ?? '';
  return [...env.matchAll(/\{ name: '([^']+)', (value|secretRef): ([^}]+?) \}/g)].map((match) => ({
    name: match[1] ?? '',
    [match[2] ?? '']: (match[3] ?? '').trim(),
  }));
}

/** The worker's environment with secrets and deployment-produced values replaced by stand-ins. */
function workerEnvironment(): Record<string, string> {
  const standIns: Record<string, string> = {
    'database-url': 'postgres://worker@db.example.net:5432/shooting_club',
    'appinsights-connection':
      'InstrumentationKey=00000000-0000-0000-0000-000000000000;IngestionEndpoint=https://westeurope-5.in.applicationinsights.azure.com/',
  };
  const env: Record<string, string> = {};
  for (const entry of workerEnvBlock()) {
    if (entry.secretRef !== undefined) env[entry.name] = standIns[entry.secretRef.replace(/'/g, '')] ?? 'secret';
    else if (entry.value?.startsWith("'")) env[entry.name] = entry.value.slice(1, -1);
    else env[entry.name] = `${entry.value ?? ''}-of-this-deployment`;
  }
  return env;
}

const disabledSetting = `AzureWebJobs.${ingestEventFunction.name}.Disabled`;
const heartbeatDisabled = `AzureWebJobs.${ingestHeartbeatFunction.name}.Disabled`;

describe('exactly one ingest runner per environment', () => {
  it('switches the ingest function and its heartbeat off on staging, where the dedicated worker ingests', () => {
    expect(functionAppSettings('staging')[disabledSetting]).toBe('true');
    // The heartbeat writes a runner status of the function: where the worker runs, it would speak for it.
    expect(functionAppSettings('staging')[heartbeatDisabled]).toBe('true');
  });

  it('leaves the ingest function and its heartbeat on in production, where no worker runs', () => {
    expect(functionAppSettings('production')[disabledSetting]).toBe('false');
    expect(functionAppSettings('production')[heartbeatDisabled]).toBe('false');
    expect(bicepParamFile('production')).toMatch(/^param ingestWorkerEnabled = false$/m);
  });

  it.each([
    ['staging', 'worker', { statusEnabled: true, runnerKind: 'worker' }],
    ['production', 'function', { statusEnabled: false, runnerKind: 'event' }],
  ] as const)('has health read the runner that runs on %s (%s), whatever the switch is on staging', (environment, runner, source) => {
    const settings = functionAppSettings(environment);
    expect(settings['INGEST_RUNNER']).toBe(runner);
    expect(settings[disabledSetting]).toBe(String(runner === 'worker'));
    // SVC_INGEST_STATUS_ENABLED as a default deploy leaves it: off.
    expect(ingestHealthSource(parseSomeSettings(['INGEST_RUNNER', 'SVC_INGEST_STATUS_ENABLED'], settings) as Settings)).toEqual(source);
  });

  it('runs the worker on staging only as STAGING_INGEST_ENABLED says', () => {
    expect(bicepParamFile('staging')).toMatch(
      /^param ingestWorkerEnabled = bool\(readEnvironmentVariable\('INGEST_WORKER_ENABLED', 'false'\)\)$/m,
    );
    expect(mainBicep()).toMatch(/^var stagingWorker = environmentName == 'staging'$/m);
    expect(mainBicep()).toMatch(/^module ingestWorker 'modules\/ingestWorker\.bicep' = if \(stagingWorker && ingestWorkerEnabled\) \{$/m);
  });

  it.each(environments)('names the functions as the host registers them (%s)', (environment) => {
    const names = Object.keys(functionAppSettings(environment)).filter((name) => /^AzureWebJobs\..+\.Disabled$/.test(name));
    expect(names.sort()).toEqual([disabledSetting, heartbeatDisabled].sort());
  });
});

describe('the staging worker container as infra starts it', () => {
  it('has every setting the worker needs to start, storage included', () => {
    const settings = parseIngestWorkerSettings(workerEnvironment());
    expect(settings.DATABASE_URL).toMatch(/^postgres:/);
    // Event Hubs and storage through the worker's own identity: no key in the container.
    expect(eventHubConnection(settings)).toEqual({
      kind: 'identity',
      fullyQualifiedNamespace: 'eventHubsNamespaceHost-of-this-deployment',
      credential: 'managedidentity',
      clientId: 'identityClientId-of-this-deployment',
    });
    expect(storageConnection(settings)).toEqual({
      kind: 'identity',
      tableServiceUri: 'https://storageAccountName-of-this-deployment.table.core.windows.net',
      credential: 'managedidentity',
      clientId: 'identityClientId-of-this-deployment',
    });
  });

  it('reaches its checkpoint table with its own identity, which storage.bicep lets write tables', () => {
    const storage = readInfra('modules/storage.bicep');
    expect(storage).toMatch(/principalId: workerPrincipalId/);
    expect(storage).toContain("'0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3'"); // Storage Table Data Contributor
    expect(mainBicep()).toMatch(/workerPrincipalId: stagingWorker \? identities\.outputs\.workerPrincipalId : ''/);
    expect(Object.keys(workerEnvironment())).not.toContain('AzureWebJobsStorage');
    expect(Object.keys(workerEnvironment())).not.toContain('INGEST_EVENTHUB_CONNECTION');
  });

  it('reads the hub and pulls its image with that identity', () => {
    expect(readInfra('modules/eventHubs.bicep')).toContain("'a638d3c7-ab3a-418d-83e6-5f17a39d4fde'"); // Azure Event Hubs Data Receiver
    expect(mainBicep()).toMatch(
      /readerPrincipalIds: stagingWorker\s+\? \[identities\.outputs\.functionPrincipalId, identities\.outputs\.workerPrincipalId\]/,
    );
    expect(readInfra('modules/registry.bicep')).toContain("'7f951dda-4ed3-4680-a7ca-43fe172d538d'"); // AcrPull
    expect(readInfra('modules/ingestWorker.bicep')).toContain('registries: [{ server: registryServer, identity: identityId }]');
  });

  it('reads the env block it checks, so a pass means something', () => {
    expect(workerEnvBlock().map((entry) => entry.name)).toEqual(
      expect.arrayContaining([
        'DATABASE_URL',
        'INGEST_EVENTHUB_CONNECTION__fullyQualifiedNamespace',
        'INGEST_EVENTHUB_NAME',
        'INGEST_EVENTHUB_CONSUMER_GROUP',
      ]),
    );
  });
});
