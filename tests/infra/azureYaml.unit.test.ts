import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { root } from './settingsSources';

/**
 * azure.yaml against the infrastructure it names (no azd runs here): the Bicep module and its
 * parameters file, the resources azd deploys each service to (found by the tag
 * azd-service-name), the outputs azd and the hooks read, and the files the services build from.
 */

interface AzureYaml {
  name: string;
  infra: { provider: string; path: string; module: string };
  hooks: Record<string, { shell: string; run: string }>;
  services: Record<
    string,
    {
      project: string;
      language: string;
      host: string;
      dist?: string;
      docker?: { path: string; context: string; buildArgs?: string[] };
      hooks?: Record<string, { shell: string; run: string }>;
    }
  >;
}

const read = (...parts: string[]) => readFileSync(path.join(root, ...parts), 'utf8');
const azure = parse(read('azure.yaml')) as AzureYaml;
const main = read(azure.infra.path, `${azure.infra.module}.bicep`);
const parameters = (
  JSON.parse(read(azure.infra.path, `${azure.infra.module}.parameters.json`)) as { parameters: Record<string, { value: string }> }
).parameters;

/** `param name type [= default]` lines of main.bicep. */
const declared = [...main.matchAll(/^param (\w+) [\w.]+( =)?/gm)].map((match) => ({ name: match[1] ?? '', required: !match[2] }));
const outputs = [...main.matchAll(/^output (\w+) /gm)].map((match) => match[1] ?? '');

describe('azure.yaml', () => {
  it('provisions infra/main.bicep', () => {
    expect(azure.infra).toEqual({ provider: 'bicep', path: 'infra', module: 'main' });
    expect(existsSync(path.join(root, 'infra', 'main.bicep'))).toBe(true);
  });

  it('passes only parameters main.bicep declares, and every one it requires', () => {
    const names = declared.map((param) => param.name);
    expect(Object.keys(parameters).filter((name) => !names.includes(name))).toEqual([]);
    expect(declared.filter((param) => param.required && !(param.name in parameters)).map((param) => param.name)).toEqual([]);
  });

  it("takes the spec's deployment variables and secrets from the azd environment, by their own names", () => {
    const variables = Object.values(parameters).flatMap(({ value }) => [...value.matchAll(/\$\{(\w+)/g)].map((match) => match[1]));
    expect(variables).toEqual(
      expect.arrayContaining([
        'AZURE_ENV_NAME',
        'AZURE_LOCATION',
        'POSTGRES_ADMIN_PASSWORD',
        'INTERNAL_CLOUD_COST_TENANT_ID',
        'INTERNAL_CLOUD_COST_CLIENT_ID',
        'INTERNAL_CLOUD_COST_SUBSCRIPTION_ID',
        'INTERNAL_CLOUD_COST_CLIENT_SECRET',
        'AUTH_TENANT_ID',
        'AUTH_PORTAL_CLIENT_ID',
        'AUTH_APP_CLIENT_ID',
      ]),
    );
    // STAGING_INGEST_* pass through the plan command (preprovision hook), like in the workflow.
    expect(parameters['ingestWorkerEnabled']?.value).toBe('${INGEST_WORKER_ENABLED=false}');
    expect(read('infra', 'azd', 'preprovision.sh')).toContain(
      'node dist/ops.js ingest:worker-plan "${STAGING_INGEST_ENABLED:-}" "${STAGING_INGEST_REPLICAS:-}"',
    );
    // The worker image azd deployed last, so a new provision keeps it.
    expect(parameters['ingestWorkerImage']?.value).toBe('${SERVICE_INGEST_WORKER_IMAGE_NAME=}');
  });

  it('never switches SVC_INGEST_STATUS_ENABLED: a provision keeps what the running app has, only the gate workflow changes it', () => {
    const variables = Object.values(parameters).flatMap(({ value }) => [...value.matchAll(/\$\{(\w+)/g)].map((match) => match[1]));
    expect(variables).not.toContain('SVC_INGEST_STATUS_ENABLED');
    expect(parameters['ingestStatusEnabled']?.value).toBe('${INGEST_STATUS_ENABLED_DEPLOYED=false}');
    const preprovision = read('infra', 'azd', 'preprovision.sh');
    // Read from the running app (the outputs of the last provision name it), as the Infrastructure workflow reads it.
    expect(preprovision).toMatch(
      /az functionapp config appsettings list --name "\$functionAppName" --resource-group "\$AZURE_RESOURCE_GROUP"\s+\\\n\s+--query "\[\?name=='SVC_INGEST_STATUS_ENABLED'\]\.value \| \[0\]"/,
    );
    expect(preprovision).toContain('azd env set INGEST_STATUS_ENABLED_DEPLOYED "$deployed"');
    expect(outputs).toContain('functionAppName');
  });

  it('deploys the function app to the site tagged api, a Flex Consumption function app', () => {
    expect(azure.services['api']).toMatchObject({ host: 'function', language: 'js', project: '.' });
    const functionApp = read('infra', 'modules', 'functionApp.bicep');
    expect(functionApp).toContain("tags: union(tags, { 'azd-service-name': 'api' })");
    expect(functionApp).toMatch(
      /resource site 'Microsoft\.Web\/sites@[^']+' = \{\n\s+name: name\n\s+location: location\n.*\n\s+tags: union\(tags, \{ 'azd-service-name': 'api' \}\)/,
    );
  });

  it('packages the api from the files the workflows zip', () => {
    const api = azure.services['api'];
    expect(api?.dist).toBe('.package/api');
    expect(api?.hooks?.['prepackage']?.run).toBe('node infra/azd/package-app.mjs');
    expect(read('infra', 'azd', 'package-app.mjs')).toContain("path.join(root, '.package', 'api')");
    for (const file of ['deploy-staging.yml', 'deploy-production.yml']) {
      expect(read('.github', 'workflows', file)).toContain("jq -r '.files[]' infra/app-package.json | zip -qr app.zip -@");
    }
  });

  it('deploys the worker image to the container app tagged ingest-worker, built from its bundle', () => {
    const worker = azure.services['ingest-worker'];
    expect(worker).toMatchObject({ host: 'containerapp', docker: { path: 'workers/Dockerfile', context: '.' } });
    expect(existsSync(path.join(root, worker?.docker?.path ?? ''))).toBe(true);
    expect(worker?.docker?.buildArgs).toEqual(['BUNDLE=ingest-worker']);
    expect(read('development', 'build.mjs')).toContain("out: 'ingest-worker'");
    expect(read('infra', 'modules', 'ingestWorker.bicep')).toContain("tags: union(tags, { 'azd-service-name': 'ingest-worker' })");
  });

  it('has the outputs azd and the hooks read', () => {
    // azd: the registry it pushes images to, the group it finds the services in; the hook: the worker's name.
    expect(outputs).toEqual(expect.arrayContaining(['AZURE_CONTAINER_REGISTRY_ENDPOINT', 'AZURE_RESOURCE_GROUP', 'ingestWorkerName']));
    expect(read('infra', 'azd', 'postprovision.sh')).toContain('"$ingestWorkerName"');
  });

  it.each(['preprovision', 'postprovision'])('runs the %s hook, an executable file', (hook) => {
    const file = azure.hooks[hook]?.run ?? '';
    expect(file).toBe(`infra/azd/${hook}.sh`);
    expect(() => accessSync(path.join(root, file), constants.X_OK)).not.toThrow();
  });
});
