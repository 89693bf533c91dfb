import { readFileSync } from 'node:fs';
import path from 'node:path';
import { environmentSettings, infraSettings, root } from './settingsSources';

/**
 * The environment each deployed process gets, resolved from what infra and the workflows hand it
 * (no Bicep compiler runs here): the function app's settings as modules/functionApp.bicep builds
 * them from app-settings.json, the worker container's env block in modules/ingestWorker.bicep, a
 * workflow step's `env:`, the box's edge/.env.sample. Only secrets and endpoints come from the
 * caller (`Locals`): everything else is exactly what a deployment writes.
 */

const read = (...parts: string[]) => readFileSync(path.join(root, ...parts), 'utf8');

export interface Locals {
  /** Key Vault secrets by name (database-url, paging-cursor-key). */
  secrets: Record<string, string>;
  /** Values a deployment produces (resourceSettingValues in main.bicep, module outputs). */
  resources: Record<string, string>;
  /** Deployment variables and secrets (`deploy:`): absent ones are left out, as functionApp.bicep does for empty ones. */
  deployment: Record<string, string>;
}

/**
 * What a deployment produces for the function app (resourceSettingValues in main.bicep, module
 * outputs), as a production-like deployment would: a test names only the values it points at its
 * own fakes or checks.
 */
export function deployedResources(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    appInsightsConnectionString: 'InstrumentationKey=00000000-0000-0000-0000-000000000000',
    ingestStatusEnabled: 'false',
    eventHubName: 'club-data',
    functionConsumerGroup: 'function',
    eventHubsNamespaceHost: 'evhns.servicebus.windows.net',
    storageAccountName: 'stscb',
    functionIdentityClientId: '6f1e0c55-0000-4000-8000-00000000f0f0',
    emailEndpoint: 'https://acs-scb.europe.communication.azure.com',
    emailSenderAddress: 'DoNotReply@0f1e2d3c.azurecomm.net',
    notificationHubName: 'ntf-scb',
    publicBaseUrl: 'https://func-scb.azurewebsites.net',
    webPushSubject: 'https://func-scb.azurewebsites.net',
    costsMonthlyBudget: '600',
    ...overrides,
  };
}

const ENTRA = 'https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47';
/** The sign-in variables a deployment refuses to go without: a Microsoft Entra tenant and the two front ends' client ids. */
export const ENTRA_SIGN_IN: Record<string, string> = {
  AUTH_ISSUER: `${ENTRA}/v2.0`,
  AUTH_JWKS_URL: `${ENTRA}/discovery/v2.0/keys`,
  AUTH_OIDC_AUTHORITY: `${ENTRA}/v2.0`,
  AUTH_PORTAL_CLIENT_ID: '4a1aa1d5-c567-49d0-ad0b-cd957a47f842',
  AUTH_APP_CLIENT_ID: '9b2c6e1f-3d4a-4b5c-8d7e-0f1a2b3c4d5e',
};

/** The function app's app settings in one environment, as functionApp.bicep writes them. */
export function functionAppEnvironment(environment: string, locals: Locals): Record<string, string> {
  const { app, platform } = infraSettings();
  const values = environmentSettings(environment);
  const resolved: Record<string, string> = {};
  for (const [name, source] of Object.entries({ ...app, ...platform })) {
    const [kind, key = ''] = source.includes(':') ? [source.slice(0, source.indexOf(':')), source.slice(source.indexOf(':') + 1)] : [];
    let value: string | undefined;
    if (kind === 'env') value = values[key];
    else if (kind === 'secret') value = required(locals.secrets, key, `secret ${key}`);
    else if (kind === 'resource') value = required(locals.resources, key, `resource ${key}`);
    else if (kind === 'deploy') value = locals.deployment[key] || undefined;
    else value = source;
    if (value !== undefined) resolved[name] = value;
  }
  return resolved;
}

/** `{ name: 'X', value: ... }` / `{ name: 'X', secretRef: ... }` entries of the worker container's env block. */
export function workerEnvBlock(): { name: string; value?: string; secretRef?: string }[] {
  const bicep = read('infra', 'modules', 'ingestWorker.bicep');
  const env = /env: \[([\s\S]*?)\n\s*\]/.exec(bicep)?.[1] ?? '';
  return [...env.matchAll(/\{ name: '([^']+)', (value|secretRef): ([^}]+?) \}/g)].map((match) => ({
    name: match[1] ?? '',
    [match[2] ?? '']: (match[3] ?? '').trim(),
  }));
}

/**
 * The worker container's environment: literals as written; a `secretRef` from `locals.secrets`; a
 * module parameter from `params` (what main.bicep passes it: resolve it in the caller from the
 * same deployment outputs the function app gets).
 */
export function workerEnvironment(secrets: Record<string, string>, params: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of workerEnvBlock()) {
    if (entry.secretRef !== undefined) env[entry.name] = required(secrets, entry.secretRef.replace(/'/g, ''), `secret ${entry.secretRef}`);
    else if (entry.value?.startsWith("'")) env[entry.name] = entry.value.slice(1, -1);
    else env[entry.name] = required(params, entry.value ?? '', `parameter ${entry.value ?? ''} of ingestWorker.bicep`);
  }
  return env;
}

/** The names a workflow step sets in its `env:` block, with their expressions. */
export function stepEnvironment(workflowFile: string, stepName: string): Record<string, string> {
  const source = read('.github', 'workflows', workflowFile);
  const start = source.indexOf(`- name: ${stepName}`);
  if (start === -1) throw new Error(`${workflowFile}: no step "${stepName}"`);
  const step = source.slice(start, source.indexOf('\n      - ', start + 1) === -1 ? undefined : source.indexOf('\n      - ', start + 1));
  const block = /\n\s+env:\n((?:\s{10}\S.*\n?)+)/.exec(step)?.[1] ?? '';
  return Object.fromEntries(
    [...block.matchAll(/^\s+([A-Za-z_][A-Za-z0-9_]*): (.+)$/gm)].map((match) => [match[1] ?? '', (match[2] ?? '').trim()]),
  );
}

/** The settings of edge/.env.sample (the box's template), empty ones included. */
export function boxSampleEnvironment(): Record<string, string> {
  return Object.fromEntries(
    [...read('edge', '.env.sample').matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((match) => [match[1] ?? '', (match[2] ?? '').trim()]),
  );
}

/** The hub and the consumer groups eventHubs.bicep creates. */
export function eventHubsModule(): { hubName: string; consumerGroups: string[] } {
  const bicep = read('infra', 'modules', 'eventHubs.bicep');
  return {
    hubName: /^var hubName = '([^']+)'$/m.exec(bicep)?.[1] ?? '',
    consumerGroups: [...(/^var consumerGroupNames = \[([^\]]*)\]$/m.exec(bicep)?.[1] ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1] ?? ''),
  };
}

function required(values: Record<string, string>, key: string, what: string): string {
  const value = values[key];
  if (value === undefined) throw new Error(`${what} has no local equivalent in the contract test`);
  return value;
}
