import { sqlState } from '../db/errors';
import { classifyMessage, type IncomingMessage } from './contract';
import type { DeadLetterInput } from './deadLetterRepository';
import { storableOrNull, storableText, TEXT_CAPS } from './storableText';

/**
 * What a dead letter keeps of the event the database refused: its origin as the contract read
 * it (cut and cleaned), the SQLSTATE, a cleaned detail, the position, and the event itself as
 * bytes so a replay can run it again once the cause is fixed.
 */

/** Events larger than this are recorded without their content (a change event is under 2 KiB). */
export const DEAD_MESSAGE_MAX_BYTES = 64 * 1024;

export function deadLetterOf(message: IncomingMessage, error: unknown): DeadLetterInput {
  const classified = classifyMessage(message);
  const origin =
    classified.kind === 'change'
      ? { topic: classified.change.topic, clubId: classified.change.clubId, entity: classified.change.entity }
      : classified.kind === 'reject'
        ? { topic: classified.reject.topic, clubId: classified.reject.clubId, entity: classified.reject.entity }
        : { topic: null, clubId: null, entity: null };
  const enqueuedAt = message.enqueuedAt && Number.isFinite(message.enqueuedAt.getTime()) ? message.enqueuedAt : null;
  return {
    sqlState: storableOrNull(sqlState(error), 5),
    detail: errorDetail(error),
    topic: storableOrNull(origin.topic, TEXT_CAPS.topic),
    clubId: storableOrNull(origin.clubId, TEXT_CAPS.clubId),
    entity: storableOrNull(origin.entity, TEXT_CAPS.entity),
    partitionId: storableOrNull(message.partitionId, 32),
    sequenceNumber: Number.isSafeInteger(message.sequenceNumber) ? message.sequenceNumber : null,
    enqueuedAt,
    message: encodeDeadMessage(message),
  };
}

export function errorDetail(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return storableText(text, TEXT_CAPS.detail);
}

/** JSON of body and properties; bytes as `{type: 'Buffer', data}`, which the contract decodes again. */
export function encodeDeadMessage(message: IncomingMessage): Buffer | null {
  try {
    const json = JSON.stringify({ body: asJsonable(message.body), properties: mapValues(message.properties, asJsonable) });
    const bytes = Buffer.from(json, 'utf8');
    return bytes.length <= DEAD_MESSAGE_MAX_BYTES ? bytes : null;
  } catch {
    // Not representable as JSON (a cycle, a bigint): recorded without content.
    return null;
  }
}

export function decodeDeadMessage(
  bytes: Buffer,
  position: Pick<IncomingMessage, 'partitionId' | 'sequenceNumber' | 'enqueuedAt'>,
): IncomingMessage {
  const { body, properties } = JSON.parse(bytes.toString('utf8')) as { body?: unknown; properties?: Record<string, unknown> };
  return { body: body ?? null, properties: properties ?? {}, ...position };
}

function asJsonable(value: unknown): unknown {
  if (value instanceof Uint8Array && !Buffer.isBuffer(value)) return Buffer.from(value);
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  return value;
}

function mapValues(record: Record<string, unknown>, map: (value: unknown) => unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}
