import { parseSomeSettings, type Settings } from '../../shared/config/settings';
import { costProviderConfig } from '../../shared/costs/config';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bicepParamFile, environments, environmentSettings, infraSettings, mainBicep, root } from './settingsSources';

/**
 * The four cost settings are the spec's deployment variables and secret: infra/env/*.bicepparam
 * reads them from the workflow's environment, main.bicep hands them to the function app as
 * `deploy:` values, and functionApp.bicep leaves an empty one out. Resolved here as that chain
 * describes it (no Bicep compiler runs here), then read by the app's own cost configuration.
 */

const COST_SETTINGS = [
  'INTERNAL_CLOUD_COST_TENANT_ID',
  'INTERNAL_CLOUD_COST_CLIENT_ID',
  'INTERNAL_CLOUD_COST_CLIENT_SECRET',
  'INTERNAL_CLOUD_COST_SUBSCRIPTION_ID',
  'INTERNAL_CLOUD_COST_AUTH_URL',
  'INTERNAL_CLOUD_COST_API_URL',
] as const;

/** `param <name> = readEnvironmentVariable('<VARIABLE>', '')` of the environment's parameter file. */
function parameterVariables(environment: string): Map<string, string> {
  const file = bicepParamFile(environment);
  return new Map([...file.matchAll(/^param (\w+) = readEnvironmentVariable\('(\w+)', ''\)$/gm)].map((m) => [m[1] ?? '', m[2] ?? '']));
}

/** `NAME: expression` lines of `var deploymentSettingValues = { ... }` in main.bicep. */
function deploymentSettingExpressions(): Map<string, string> {
  const block = /var deploymentSettingValues = \{([\s\S]*?)\n\}/.exec(mainBicep())?.[1] ?? '';
  return new Map([...block.matchAll(/^\s*(\w+): (.+)$/gm)].map((m) => [m[1] ?? '', (m[2] ?? '').trim()]));
}

/** The app settings the function app of `environment` gets for the cost reader, given the workflow's variables. */
function costAppSettings(environment: string, variables: Record<string, string>): Record<string, string> {
  const params = parameterVariables(environment);
  const paramValue = (param: string) => variables[params.get(param) ?? ''] ?? '';
  const expressions = deploymentSettingExpressions();
  const { app } = infraSettings();
  const settings: Record<string, string> = {};
  for (const [name, source] of Object.entries(app)) {
    if (!name.startsWith('INTERNAL_CLOUD_COST_')) continue;
    if (!source.startsWith('deploy:')) {
      if (!/^(secret|env|resource):/.test(source)) settings[name] = source;
      else
        settings[name] = source.startsWith('env:')
          ? (environmentSettings(environment)[source.slice(4)] ?? '')
          : `${source} of this deployment`;
      continue;
    }
    const expression = expressions.get(source.slice('deploy:'.length)) ?? '';
    const guarded = /^empty\((\w+)\) \? '' : '@Microsoft\.KeyVault\(.*SecretName=([\w-]+)\)'$/.exec(expression);
    const value = guarded ? (paramValue(guarded[1] ?? '') ? `@Microsoft.KeyVault(SecretName=${guarded[2]})` : '') : paramValue(expression);
    if (value !== '') settings[name] = value;
  }
  return settings;
}

const configured = (settings: Record<string, string>) =>
  costProviderConfig(parseSomeSettings(COST_SETTINGS, settings) as Settings) !== undefined;

const all = {
  INTERNAL_CLOUD_COST_TENANT_ID: '11111111-1111-1111-1111-111111111111',
  INTERNAL_CLOUD_COST_CLIENT_ID: '22222222-2222-2222-2222-222222222222',
  INTERNAL_CLOUD_COST_SUBSCRIPTION_ID: '33333333-3333-3333-3333-333333333333',
  INTERNAL_CLOUD_COST_CLIENT_SECRET: 'a-client-secret',
};

describe.each(environments)('cost settings of %s come from the deployment variables', (environment) => {
  it('is not configured when the deployment sets none of them: no app setting at all', () => {
    const settings = costAppSettings(environment, {});
    expect(Object.keys(settings).filter((name) => !name.endsWith('_URL'))).toEqual([]);
    expect(configured(settings)).toBe(false);
  });

  it.each(Object.keys(all))('is not configured when only %s is missing', (missing) => {
    const variables: Record<string, string> = { ...all };
    delete variables[missing];
    const settings = costAppSettings(environment, variables);
    expect(settings).not.toHaveProperty(missing);
    expect(configured(settings)).toBe(false);
  });

  it('passes the values through when all four are set, the secret as a Key Vault reference', () => {
    const settings = costAppSettings(environment, all);
    expect(settings).toMatchObject({
      INTERNAL_CLOUD_COST_TENANT_ID: all.INTERNAL_CLOUD_COST_TENANT_ID,
      INTERNAL_CLOUD_COST_CLIENT_ID: all.INTERNAL_CLOUD_COST_CLIENT_ID,
      // The subscription queried, not the one deployed to.
      INTERNAL_CLOUD_COST_SUBSCRIPTION_ID: all.INTERNAL_CLOUD_COST_SUBSCRIPTION_ID,
      INTERNAL_CLOUD_COST_CLIENT_SECRET: '@Microsoft.KeyVault(SecretName=cost-client-secret)',
    });
    expect(configured(settings)).toBe(true);
  });
});

it('has the Infrastructure workflow hand every cost variable and the secret to the parameter files', () => {
  for (const environment of environments) {
    expect([...parameterVariables(environment).values()]).toEqual(expect.arrayContaining(Object.keys(all)));
  }
  const workflow = readFileSync(path.join(root, '.github', 'workflows', 'infra.yml'), 'utf8');
  for (const name of Object.keys(all)) {
    const kind = name.endsWith('_SECRET') ? 'secrets' : 'vars';
    // Both the what-if and the deploy step.
    expect([name, workflow.split(`${name}: \${{ ${kind}.${name} }}`).length - 1]).toEqual([name, 2]);
  }
});
