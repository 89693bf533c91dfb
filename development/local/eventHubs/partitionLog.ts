import type { Message } from 'rhea';

/** One stored event with the annotations Event Hubs assigns when it accepts it. */
export interface StoredEvent {
  sequenceNumber: number;
  /** Byte position in the partition, as Event Hubs reports it: a decimal string. */
  offset: string;
  enqueuedTimeMs: number;
  partitionKey?: string;
  message: Message;
  /**
   * The event as a reader without runtime metrics receives it, annotations included, encoded once
   * when it is accepted: the service stores an event's bytes and hands the same bytes to every
   * reader, so a delivery costs no encoding of its own.
   */
  delivery?: Buffer;
}

export interface PartitionState {
  beginningSequenceNumber: number;
  lastEnqueuedSequenceNumber: number;
  lastEnqueuedOffset: string;
  lastEnqueuedTimeMs: number;
  isEmpty: boolean;
}

export interface RetentionLimits {
  /** Oldest events are dropped beyond this many per partition. */
  maxEvents: number;
  /** Events older than this are dropped when the next one arrives. */
  maxAgeMs: number;
}

/**
 * The events of one partition, in memory, with bounded retention. Sequence numbers start at 0
 * and never repeat, even after old events are dropped, as on the real service; offsets grow
 * with the encoded size of each event.
 */
export class PartitionLog {
  private events: StoredEvent[] = [];
  private nextSequenceNumber = 0;
  private nextOffset = 0;
  private lastEnqueuedTimeMs = 0;
  private readonly listeners = new Set<() => void>();

  /** `encodeDelivery` gives an accepted event its `delivery` bytes before any reader is told of it. */
  constructor(
    private readonly retention: RetentionLimits,
    private readonly now: () => number,
    private readonly encodeDelivery?: (event: StoredEvent) => Buffer | undefined,
  ) {}

  append(message: Message, size: number, partitionKey: string | undefined): StoredEvent {
    // The service never hands out a time earlier than one it already gave in the partition.
    const enqueuedTimeMs = Math.max(this.now(), this.lastEnqueuedTimeMs);
    const event: StoredEvent = {
      sequenceNumber: this.nextSequenceNumber,
      offset: String(this.nextOffset),
      enqueuedTimeMs,
      ...(partitionKey !== undefined ? { partitionKey } : {}),
      message,
    };
    this.nextSequenceNumber += 1;
    this.nextOffset += Math.max(size, 1);
    this.lastEnqueuedTimeMs = enqueuedTimeMs;
    const delivery = this.encodeDelivery?.(event);
    if (delivery) event.delivery = delivery;
    this.events.push(event);
    this.trim(enqueuedTimeMs);
    for (const listener of [...this.listeners]) listener();
    return event;
  }

  /** Index of the first retained event that satisfies `accepts`, or the end of the log. */
  firstIndexWhere(accepts: (event: StoredEvent) => boolean): number {
    const index = this.events.findIndex(accepts);
    return index === -1 ? this.events.length : index;
  }

  /** The retained event at or after `sequenceNumber` (dropped ones are skipped). */
  eventFrom(sequenceNumber: number): StoredEvent | undefined {
    const first = this.events[0];
    if (!first) return undefined;
    const index = Math.max(0, sequenceNumber - first.sequenceNumber);
    return this.events[index];
  }

  get nextSequence(): number {
    return this.nextSequenceNumber;
  }

  sequenceAt(index: number): number {
    return this.events[index]?.sequenceNumber ?? this.nextSequenceNumber;
  }

  /** Calls `listener` after every append until the returned function is called. */
  onAppend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  state(): PartitionState {
    const last = this.events[this.events.length - 1];
    const first = this.events[0];
    return {
      beginningSequenceNumber: first?.sequenceNumber ?? this.nextSequenceNumber,
      // An empty partition reports -1, as the service does.
      lastEnqueuedSequenceNumber: this.nextSequenceNumber - 1,
      lastEnqueuedOffset: last?.offset ?? '-1',
      lastEnqueuedTimeMs: this.lastEnqueuedTimeMs,
      isEmpty: this.events.length === 0,
    };
  }

  private trim(nowMs: number): void {
    let drop = Math.max(0, this.events.length - this.retention.maxEvents);
    while (drop < this.events.length && nowMs - (this.events[drop]?.enqueuedTimeMs ?? nowMs) > this.retention.maxAgeMs) drop += 1;
    if (drop > 0) this.events.splice(0, drop);
  }
}
