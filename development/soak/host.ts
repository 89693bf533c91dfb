import { functionDefinitions } from '../../functions/definitions';
import { serveMeasuredHost } from '../local/measuredHost';

/**
 * The local host as a child process of `npm run soak`, so its memory is measured apart from the
 * traffic generator and each phase starts with its own settings (pools, per-box limit). Settings
 * come from the environment the parent passes. Talks to the parent over IPC: sends
 * `{ url }` once listening, answers `memory` with process.memoryUsage() after a full garbage
 * collection (the parent starts it with --expose-gc), so heap figures are live data and comparable
 * between the start and the end of a phase; stops on `stop`.
 */
serveMeasuredHost(
  'soak host',
  functionDefinitions,
  { maxEventBatchSize: 100, maxWaitTimeInSeconds: 1 },
  {
    memory: () => {
      globalThis.gc?.();
      return process.memoryUsage();
    },
  },
);
