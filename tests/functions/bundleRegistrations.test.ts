import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { functionDefinitions } from '../../functions/definitions';
import type { FunctionDefinition } from '../../shared/host/definition';
import { sharedBuild } from '../support/bundles';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

/** What the worker receives for one function (toCoreFunctionMetadata of @azure/functions). */
interface Registration {
  name: string;
  bindings: Record<string, { type: string; direction: string; [option: string]: unknown }>;
  retryOptions?: Record<string, unknown>;
}

const env = (overrides: Record<string, string> = {}) => ({
  PATH: process.env['PATH'] ?? '',
  AUTH_JWT_SECRET: 'x'.repeat(40),
  AUTH_ISSUER: 'local-dev',
  AUTH_AUDIENCE: 'api',
  ...overrides,
});

async function loadBundle(overrides?: Record<string, string>): Promise<Registration[]> {
  const { stdout } = await run(process.execPath, [path.join(__dirname, '../support/loadBundle.js'), bundle], {
    cwd: root,
    env: env(overrides),
  });
  return JSON.parse(stdout) as Registration[];
}

const triggerOf = (registration: Registration) => Object.values(registration.bindings).find((binding) => binding.direction === 'in');

/** The trigger binding a definition should produce, in the worker's terms. */
function expectedTrigger(definition: FunctionDefinition): Record<string, unknown> {
  switch (definition.kind) {
    case 'http':
      return {
        type: 'httpTrigger',
        route: definition.options.route,
        methods: definition.options.methods,
        authLevel: definition.options.authLevel,
      };
    case 'timer':
      return { type: 'timerTrigger', schedule: definition.options.schedule };
    case 'eventHub':
      return {
        type: 'eventHubTrigger',
        eventHubName: definition.options.eventHubName,
        connection: definition.options.connection,
        cardinality: 'many',
        ...(definition.options.consumerGroup ? { consumerGroup: definition.options.consumerGroup } : {}),
      };
  }
}

/** The built bundle, loaded as the Azure worker loads it, registers exactly the definitions list. */
let bundle: string;

describe('dist/main.js registrations', () => {
  let registrations: Registration[];

  beforeAll(async () => {
    // Built for this run, so the test checks the bundle of this very source tree.
    bundle = path.join(await sharedBuild(), 'main.js');
    registrations = await loadBundle();
  }, 120_000);

  it('registers every definition once, in order, by name', () => {
    expect(registrations.map((registration) => registration.name)).toEqual(functionDefinitions.map((definition) => definition.name));
  });

  it.each(functionDefinitions.map((definition) => [definition.name, definition] as const))(
    '%s: trigger kind, route and methods, schedule setting or event hub options, retry policy',
    (name, definition) => {
      const registration = registrations.find((candidate) => candidate.name === name);
      expect(registration && triggerOf(registration)).toMatchObject(expectedTrigger(definition));
      const retry = definition.kind === 'http' ? undefined : definition.options.retry;
      if (retry) expect(registration?.retryOptions).toMatchObject({ retryStrategy: retry.strategy, maxRetryCount: retry.maxRetryCount });
      else expect(registration?.retryOptions).toBeUndefined();
    },
  );

  it('reads timer schedules from app settings (%SETTING%), never a literal the host would not resolve', () => {
    const timers = registrations.map(triggerOf).filter((trigger) => trigger?.type === 'timerTrigger');
    expect(timers.length).toBeGreaterThan(0);
    for (const timer of timers) expect(timer?.['schedule']).toMatch(/^%[A-Z0-9_]+%$/);
  });

  it('fails to load, naming the setting, when a setting is invalid (AUTH_ISSUER=" ")', async () => {
    const failure = await loadBundle({ AUTH_ISSUER: ' ' }).then(
      () => undefined,
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(/AUTH_ISSUER is required/);
    expect(failure?.stderr).not.toContain('x'.repeat(40));
  });
});
