import { functionDefinitions } from '../../functions/definitions';
import { createLogger, type Logger } from '../../shared/log/logger';
import { startDevHost, type DevHost } from '../../development/devhost/host';
import type { FunctionDefinition } from '../../shared/host/definition';

export interface TestHost extends DevHost {
  /** fetch() against the host; JSON bodies are encoded and the content type set. */
  request(method: string, path: string, init?: { headers?: Record<string, string>; json?: unknown; body?: string }): Promise<Response>;
}

/**
 * The local host on a free port, serving the app's function definitions over real HTTP,
 * with timers off (tests run them through /admin/functions/{name}).
 */
export async function startTestHost(
  definitions: readonly FunctionDefinition[] = functionDefinitions,
  options: { functionLog?: (level: string, line: string) => void; log?: Logger } = {},
): Promise<TestHost> {
  const host = await startDevHost(definitions, {
    ...options,
    port: 0,
    log: options.log ?? createLogger({ minLevel: 'error' }),
    setting: (name) => process.env[name],
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
