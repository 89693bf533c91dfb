import { getSettings } from '../../shared/config/settings';
import { closeSql, getSql } from '../../shared/db/client';
import { BackfillFailedError, BackfillRefusedError, runBackfill, type BackfillProgress } from '../../shared/ingest/backfill';
import { BACKFILL_EXIT, parseBackfillArgs } from '../../shared/ingest/backfillArgs';
import { TableCheckpointStore } from '../../shared/ingest/checkpointStore';
import { admissionThresholds, retentionFrom } from '../../shared/ingest/eventRunner';
import { createTableClient, storageConnection, StorageNotConfiguredError } from '../../shared/storage/tables';
import { effectiveConnectionString } from '../local/eventHubs/developmentHub';
import { prepareLocalEnvironment } from '../local/environment';

/**
 * `npm run ingest:backfill -- <clubId>:<recordId> ... [--group=<id>] [--new-group] [--force]` and
 * `npm run ingest:backfill-shooters -- <clubId> ... [same options]` (docs/ingest-worker.md).
 * Exit codes: 0 done, 1 failed, 2 bad arguments, 3 refused (a quarantine for the scope is open).
 */
const USAGE = {
  records: 'npm run ingest:backfill -- <clubId>:<recordId> ... [--group=<id>] [--new-group] [--force]',
  shooters: 'npm run ingest:backfill-shooters -- <clubId> ... [--group=<id>] [--new-group] [--force]',
};

const line = (p: BackfillProgress) =>
  `read ${p.read}, applied ${p.applied}, written ${p.written}, skipped ${p.skipped}, lag left ${p.lagLeft}`;

async function main(): Promise<number> {
  const kind = process.argv[2] === 'shooters' ? 'shooters' : 'records';
  const parsed = parseBackfillArgs(kind, process.argv.slice(3));
  if (!parsed.ok) {
    console.error(`${parsed.error}\nUsage: ${USAGE[kind]}`);
    return BACKFILL_EXIT.usage;
  }
  const { selection, fresh, force } = parsed.args;
  // An identity-based storage connection (a cloud container) must not be replaced by the local
  // settings' Azurite default.
  const identityStorage =
    !process.env['AzureWebJobsStorage'] &&
    Boolean(process.env['AzureWebJobsStorage__accountName'] || process.env['AzureWebJobsStorage__tableServiceUri']);
  if (identityStorage) process.env['AzureWebJobsStorage'] = '';
  const environment = await prepareLocalEnvironment({ storage: !identityStorage });
  try {
    const settings = getSettings();
    const connectionString = effectiveConnectionString(settings.INGEST_EVENTHUB_CONNECTION);
    if (!connectionString) throw new Error('INGEST_EVENTHUB_CONNECTION is not set');
    const storage = storageConnection(settings);
    if (!storage) throw new StorageNotConfiguredError();
    const consumerGroup = parsed.args.group ?? settings.INGEST_BACKFILL_CONSUMER_GROUP;
    console.log(
      `Backfill of ${selection.kind === 'shooters' ? `the shooters of club(s) ${selection.clubIds.join(', ')}` : `${selection.records.length} record(s)`} from ${settings.INGEST_EVENTHUB_NAME}, group ${consumerGroup}${fresh ? ' (fresh: from offset 0)' : ''}`,
    );
    const summary = await runBackfill({
      sql: getSql(),
      connectionString,
      eventHubName: settings.INGEST_EVENTHUB_NAME,
      consumerGroup,
      fresh,
      force,
      checkpointStore: new TableCheckpointStore(createTableClient(storage, settings.INGEST_CHECKPOINT_TABLE)),
      selection,
      apply: { thresholds: admissionThresholds(settings), ...retentionFrom(settings) },
      maxBatchSize: settings.INGEST_WORKER_MAX_BATCH_SIZE,
      progressIntervalMs: 2000,
      onProgress: (progress) => console.log(`  ${line(progress)}`),
    });
    if (summary.forcedPast)
      console.log(
        `Forced past the open quarantine of ${summary.forcedPast.topic ?? 'an unknown topic'} (since ${summary.forcedPast.since}).`,
      );
    console.log(`Done in ${(summary.durationMs / 1000).toFixed(1)} s over ${summary.partitions} partition(s): ${line(summary)}`);
    return BACKFILL_EXIT.done;
  } catch (error) {
    if (error instanceof BackfillRefusedError) {
      console.error(`Refused: ${error.message}`);
      return BACKFILL_EXIT.refused;
    }
    if (error instanceof BackfillFailedError) console.error(`Failed after ${line(error.progress)}: ${error.message}`);
    else console.error(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    return BACKFILL_EXIT.failed;
  } finally {
    await closeSql();
    await environment.release();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(BACKFILL_EXIT.failed);
  },
);
