import type { IngestWorkerSettings } from '../../shared/config/settings';
import { connect } from '../../shared/db/client';
import { DEFAULT_CATCH_UP_RULES } from '../../shared/ingest/catchUp';
import { TableCheckpointStore } from '../../shared/ingest/checkpointStore';
import { admissionThresholds, retentionFrom } from '../../shared/ingest/eventRunner';
import { startIngestWorker, workerRunnerIdentity, type IngestWorker } from '../../shared/ingest/worker';
import type { Logger } from '../../shared/log/logger';
import { eventHubConnection, EventHubNotConfiguredError } from '../../shared/ingest/eventHubConnection';
import { createTableClient, storageConnection, StorageNotConfiguredError } from '../../shared/storage/tables';

export interface RunningIngestWorker {
  worker: IngestWorker;
  description: string;
  /** Stops the worker (batch in hand, checkpoint, status row), then closes its pool. */
  stop(): Promise<void>;
}

/**
 * Starts the staging ingest worker from its settings (docs/ingest-worker.md). Fails fast, naming
 * the missing setting. The worker writes its status row whatever SVC_INGEST_STATUS_ENABLED says:
 * that switch is the production function's. It opens its own pool (the app's getSql() would
 * parse the app's settings, auth included, which a worker without HTTP does not have).
 */
export async function runIngestWorkerFromSettings(settings: IngestWorkerSettings, log: Logger): Promise<RunningIngestWorker> {
  if (!settings.DATABASE_URL) throw new Error('DATABASE_URL is required: the service database the worker applies to.');
  const connection = eventHubConnection(settings);
  if (!connection) throw new EventHubNotConfiguredError('the worker');
  const storage = storageConnection(settings);
  if (!storage) throw new StorageNotConfiguredError();
  const sql = connect({ url: settings.DATABASE_URL, max: settings.DATABASE_POOL_MAX });
  const runner = workerRunnerIdentity();
  try {
    const worker = await startIngestWorker({
      sql,
      connection,
      eventHubName: settings.INGEST_EVENTHUB_NAME,
      consumerGroup: settings.INGEST_EVENTHUB_CONSUMER_GROUP,
      checkpointStore: new TableCheckpointStore(createTableClient(storage, settings.INGEST_CHECKPOINT_TABLE)),
      apply: {
        runner,
        statusEnabled: true,
        thresholds: admissionThresholds(settings),
        ...retentionFrom(settings),
      },
      log,
      maxBatchSize: settings.INGEST_WORKER_MAX_BATCH_SIZE,
      maxWaitTimeInSeconds: 5,
      lagSampleIntervalMs: settings.INGEST_WORKER_LAG_SAMPLE_SECONDS * 1000,
      catchUpRules: { ...DEFAULT_CATCH_UP_RULES, windowSize: settings.INGEST_WORKER_LAG_WINDOW },
    });
    const description =
      `${runner.id} reading ${settings.INGEST_EVENTHUB_NAME} (${settings.INGEST_EVENTHUB_CONSUMER_GROUP}) ${reachedWith(connection)}, ` +
      `checkpoints in table ${settings.INGEST_CHECKPOINT_TABLE} ${reachedWith(storage)}, lag every ${settings.INGEST_WORKER_LAG_SAMPLE_SECONDS} s`;
    return {
      worker,
      description,
      stop: async () => {
        await worker.stop();
        await sql.end({ timeout: 5 });
      },
    };
  } catch (error) {
    await sql.end({ timeout: 5 });
    throw error;
  }
}

/** How a connection authenticates, for the start line (never its secret). */
function reachedWith(connection: { kind: 'connectionString' } | { kind: 'identity'; credential: string; clientId?: string }): string {
  if (connection.kind === 'connectionString') return 'with a connection string';
  const who = connection.credential === 'managedidentity' ? 'managed identity' : 'DefaultAzureCredential';
  return `with ${who}${connection.clientId ? ` ${connection.clientId}` : ''}`;
}
