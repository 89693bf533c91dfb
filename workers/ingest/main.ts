import { getIngestWorkerSettings } from '../../shared/config/settings';
import { createLogger } from '../../shared/log/logger';
import { stopOnSignals } from '../../shared/process/signals';
import { runIngestWorkerFromSettings } from './run';

/**
 * The staging ingest worker's production entry, bundled to dist/ingest-worker.js and started
 * with `node ingest-worker.js`; settings from the environment (docs/configuration.md). SIGTERM
 * finishes the batch in hand, checkpoints it, marks the status row stopped and exits 0.
 */
async function main(): Promise<void> {
  const settings = getIngestWorkerSettings();
  const log = createLogger({ minLevel: settings.LOG_LEVEL });
  const running = await runIngestWorkerFromSettings(settings, log);
  console.log(`Ingest worker: ${running.description}`);
  stopOnSignals(() => running.stop());
}

main().catch((error: unknown) => {
  console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
