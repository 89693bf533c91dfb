import os from 'node:os';
import type { Settings } from '../config/settings';
import type { Sql } from '../db/client';
import type { Logger } from '../log/logger';
import { telemetry, within } from '../telemetry/telemetry';
import { advanceAdmission, type AdmissionThresholds } from './admission';
import { applyIngestBatch, type ApplyOptions, type ApplyOutcome } from './apply';
import type { IncomingMessage } from './contract';
import { readAdmission, recordHeartbeat, recordRunnerError, writeAdmission, type RunnerIdentity } from './statusRepository';

/**
 * The production function's side of the apply core: settings into options, the heartbeat, and
 * recording an infrastructure failure before the retry policy reruns the batch.
 */

/** One status row per app instance: Azure names each instance in WEBSITE_INSTANCE_ID. */
export function eventRunnerIdentity(settings: Pick<Settings, 'WEBSITE_INSTANCE_ID'>): RunnerIdentity {
  return { id: `event:${settings.WEBSITE_INSTANCE_ID ?? os.hostname()}`, kind: 'event' };
}

export function admissionThresholds(
  settings: Pick<
    Settings,
    'INGEST_REJECTING_THRESHOLD' | 'INGEST_QUARANTINE_THRESHOLD' | 'INGEST_REJECT_WINDOW_SECONDS' | 'INGEST_DRIFT_QUIET_SECONDS'
  >,
): AdmissionThresholds {
  return {
    rejectingThreshold: settings.INGEST_REJECTING_THRESHOLD,
    quarantineThreshold: settings.INGEST_QUARANTINE_THRESHOLD,
    windowSeconds: settings.INGEST_REJECT_WINDOW_SECONDS,
    driftQuietSeconds: settings.INGEST_DRIFT_QUIET_SECONDS,
  };
}

/** How long the reject log and the dead-letter record keep their rows. */
export function retentionFrom(
  settings: Pick<
    Settings,
    'INGEST_REJECT_LOG_MAX' | 'INGEST_REJECT_LOG_MAX_AGE_DAYS' | 'INGEST_DEAD_LETTER_MAX' | 'INGEST_DEAD_LETTER_MAX_AGE_DAYS'
  >,
): Pick<ApplyOptions, 'rejectLogMax' | 'rejectLogMaxAgeDays' | 'deadLetters'> {
  return {
    rejectLogMax: settings.INGEST_REJECT_LOG_MAX,
    rejectLogMaxAgeDays: settings.INGEST_REJECT_LOG_MAX_AGE_DAYS,
    deadLetters: { keep: settings.INGEST_DEAD_LETTER_MAX, maxAgeDays: settings.INGEST_DEAD_LETTER_MAX_AGE_DAYS },
  };
}

export function applyOptionsFrom(settings: Settings, runner: RunnerIdentity, now?: () => Date): ApplyOptions {
  return {
    runner,
    statusEnabled: settings.SVC_INGEST_STATUS_ENABLED,
    thresholds: admissionThresholds(settings),
    ...retentionFrom(settings),
    now,
  };
}

/**
 * Applies one delivered batch. Contract rejects are logged as one warning per batch and never
 * throw; an infrastructure failure is noted in the status record (best effort) and rethrown.
 */
export async function runEventBatch(
  sql: Sql,
  messages: readonly IncomingMessage[],
  options: ApplyOptions,
  log: Logger,
): Promise<ApplyOutcome> {
  // One span per batch, for the Functions trigger and the staging worker alike.
  const partitions = [...new Set(messages.map((message) => message.partitionId ?? ''))].join(',');
  const span = telemetry()?.jobSpan('ingest batch', {
    'messaging.system': 'eventhubs',
    'messaging.batch.message_count': messages.length,
    'messaging.destination.partition.id': partitions || undefined,
    'app.ingest.runner': options.runner.kind,
  });
  try {
    const outcome = await within(span, () => applyIngestBatch(sql, messages, options));
    span?.end({
      'app.ingest.applied': outcome.hits + outcome.shooters,
      'app.ingest.rejected': outcome.rejected,
      'app.ingest.dead_lettered': outcome.deadLettered,
      'app.ingest.stale': outcome.stale,
      'app.ingest.admission_state': outcome.admissionState ?? undefined,
    });
    countOutcome(outcome, options.runner.kind);
    if (outcome.rejected) {
      log.warn('ingest_contract_rejects', {
        rejected: outcome.rejected,
        reasons: outcome.rejectReasons,
        admissionState: outcome.admissionState,
      });
    }
    if (outcome.deadLettered) {
      log.warn('ingest_dead_lettered', { deadLettered: outcome.deadLettered, applied: outcome.hits + outcome.shooters });
    }
    return outcome;
  } catch (error) {
    span?.end({}, error);
    if (options.statusEnabled) {
      const message = error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 500) : 'batch failed';
      await recordRunnerError(sql, options.runner, (options.now ?? (() => new Date()))(), message).catch(() => undefined);
    }
    throw error;
  }
}

/** The ingest metrics an operator alerts on: applied per topic, rejected per reason, dead-lettered. */
function countOutcome(outcome: ApplyOutcome, runner: RunnerIdentity['kind']): void {
  const backend = telemetry();
  if (!backend) return;
  if (outcome.hits) backend.count('ingest.events.applied', outcome.hits, { topic: 'hits', runner });
  if (outcome.shooters) backend.count('ingest.events.applied', outcome.shooters, { topic: 'shooters', runner });
  for (const [reason, count] of Object.entries(outcome.rejectReasons)) {
    if (count) backend.count('ingest.events.rejected', count, { reason, runner });
  }
  if (outcome.deadLettered) backend.count('ingest.events.dead_lettered', outcome.deadLettered, { runner });
}

/** The heartbeat timer: proves the app runs and reaches the database, and lets time-based states decay. */
export async function runHeartbeat(sql: Sql, options: ApplyOptions): Promise<{ written: boolean }> {
  if (!options.statusEnabled) return { written: false };
  const now = (options.now ?? (() => new Date()))();
  await sql.begin(async (tx) => {
    await recordHeartbeat(tx, options.runner, now);
    // The timer runs on one instance; it carries the time-based decay of the kind's shared state.
    const previous = await readAdmission(tx, options.runner.kind, true);
    await writeAdmission(tx, options.runner.kind, now, advanceAdmission(previous, [], now, options.thresholds));
  });
  return { written: true };
}
