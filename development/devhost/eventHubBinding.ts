import type { ReceivedEventData } from '@azure/event-hubs';

/**
 * What the Azure host's Node worker hands an Event Hubs function with `cardinality: 'many'`,
 * rebuilt from events received with the real SDK. The chain it imitates:
 *
 * 1. The Event Hubs extension binds the batch as strings plus binding data
 *    (`EventHubTriggerBindingStrategy`: PartitionContext, PartitionKeyArray, OffsetArray,
 *    SequenceNumberArray, EnqueuedTimeUtcArray, PropertiesArray, SystemPropertiesArray).
 * 2. The host converts each value to RPC data (`GrpcMessageConversionExtensions.ToRpc`): the Node
 *    worker declares `TypedDataCollection`, so `string[]` becomes a string collection (null and
 *    empty entries dropped: the worker does not declare `IncludeEmptyEntriesInMessagePayload`),
 *    `long[]` a number collection, anything else JSON from Newtonsoft (dates without a zone for
 *    `DateTime.Kind` Unspecified, byte arrays as base64).
 * 3. The Node library (`fromRpcTypedData`, `fromRpcTriggerMetadata`) JSON-parses every string
 *    of a string collection when it parses ("42" becomes 42, `{..}` an object) and lower-cases the
 *    first letter of every key, recursively (`PartitionId` → `partitionId`).
 */
export interface WorkerEventBatch {
  messages: unknown[];
  triggerMetadata: Record<string, unknown>;
}

export interface BatchPartition {
  fullyQualifiedNamespace: string;
  eventHubName: string;
  consumerGroup: string;
  partitionId: string;
}

export function toWorkerEventBatch(events: readonly ReceivedEventData[], partition: BatchPartition): WorkerEventBatch {
  const fromHost = {
    PartitionContext: {
      FullyQualifiedNamespace: partition.fullyQualifiedNamespace,
      EventHubName: partition.eventHubName,
      ConsumerGroup: partition.consumerGroup,
      PartitionId: partition.partitionId,
    },
    PartitionKeyArray: stringCollection(events.map((event) => event.partitionKey ?? null)),
    OffsetArray: stringCollection(events.map((event) => event.offset)),
    SequenceNumberArray: events.map((event) => event.sequenceNumber),
    EnqueuedTimeUtcArray: events.map((event) => newtonsoftDate(event.enqueuedTimeUtc.getTime(), '')),
    // The raw AMQP values: the SDK's own `properties` has already turned byte arrays into objects.
    PropertiesArray: events.map((event) => toJsonValue(event.getRawAmqpMessage().applicationProperties ?? event.properties ?? {})),
    SystemPropertiesArray: events.map((event) => systemProperties(event)),
  };
  const triggerMetadata: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fromHost)) triggerMetadata[camelKey(key)] = camelValue(value);
  return { messages: stringCollection(events.map((event) => bodyText(event.body))), triggerMetadata };
}

function systemProperties(event: ReceivedEventData): Record<string, unknown> {
  const annotations: Record<string, unknown> = {
    'x-opt-sequence-number': event.sequenceNumber,
    'x-opt-offset': event.offset,
    'x-opt-enqueued-time': newtonsoftDate(event.enqueuedTimeUtc.getTime(), 'Z'),
  };
  if (event.partitionKey) annotations['x-opt-partition-key'] = event.partitionKey;
  return {
    ...annotations,
    SequenceNumber: event.sequenceNumber,
    Offset: Number(event.offset),
    PartitionKey: event.partitionKey ?? null,
    EnqueuedTimeUtc: newtonsoftDate(event.enqueuedTimeUtc.getTime(), ''),
  };
}

/** The event body as the extension's string conversion sees it: UTF-8 text of the bytes. */
function bodyText(body: unknown): string | null {
  if (body === undefined || body === null) return null;
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  if (typeof body === 'string') return body;
  return JSON.stringify(body);
}

/** A string collection through the host and the Node library. */
function stringCollection(values: readonly (string | null)[]): unknown[] {
  return values.filter((value): value is string => value !== null && value !== '').map(tryJsonParse);
}

function tryJsonParse(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** What Newtonsoft writes for a value of an application property, read back by JSON.parse. */
function toJsonValue(value: unknown): unknown {
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (value instanceof Date) return newtonsoftDate(value.getTime(), 'Z');
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toJsonValue(item)]));
  return value ?? null;
}

/** Newtonsoft's ISO format: seconds, then up to seven fraction digits without trailing zeros. */
export function newtonsoftDate(epochMs: number, zone: '' | 'Z'): string {
  const iso = new Date(epochMs).toISOString(); // 2026-11-22T19:20:07.810Z
  const fraction = iso.slice(20, 23).replace(/0+$/, '');
  return `${iso.slice(0, 19)}${fraction ? `.${fraction}` : ''}${zone}`;
}

function camelKey(key: string): string {
  return key.charAt(0).toLowerCase() + key.slice(1);
}

function camelValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelValue);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [camelKey(key), camelValue(item)]));
  return value;
}
