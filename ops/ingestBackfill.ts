import { EVENT_HUB_CONNECTION_SETTING_NAMES, INGEST_APPLY_SETTING_NAMES } from '../shared/config/settings';
import { eventHubConnection, EventHubNotConfiguredError } from '../shared/ingest/eventHubConnection';
import { BackfillFailedError, BackfillRefusedError, runBackfill, type BackfillProgress } from '../shared/ingest/backfill';
import { BACKFILL_EXIT, parseBackfillArgs } from '../shared/ingest/backfillArgs';
import { TableCheckpointStore } from '../shared/ingest/checkpointStore';
import { admissionThresholds, retentionFrom } from '../shared/ingest/eventRunner';
import { createTableClient, storageConnection, StorageNotConfiguredError } from '../shared/storage/tables';
import type { CommandEnv, CommandRun } from './command';
import { USAGE } from './usage';
import { openCommandDatabase } from './database';
import { commandSettings } from './settings';

/**
 * `ingest:backfill <clubId>:<recordId> ... [--group=<id>] [--new-group] [--force]` and
 * `ingest:backfill-shooters <clubId> ... [same options]` (docs/ingest-worker.md).
 * Exit codes: 0 done, 1 failed, 2 bad arguments or settings, 3 refused (a quarantine for the scope is open).
 */

/** The app settings the backfill reads: the worker's hub, checkpoints and admission rules, and its own group. */
const BACKFILL_SETTINGS = [
  'AzureWebJobsStorage',
  'AzureWebJobsStorage__accountName',
  'AzureWebJobsStorage__tableServiceUri',
  'AzureWebJobsStorage__credential',
  'AzureWebJobsStorage__clientId',
  'INGEST_EVENTHUB_NAME',
  ...EVENT_HUB_CONNECTION_SETTING_NAMES,
  'INGEST_BACKFILL_CONSUMER_GROUP',
  'INGEST_CHECKPOINT_TABLE',
  ...INGEST_APPLY_SETTING_NAMES,
  'INGEST_WORKER_MAX_BATCH_SIZE',
] as const;

const line = (p: BackfillProgress) =>
  `read ${p.read}, applied ${p.applied}, written ${p.written}, skipped ${p.skipped}, lag left ${p.lagLeft}`;

export const runBackfillRecords: CommandRun = (args, env) => backfill('records', args, env);

export const runBackfillShooters: CommandRun = (args, env) => backfill('shooters', args, env);

async function backfill(kind: 'records' | 'shooters', args: string[], env: CommandEnv): Promise<number> {
  const parsed = parseBackfillArgs(kind, args);
  if (!parsed.ok) {
    console.error(`${parsed.error}\nUsage: ${USAGE[kind === 'records' ? 'ingest:backfill' : 'ingest:backfill-shooters']}`);
    return BACKFILL_EXIT.usage;
  }
  const { selection, fresh, force } = parsed.args;
  const settings = commandSettings(BACKFILL_SETTINGS, env);
  const connection = eventHubConnection(settings);
  if (!connection) throw new EventHubNotConfiguredError('the backfill');
  const storage = storageConnection(settings);
  if (!storage) throw new StorageNotConfiguredError();
  const database = openCommandDatabase(env);
  try {
    const consumerGroup = parsed.args.group ?? settings.INGEST_BACKFILL_CONSUMER_GROUP;
    console.log(
      `Backfill of ${selection.kind === 'shooters' ? `the shooters of club(s) ${selection.clubIds.join(', ')}` : `${selection.records.length} record(s)`} from ${settings.INGEST_EVENTHUB_NAME}, group ${consumerGroup}${fresh ? ' (fresh: from offset 0)' : ''}`,
    );
    const summary = await runBackfill({
      sql: database.sql,
      connection,
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
    await database.close();
  }
}
