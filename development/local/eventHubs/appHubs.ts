import { functionDefinitions } from '../../../functions/definitions';
import type { Settings } from '../../../shared/config/settings';
import { eventHubsReadBy } from '../../devhost/eventHubTriggers';

/**
 * The hubs and consumer groups the local Event Hubs endpoint must serve: those the app's eventHub
 * functions read, plus the groups of the staging worker and the backfill commands
 * (docs/ingest-worker.md). `npm start` and `npm run services` (for `func start`) serve the same.
 */
export function hubsTheAppReads(
  settings: Pick<Settings, 'INGEST_EVENTHUB_NAME' | 'INGEST_EVENTHUB_CONSUMER_GROUP' | 'INGEST_BACKFILL_CONSUMER_GROUP'>,
  setting: (name: string) => string | undefined,
): Record<string, { consumerGroups: string[] }> {
  const served = eventHubsReadBy(functionDefinitions, 'INGEST_EVENTHUB_CONNECTION', setting);
  const ingestGroups = served[settings.INGEST_EVENTHUB_NAME]?.consumerGroups ?? [];
  served[settings.INGEST_EVENTHUB_NAME] = {
    consumerGroups: [...new Set([...ingestGroups, settings.INGEST_EVENTHUB_CONSUMER_GROUP, settings.INGEST_BACKFILL_CONSUMER_GROUP])],
  };
  return served;
}
