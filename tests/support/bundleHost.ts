import Module from 'node:module';
import path from 'node:path';
import type { FunctionDefinition } from '../../shared/host/definition';
import { startDevHost } from '../../development/devhost/host';
import { readEventHubTriggerSettings } from '../../development/devhost/hostJson';
import { createLogger } from '../../shared/log/logger';
import { exitOnStartupFailure } from '../../shared/process/startupFailure';

/**
 * The BUILT function app (argv[2], a dist/main.js from `npm run build`) served over HTTP with only
 * the environment this process got: the bundle is loaded as the Functions worker loads it, with a
 * stand-in for the worker's `@azure/functions-core` that keeps each registration and its handler.
 * The local host (development/devhost) then serves the bundle's own handlers on argv[3], leaving out
 * a function whose `AzureWebJobs.<name>.Disabled` setting is true as the Functions host does. Prints
 * `Listening: <url>` and `Functions: <names>` once ready; stops on SIGTERM.
 */
interface Binding {
  type: string;
  direction: string;
  [option: string]: unknown;
}
interface Registration {
  name: string;
  bindings: Record<string, Binding>;
}
type Handler = (...args: unknown[]) => unknown;

const registrations: { metadata: Registration; handler: Handler }[] = [];
const core = {
  setProgrammingModel() {},
  registerHook: () => ({ dispose() {} }),
  log() {},
  registerFunction(metadata: Registration, handler: Handler) {
    registrations.push({ metadata, handler });
    return { dispose() {} };
  },
};
const moduleLoader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const load = moduleLoader._load;
moduleLoader._load = function (request: string, ...rest: unknown[]) {
  return request === '@azure/functions-core' ? core : load.call(this, request, ...rest);
};

function definitionOf({ metadata, handler }: (typeof registrations)[number]): FunctionDefinition {
  const trigger = Object.values(metadata.bindings).find((binding) => binding.direction === 'in');
  const options = { ...trigger, handler } as never;
  switch (trigger?.type) {
    case 'httpTrigger':
      return { kind: 'http', name: metadata.name, options, routes: [] };
    case 'timerTrigger':
      return { kind: 'timer', name: metadata.name, options };
    case 'eventHubTrigger':
      return { kind: 'eventHub', name: metadata.name, options };
    default:
      throw new Error(`${metadata.name}: trigger ${String(trigger?.type)} is not served here`);
  }
}

async function main(): Promise<void> {
  const bundle = path.resolve(process.argv[2] ?? 'dist/main.js');
  // Loaded as the worker loads it (CommonJS require, the stand-in core above in place).
  Module.createRequire(__filename)(bundle);
  const definitions = registrations.map(definitionOf);
  const host = await startDevHost(definitions, {
    // The port is an argument, not PORT: the app's settings are exactly what the caller gave.
    port: Number(process.argv[3] ?? 0),
    log: createLogger({ minLevel: 'warn' }),
    setting: (name) => process.env[name],
    runTimers: false,
    // Event Hubs functions are fed from their hubs, with the connection their settings describe
    // (a connection string, or `<connection>__fullyQualifiedNamespace` and the identity).
    eventHubTriggers: readEventHubTriggerSettings(path.join(__dirname, '..', '..', 'host.json')),
  });
  console.log(`Node.js: ${process.version}`);
  console.log(`Functions: ${host.functions.join(', ')}`);
  console.log(`Listening: ${host.url}`);
  process.once('SIGTERM', () => void host.close().then(() => process.exit(0)));
}

main().catch(exitOnStartupFailure);
