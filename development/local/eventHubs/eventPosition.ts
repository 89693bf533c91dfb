import type { PartitionLog } from './partitionLog';

/**
 * Where a receiver starts, as the SDK asks for it in the link's
 * `apache.org:selector-filter:string`, e.g. `amqp.annotation.x-opt-offset > '-1'`.
 */
export type EventPosition =
  | { kind: 'offset'; value: string; inclusive: boolean }
  | { kind: 'sequenceNumber'; value: number; inclusive: boolean }
  | { kind: 'enqueuedTime'; value: number; inclusive: boolean };

const FILTER = /^\s*amqp\.annotation\.(x-opt-offset|x-opt-sequence-number|x-opt-enqueued-time)\s*(>=|>)\s*'([^']*)'\s*$/;

/** Parses a selector filter; undefined means "no filter" (the start of the partition). */
export function parseEventPosition(filter: string | undefined): EventPosition | undefined {
  if (filter === undefined || filter.trim() === '') return undefined;
  const match = FILTER.exec(filter);
  if (!match) throw new Error(`Unsupported selector filter: ${filter}`);
  const [, annotation, operator, raw = ''] = match;
  const inclusive = operator === '>=';
  if (annotation === 'x-opt-offset') {
    if (raw !== '@latest' && !/^-?\d+$/.test(raw)) throw new Error(`Offset must be a number or @latest, got '${raw}'`);
    return { kind: 'offset', value: raw, inclusive };
  }
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${annotation} must be a whole number, got '${raw}'`);
  return annotation === 'x-opt-sequence-number' ? { kind: 'sequenceNumber', value, inclusive } : { kind: 'enqueuedTime', value, inclusive };
}

/** The sequence number of the first event a receiver at `position` gets (maybe one not yet sent). */
export function startingSequenceNumber(log: PartitionLog, position: EventPosition | undefined): number {
  if (!position) return log.sequenceAt(0);
  switch (position.kind) {
    case 'offset': {
      if (position.value === '@latest') return log.nextSequence;
      const bound = BigInt(position.value);
      return log.sequenceAt(
        log.firstIndexWhere((event) => (position.inclusive ? BigInt(event.offset) >= bound : BigInt(event.offset) > bound)),
      );
    }
    case 'sequenceNumber':
      return Math.max(log.sequenceAt(0), position.inclusive ? position.value : position.value + 1);
    case 'enqueuedTime':
      return log.sequenceAt(
        log.firstIndexWhere((event) =>
          position.inclusive ? event.enqueuedTimeMs >= position.value : event.enqueuedTimeMs > position.value,
        ),
      );
  }
}
