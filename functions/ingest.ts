import { getSettings } from '../shared/config/settings';
import { getSql } from '../shared/db/client';
import { notifyQuarantineToPlatformAdmins } from '../shared/ingest/quarantineNotice';
import { defineEventHub, defineTimer } from '../shared/host/definition';
import { declared } from './declarations';
import { applyOptionsFrom, eventRunnerIdentity, runEventBatch, runHeartbeat } from '../shared/ingest/eventRunner';
import { readAdmission } from '../shared/ingest/statusRepository';
import type { RunnerIdentity } from '../shared/ingest/statusRepository';
import { messagesFromTrigger } from '../shared/ingest/triggerMessages';
import type { Logger } from '../shared/log/logger';

/**
 * The production ingest path (docs/ingest.md): the Event Hubs trigger applying change batches,
 * and the heartbeat proving the app runs and reaches the database. Both hosts (Azure and the
 * local one) get these definitions from functions/definitions.ts.
 */
export const ingestEventFunction = defineEventHub(declared.ingest, async (job, messages, context) => {
  const settings = getSettings();
  const options = applyOptionsFrom(settings, eventRunnerIdentity(settings));
  const outcome = await runEventBatch(getSql(), messagesFromTrigger(messages, context.triggerMetadata), options, job.log);
  if (outcome.admissionState === 'quarantined') await announceQuarantine(options.runner.kind, job.log);
  return { ...outcome, rejectReasons: undefined, retryCount: context.retryContext?.retryCount };
});

/**
 * Tells the platform admins of a quarantine (once per quarantine: the notice is claimed by its
 * context). The batch is already committed, so a failed notice is logged, not rethrown: a retry
 * would apply nothing and only repeat the attempt.
 */
async function announceQuarantine(kind: RunnerIdentity['kind'], log: Logger): Promise<void> {
  try {
    const { quarantine } = await readAdmission(getSql(), kind, false);
    if (!quarantine) return;
    const notified = await notifyQuarantineToPlatformAdmins(getSql(), {
      quarantineSince: new Date(quarantine.since),
      quarantineTopic: quarantine.topic ?? '',
      quarantineClubId: quarantine.clubId,
      quarantineEntity: quarantine.entity,
      quarantineReason: quarantine.reason,
      quarantineDetail: quarantine.detail,
    });
    if (notified) log.info('ingest_quarantine_announced', { notified, topic: quarantine.topic, entity: quarantine.entity });
  } catch (error) {
    log.warn('ingest_quarantine_notice_failed', { error });
  }
}

export const ingestHeartbeatFunction = defineTimer(declared.ingestHeartbeat, async () => {
  const settings = getSettings();
  return runHeartbeat(getSql(), applyOptionsFrom(settings, eventRunnerIdentity(settings)));
});

export const ingestFunctions = [ingestEventFunction, ingestHeartbeatFunction];
