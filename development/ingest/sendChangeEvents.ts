import type { EventHubProducerClient } from '@azure/event-hubs';
import { toEventData, type ChangeEvent } from './debeziumEvents';

/**
 * Sends change events in order, each topic with its topic as partition key so one club's
 * entity stream stays in one partition and in order (as the connector's keyed Kafka messages do).
 * Returns how many events went to each partition key.
 */
export async function sendChangeEvents(
  producer: EventHubProducerClient,
  events: readonly ChangeEvent[],
  options: { headersAsBytes?: boolean } = {},
): Promise<Map<string, number>> {
  const sent = new Map<string, number>();
  let index = 0;
  while (index < events.length) {
    const partitionKey = events[index]!.topic;
    const batch = await producer.createBatch({ partitionKey });
    // A batch holds consecutive events of one topic, so the order across topics is kept too.
    while (index < events.length && events[index]!.topic === partitionKey && batch.tryAdd(toEventData(events[index]!, options))) index += 1;
    if (batch.count === 0) throw new Error(`Event ${index} is larger than a batch may be`);
    await producer.sendBatch(batch);
    sent.set(partitionKey, (sent.get(partitionKey) ?? 0) + batch.count);
  }
  return sent;
}
