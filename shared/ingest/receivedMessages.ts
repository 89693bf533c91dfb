import type { ReceivedEventData } from '@azure/event-hubs';
import type { IncomingMessage } from './contract';

/**
 * Events as the SDK hands them to a subscription (`skipParsingBodyAsJson`: bodies stay bytes)
 * into the apply core's messages. The raw AMQP application properties are used, so header bytes
 * (the Kafka endpoint's) reach the contract's decoding unchanged.
 */
export function messagesFromEvents(events: readonly ReceivedEventData[], partitionId: string): IncomingMessage[] {
  return events.map((event) => ({
    body: event.body,
    properties: rawProperties(event) ?? (event.properties as Record<string, unknown> | undefined) ?? {},
    sequenceNumber: event.sequenceNumber,
    enqueuedAt: event.enqueuedTimeUtc,
    partitionId,
  }));
}

function rawProperties(event: ReceivedEventData): Record<string, unknown> | undefined {
  const raw: unknown = event.getRawAmqpMessage().applicationProperties;
  return typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : undefined;
}
