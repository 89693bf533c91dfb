import type { Settings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import { TableCheckpointStore } from '../../shared/ingest/checkpointStore';
import { DEFAULT_CATCH_UP_RULES } from '../../shared/ingest/catchUp';
import { applyOptionsFrom } from '../../shared/ingest/eventRunner';
import { startIngestWorker, workerRunnerIdentity, type IngestWorker } from '../../shared/ingest/worker';
import type { Logger } from '../../shared/log/logger';
import { createTableClient, storageConnection, StorageNotConfiguredError } from '../../shared/storage/tables';

/**
 * Starts the staging ingest worker from settings (docs/ingest-worker.md). Fails fast, naming the
 * missing setting. The worker writes its status row whatever SVC_INGEST_STATUS_ENABLED says: that
 * switch is the production function's.
 */
export async function runIngestWorkerFromSettings(settings: Settings, log: Logger): Promise<{ worker: IngestWorker; description: string }> {
  if (!settings.DATABASE_URL) throw new Error('DATABASE_URL is required: the service database the worker applies to.');
  const connectionString = settings.INGEST_EVENTHUB_CONNECTION;
  if (!connectionString) throw new Error('INGEST_EVENTHUB_CONNECTION is required: the Event Hubs connection string the worker reads.');
  const storage = storageConnection(settings);
  if (!storage) throw new StorageNotConfiguredError();
  const runner = workerRunnerIdentity();
  const apply = { ...applyOptionsFrom(settings, runner), statusEnabled: true };
  const worker = await startIngestWorker({
    sql: getSql(),
    connectionString,
    eventHubName: settings.INGEST_EVENTHUB_NAME,
    consumerGroup: settings.INGEST_EVENTHUB_CONSUMER_GROUP,
    checkpointStore: new TableCheckpointStore(createTableClient(storage, settings.INGEST_CHECKPOINT_TABLE)),
    apply,
    log,
    maxBatchSize: settings.INGEST_WORKER_MAX_BATCH_SIZE,
    maxWaitTimeInSeconds: 5,
    lagSampleIntervalMs: settings.INGEST_WORKER_LAG_SAMPLE_SECONDS * 1000,
    catchUpRules: { ...DEFAULT_CATCH_UP_RULES, windowSize: settings.INGEST_WORKER_LAG_WINDOW },
  });
  const description =
    `${runner.id} reading ${settings.INGEST_EVENTHUB_NAME} (${settings.INGEST_EVENTHUB_CONSUMER_GROUP}), ` +
    `checkpoints in table ${settings.INGEST_CHECKPOINT_TABLE}, lag every ${settings.INGEST_WORKER_LAG_SAMPLE_SECONDS} s`;
  return { worker, description };
}
