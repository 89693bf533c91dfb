import { getSettings } from '../shared/config/settings';
import { getSql } from '../shared/db/client';
import { eventHubFunction, timerFunction } from '../shared/host/definition';
import { applyOptionsFrom, eventRunnerIdentity, runEventBatch, runHeartbeat } from '../shared/ingest/eventRunner';
import { messagesFromTrigger } from '../shared/ingest/triggerMessages';

/**
 * The production ingest path (docs/ingest.md): the Event Hubs trigger applying change batches,
 * and the heartbeat proving the app runs and reaches the database. Both hosts (Azure and the
 * local one) get these definitions from functions/definitions.ts.
 */
export const ingestEventFunction = eventHubFunction(
  'ingest',
  {
    eventHubName: '%INGEST_EVENTHUB_NAME%',
    connection: 'INGEST_EVENTHUB_CONNECTION',
    consumerGroup: '%INGEST_EVENTHUB_CONSUMER_GROUP%',
    // retry: RETRY_POLICIES.eventBatch (exponential, 1 s to 5 min, without end): the host holds the checkpoint while it retries.
  },
  async (job, messages, context) => {
    const settings = getSettings();
    const options = applyOptionsFrom(settings, eventRunnerIdentity(settings));
    const outcome = await runEventBatch(getSql(), messagesFromTrigger(messages, context.triggerMetadata), options, job.log);
    return { ...outcome, rejectReasons: undefined, retryCount: context.retryContext?.retryCount };
  },
);

export const ingestHeartbeatFunction = timerFunction('ingestHeartbeat', { schedule: '%INGEST_HEARTBEAT_SCHEDULE%' }, async () => {
  const settings = getSettings();
  return runHeartbeat(getSql(), applyOptionsFrom(settings, eventRunnerIdentity(settings)));
});

export const ingestFunctions = [ingestEventFunction, ingestHeartbeatFunction];
