import type { ReceivedEventData } from '@azure/event-hubs';
import type { IncomingMessage } from './contract';

/**
 * Events as the SDK hands them to a subscription (`skipParsingBodyAsJson`: bodies stay bytes)
 * into the apply core's messages. The raw AMQP application properties are used, so header bytes
 * (the Kafka endpoint's) reach the contract's decoding unchanged.
 */
export function messagesFromEvents(events: readonly ReceivedEventData[], partitionId: string): IncomingMessage[] {
  return events.map((event) => ({
    body: event.body as unknown,
    properties: propertiesOf(event),
    sequenceNumber: event.sequenceNumber,
    enqueuedAt: event.enqueuedTimeUtc,
    partitionId,
  }));
}

function propertiesOf(event: ReceivedEventData): Record<string, unknown> {
  const raw: unknown = event.getRawAmqpMessage().applicationProperties;
  if (typeof raw === 'object' && raw !== null) return raw as Record<string, unknown>;
  const parsed: unknown = event.properties;
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
}
