import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

// Sees every ESM resolution (the SDKs arrive through import()) and reports it to the main thread.
const RESOLVE_HOOK = `let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  port.postMessage(result.url);
  return result;
}`;

/**
 * Which cost SDKs a fresh process has loaded after running `body` (the body of an async
 * function): CommonJS loads from require.cache, ESM loads from a resolve hook.
 */
function sdkModulesAfter(body: string): string[] {
  const probe = `(async () => {
    const { register } = require('node:module');
    const { MessageChannel } = require('node:worker_threads');
    const { port1, port2 } = new MessageChannel();
    const resolved = [];
    let sentinelSeen;
    const sentinel = new Promise((resolve) => { sentinelSeen = resolve; });
    port1.on('message', (url) => { resolved.push(url); if (url === 'node:os') sentinelSeen(); });
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(RESOLVE_HOOK)}), { data: { port: port2 }, transferList: [port2] });
    ${body}
    // Messages arrive in order: once this import's resolution is reported, all earlier ones are.
    await import('node:os');
    await sentinel;
    port1.close();
    const names = [...Object.keys(require.cache), ...resolved]
      .map((file) => /[\\\\/]@azure[\\\\/](identity|arm-costmanagement|msal-node)[\\\\/]/.exec(file)?.[1])
      .filter(Boolean);
    process.stdout.write(JSON.stringify([...new Set(names)].sort()));
  })();`;
  const output = execFileSync(process.execPath, ['--import', 'tsx', '-e', probe], { cwd: root, encoding: 'utf8' });
  return JSON.parse(output) as string[];
}

describe('cost SDKs load lazily', () => {
  it('importing the cost routes loads none of @azure/identity, @azure/arm-costmanagement and MSAL', () => {
    expect(sdkModulesAfter("require('./functions/costs');")).toEqual([]);
  });

  it('importing every function definition does not load @azure/arm-costmanagement', () => {
    // @azure/identity (with MSAL) arrives through shared/storage/tables.ts, the Table client's credential.
    expect(sdkModulesAfter("require('./functions/definitions');")).not.toContain('arm-costmanagement');
  });

  it('the first provider call loads them (so the check above can fail)', () => {
    const body = `
      const { azureCostProvider } = require('./shared/costs/azureProvider');
      const config = { tenantId: 't', clientId: 'c', clientSecret: 's', subscriptionId: 'x', authUrl: 'https://127.0.0.1:9', apiUrl: 'https://127.0.0.1:9' };
      await azureCostProvider(config).usage({ from: '2026-11-01', to: '2026-11-01' }).catch(() => undefined);`;
    expect(sdkModulesAfter(body)).toEqual(expect.arrayContaining(['arm-costmanagement', 'identity']));
  });
});
