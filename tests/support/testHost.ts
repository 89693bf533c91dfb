import { registrations } from '../../functions/registrations';
import { rawSetting } from '../../shared/config/settings';
import { createLogger, type Logger } from '../../shared/log/logger';
import { startDevHost, type DevHost } from '../../development/devhost/host';
import type { FunctionDefinition } from '../../shared/host/definition';

export interface TestHost extends DevHost {
  /** fetch() against the host; JSON bodies are encoded and the content type set. */
  request(method: string, path: string, init?: { headers?: Record<string, string>; json?: unknown; body?: string }): Promise<Response>;
}

/**
 * The local host on a free port, serving the deployed app's registrations over real HTTP (each area
 * loads on its first request, as in Azure, so a file pays only for the areas it calls), with timers
 * off (tests run them through /admin/functions/{name}).
 */
export async function startTestHost(
  definitions: readonly FunctionDefinition[] = registrations,
  options: { functionLog?: (level: string, line: string) => void; log?: Logger } = {},
): Promise<TestHost> {
  const host = await startDevHost(definitions, {
    ...options,
    port: 0,
    log: options.log ?? createLogger({ minLevel: 'error' }),
    setting: rawSetting,
    runTimers: false,
  });
  return {
    ...host,
    request(method, path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      let body = init.body;
      if (init.json !== undefined) {
        body = JSON.stringify(init.json);
        headers['content-type'] ??= 'application/json';
      }
      return fetch(host.url + path, { method, headers, body });
    },
  };
}

export interface TestHostHandle extends TestHost {
  /** The functions' own log lines (`level line`) since the host started, in order. */
  readonly logLines: readonly string[];
}

/**
 * Registers the host's start in a `beforeAll` and its close in an `afterAll` of the surrounding
 * describe block (or file), and answers a handle to it: call it where the set-up used to be, read
 * `url`, `request` and `logLines` inside tests and hooks that run after it. The functions' log
 * lines are collected, not printed; `options.functionLog` still sees each one.
 */
export function useTestHost(
  definitions: readonly FunctionDefinition[] = registrations,
  options: { functionLog?: (level: string, line: string) => void; log?: Logger } = {},
): TestHostHandle {
  let started: TestHost | undefined;
  const logLines: string[] = [];
  beforeAll(async () => {
    logLines.length = 0;
    started = await startTestHost(definitions, {
      ...options,
      functionLog: (level, line) => {
        logLines.push(`${level} ${line}`);
        options.functionLog?.(level, line);
      },
    });
  });
  afterAll(async () => {
    const host = started;
    started = undefined;
    await host?.close();
  });
  const current = (): TestHost => {
    if (!started) throw new Error('the test host runs between the beforeAll and afterAll that useTestHost registers');
    return started;
  };
  return {
    get url() {
      return current().url;
    },
    get functions() {
      return current().functions;
    },
    get eventHubFeeds() {
      return current().eventHubFeeds;
    },
    logLines,
    request: (method, path, init) => current().request(method, path, init),
    close: () => current().close(),
  };
}
