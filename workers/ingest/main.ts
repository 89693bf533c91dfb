import * as coreTracing from '@azure/core-tracing';
import { getIngestWorkerSettings } from '../../shared/config/settings';
import { createLogger } from '../../shared/log/logger';
import { stopOnSignals } from '../../shared/process/signals';
import { exitOnStartupFailure } from '../../shared/process/startupFailure';
import { secretValues, startTelemetry, stopTelemetry } from '../../shared/telemetry/startup';
import { registerAzureSdk } from '../../shared/telemetry/telemetry';
import { runIngestWorkerFromSettings } from './run';

/**
 * The staging ingest worker's production entry, bundled to dist/ingest-worker.js and started
 * with `node ingest-worker.js`; settings from the environment (docs/configuration.md). SIGTERM
 * finishes the batch in hand, checkpoints it, marks the status row stopped and exits 0.
 */
async function main(): Promise<void> {
  const settings = getIngestWorkerSettings();
  const log = createLogger({ minLevel: settings.LOG_LEVEL });
  // Before the worker starts, so its first batches are traced; a long-running process pays the load once.
  const telemetry = await startTelemetry({
    connectionString: settings.APPLICATIONINSIGHTS_CONNECTION_STRING,
    secrets: secretValues(settings),
    serviceName: 'shooting-club-ingest-worker',
    onError: (error) => log.warn('telemetry_start_failed', { error }),
  });
  // The Event Hubs and Tables clients of this bundle report their calls as dependencies.
  registerAzureSdk(coreTracing);
  const running = await runIngestWorkerFromSettings(settings, log);
  console.log(`Ingest worker: ${running.description}${telemetry ? '; telemetry to Application Insights' : ''}`);
  stopOnSignals(() => running.stop(), stopTelemetry);
}

main().catch(exitOnStartupFailure);
