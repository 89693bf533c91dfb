import type { IncomingMessage } from './contract';

/**
 * Pairs the bodies of a `cardinality: 'many'` Event Hubs invocation with their trigger metadata,
 * as the Node worker hands them over: `propertiesArray`, `sequenceNumberArray`,
 * `enqueuedTimeUtcArray` and `partitionContext` (keys camel-cased on their first letter only).
 * Any of these may be absent or malformed; reading never throws.
 */
export function messagesFromTrigger(bodies: readonly unknown[], triggerMetadata: Record<string, unknown> | undefined): IncomingMessage[] {
  const metadata = triggerMetadata ?? {};
  const properties = arrayOf(metadata['propertiesArray']);
  const sequences = arrayOf(metadata['sequenceNumberArray']);
  const enqueued = arrayOf(metadata['enqueuedTimeUtcArray']);
  const partitionId = partitionOf(metadata['partitionContext'] ?? metadata['triggerPartitionContext']);
  return bodies.map((body, index) => ({
    body,
    properties: recordOf(properties[index]),
    sequenceNumber: numberOf(sequences[index]),
    enqueuedAt: utcDate(enqueued[index]),
    partitionId,
  }));
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function recordOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function numberOf(value: unknown): number | null {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : null;
}

/** The host writes DateTime values without an offset; they are UTC, not local time. */
function utcDate(value: unknown): Date | null {
  if (value instanceof Date) return value;
  if (typeof value !== 'string' || !value) return null;
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(value);
  const date = new Date(hasZone ? value : `${value}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

function partitionOf(value: unknown): string | null {
  const id = recordOf(value)['partitionId'];
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}
