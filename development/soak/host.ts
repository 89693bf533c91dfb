import { functionDefinitions } from '../../functions/definitions';
import { closeSql } from '../../shared/db/client';
import { createLogger } from '../../shared/log/logger';
import { startDevHost } from '../devhost/host';

/**
 * The local host as a child process of `npm run soak`, so its memory is measured apart from the
 * traffic generator and each phase starts with its own settings (pools, per-box limit). Settings
 * come from the environment the parent passes. Talks to the parent over IPC: sends
 * `{ url }` once listening, answers `memory` with process.memoryUsage() after a full garbage
 * collection (the parent starts it with --expose-gc), so heap figures are live data and comparable
 * between the start and the end of a phase; stops on `stop`.
 */
async function main(): Promise<void> {
  const host = await startDevHost(functionDefinitions, {
    port: 0,
    log: createLogger({ minLevel: 'error' }),
    functionLog: (level, line) => {
      if (level === 'error') process.stderr.write(line + '\n');
    },
    setting: (name) => process.env[name],
    runTimers: false,
    eventHubTriggers: { maxEventBatchSize: 100, maxWaitTimeInSeconds: 1 },
  });
  process.on('message', (message: unknown) => {
    if (message === 'memory') {
      globalThis.gc?.();
      process.send?.({ memory: process.memoryUsage() });
    }
    if (message === 'stop') {
      void host
        .close()
        .then(() => closeSql())
        .finally(() => process.exit(0));
    }
  });
  process.send?.({ url: host.url });
}

main().catch((error: unknown) => {
  process.stderr.write(`soak host failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
