import type { AddressInfo, Server, Socket } from 'node:net';
import {
  create_container,
  message as amqpMessage,
  types,
  type Connection,
  type EventContext,
  type Message,
  type Receiver,
  type Sender,
} from 'rhea';
import { parseEventPosition, startingSequenceNumber } from './eventPosition';
import { partitionForKey } from './partitionKey';
import { PartitionLog, type RetentionLimits, type StoredEvent } from './partitionLog';
import { checkSasToken, claimCovers, claimPath, type SharedAccessKey } from './sasToken';

/**
 * A small Event Hubs-compatible AMQP 1.0 endpoint for local runs and tests: what the real
 * `EventHubProducerClient` and `EventHubConsumerClient` need with a `UseDevelopmentEmulator=true`
 * connection string (plain AMQP, no TLS). Events live in memory with bounded retention.
 *
 * Covered: CBS put-token (SAS tokens checked against the configured key), `$management` hub and
 * partition properties, sending to the hub (round robin), to a partition or with a partition key
 * (batched or single messages), receiving per consumer group and partition from a selector-filter
 * position with the `x-opt-*` annotations, owner level (epoch) receivers and the five-reader limit,
 * runtime metrics on request. Not covered: idempotent publishing, geo-replication, web sockets.
 */
export interface EventHubDefinition {
  /** Partitions "0".."n-1"; 4 unless given. */
  partitionCount?: number;
  /** Consumer groups besides `$Default` (names are case-insensitive, as on the service). */
  consumerGroups?: string[];
}

export interface LocalEventHubsOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  eventHubs: Record<string, EventHubDefinition>;
  /** When given, CBS tokens must be signed with this key (as the sample connection string does). */
  sharedAccessKey?: SharedAccessKey;
  /**
   * Accepts Microsoft Entra tokens (CBS `type: jwt`), as the service does for a client built with
   * a namespace and a TokenCredential: the check answers whether the token is valid for
   * https://eventhubs.azure.net. Without it, such tokens are refused.
   */
  verifyBearer?: (token: string) => Promise<{ ok: true } | { ok: false; reason: string }>;
  /** AMQP over TLS (port 5671 on the service), which a client built with a TokenCredential always speaks. */
  tls?: { key: string; cert: string };
  retention?: Partial<RetentionLimits>;
  /** Largest message a sender may send; the SDK sizes its batches by it. */
  maxMessageSize?: number;
  now?: () => number;
}

export interface LocalEventHubs {
  host: string;
  port: number;
  /** A connection string for the clients, with EntityPath when a hub is named (plain AMQP: not with `tls`). */
  connectionString(eventHubName?: string): string;
  /** `host:port`, what a client built with a TokenCredential takes as the fully qualified namespace (with `tls`). */
  fullyQualifiedNamespace: string;
  /** Resolves once a receiver reads this partition (tests use it before sending "latest" events). */
  waitForReader(eventHubName: string, consumerGroup: string, partitionId: string): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_LOCAL_EVENT_HUBS_PORT = 5673;
export const DEFAULT_SHARED_ACCESS_KEY: SharedAccessKey = { name: 'RootManageSharedAccessKey', key: 'SAS_KEY_VALUE' };

const BATCH_FORMAT = 0x80013700;
/** AMQP sender-settle-mode `settled`. */
const SETTLED = 1;
const MAX_READERS_PER_PARTITION = 5;
const SELECTOR_FILTER = 'apache.org:selector-filter:string';
const EPOCH_PROPERTY = 'com.microsoft:epoch';
const RUNTIME_METRIC_CAPABILITY = 'com.microsoft:enable-receiver-runtime-metric';

interface Hub {
  name: string;
  createdAt: Date;
  partitions: PartitionLog[];
  consumerGroups: Set<string>;
  nextRoundRobin: number;
}

interface Reader {
  sender: Sender;
  ownerLevel: number | undefined;
  readerKey: string;
  log: PartitionLog;
  nextSequenceNumber: number;
  runtimeMetric: boolean;
  stopListening(): void;
}

type EntityTarget = { kind: 'hub'; hub: Hub; partition?: number };

/** The stored event with the annotations the service adds when it accepts an event. */
function annotated(event: StoredEvent): Message {
  const annotations: Record<string, unknown> = {
    ...event.message.message_annotations,
    'x-opt-sequence-number': types.wrap_long(event.sequenceNumber),
    'x-opt-offset': event.offset,
    'x-opt-enqueued-time': new Date(event.enqueuedTimeMs),
  };
  if (event.partitionKey !== undefined) annotations['x-opt-partition-key'] = event.partitionKey;
  return { ...event.message, message_annotations: annotations };
}

/** An event's bytes as readers receive it; undefined if it cannot be encoded (it is then encoded at each send). */
function encodedDelivery(event: StoredEvent): Buffer | undefined {
  try {
    return amqpMessage.encode(annotated(event));
  } catch {
    return undefined;
  }
}

export async function startLocalEventHubs(options: LocalEventHubsOptions): Promise<LocalEventHubs> {
  const host = options.host ?? '127.0.0.1';
  const now = options.now ?? (() => Date.now());
  const retention: RetentionLimits = { maxEvents: 100_000, maxAgeMs: 24 * 3600_000, ...options.retention };
  const maxMessageSize = options.maxMessageSize ?? 1024 * 1024;
  const hubs = new Map<string, Hub>();
  for (const [name, definition] of Object.entries(options.eventHubs)) {
    const partitionCount = definition.partitionCount ?? 4;
    if (!Number.isInteger(partitionCount) || partitionCount < 1 || partitionCount > 32)
      throw new Error(`Event hub ${name}: 1 to 32 partitions`);
    hubs.set(name.toLowerCase(), {
      name,
      createdAt: new Date(now()),
      partitions: Array.from({ length: partitionCount }, () => new PartitionLog(retention, now, encodedDelivery)),
      consumerGroups: new Set(['$default', ...(definition.consumerGroups ?? []).map((group) => group.toLowerCase())]),
      nextRoundRobin: 0,
    });
  }

  const container = create_container({ id: 'local-event-hubs' });
  const claims = new Map<Connection, string[]>();
  const readers = new Map<Sender, Reader>();
  const readersByPartition = new Map<string, Set<Reader>>();
  const sockets = new Set<Socket>();
  const readerWaiters = new Map<string, (() => void)[]>();

  const authorized = (connection: Connection, entity: string): boolean =>
    !options.sharedAccessKey || (claims.get(connection) ?? []).some((path) => claimCovers(path, entity));

  function reply(context: EventContext, request: Message, status: number, description: string, body?: unknown, condition?: string): void {
    const target = request.reply_to;
    const link = context.connection.find_sender((sender: Sender) => sender.name === target || sender.target?.address === target);
    if (!link) return;
    link.send({
      to: target,
      correlation_id: request.message_id,
      application_properties: {
        'status-code': status,
        'status-description': description,
        ...(condition ? { 'error-condition': condition } : {}),
      },
      body,
    });
  }

  async function handleCbs(context: EventContext, request: Message): Promise<void> {
    const properties = request.application_properties ?? {};
    if (properties['operation'] !== 'put-token')
      return reply(context, request, 400, 'Unsupported operation', undefined, 'amqp:not-implemented');
    const audience = typeof properties['name'] === 'string' ? properties['name'] : '';
    if (properties['type'] === 'jwt') {
      const check = options.verifyBearer
        ? await options.verifyBearer(typeof request.body === 'string' ? request.body : '')
        : { ok: false as const, reason: 'tokens of Microsoft Entra ID are not accepted here' };
      if (!check.ok) return reply(context, request, 401, `Unauthorized: ${check.reason}`, undefined, 'amqp:unauthorized-access');
    } else if (options.sharedAccessKey) {
      const check = checkSasToken(request.body, options.sharedAccessKey, now());
      if (!check.ok) return reply(context, request, 401, `Unauthorized: ${check.reason}`, undefined, 'amqp:unauthorized-access');
      if (check.audience !== audience)
        return reply(context, request, 401, 'Unauthorized: token is for another audience', undefined, 'amqp:unauthorized-access');
    }
    const list = claims.get(context.connection) ?? [];
    list.push(claimPath(audience));
    claims.set(context.connection, list);
    reply(context, request, 202, 'Accepted');
  }

  function handleManagement(context: EventContext, request: Message): void {
    const properties = request.application_properties ?? {};
    const hub = hubs.get(String(properties['name'] ?? '').toLowerCase());
    if (properties['operation'] !== 'READ') return reply(context, request, 400, 'Unsupported operation', undefined, 'amqp:not-implemented');
    if (!hub)
      return reply(
        context,
        request,
        404,
        `The messaging entity '${String(properties['name'])}' could not be found.`,
        undefined,
        'amqp:not-found',
      );
    if (!authorized(context.connection, hub.name))
      return reply(context, request, 401, 'Unauthorized', undefined, 'amqp:unauthorized-access');
    if (properties['type'] === 'com.microsoft:eventhub') {
      return reply(context, request, 200, 'OK', {
        name: hub.name,
        type: 'com.microsoft:eventhub',
        created_at: hub.createdAt,
        partition_count: hub.partitions.length,
        partition_ids: hub.partitions.map((_, index) => String(index)),
      });
    }
    if (properties['type'] === 'com.microsoft:partition') {
      const partition = String(properties['partition'] ?? '');
      const log = /^\d+$/.test(partition) ? hub.partitions[Number(partition)] : undefined;
      if (!log)
        return reply(
          context,
          request,
          400,
          `The specified partition '${partition}' is invalid.`,
          undefined,
          'com.microsoft:argument-out-of-range',
        );
      const state = log.state();
      return reply(context, request, 200, 'OK', {
        name: hub.name,
        type: 'com.microsoft:partition',
        partition,
        begin_sequence_number: types.wrap_long(state.beginningSequenceNumber),
        last_enqueued_sequence_number: types.wrap_long(state.lastEnqueuedSequenceNumber),
        last_enqueued_offset: state.lastEnqueuedOffset,
        last_enqueued_time_utc: new Date(state.lastEnqueuedTimeMs),
        is_partition_empty: state.isEmpty,
      });
    }
    reply(context, request, 400, 'Unsupported type', undefined, 'amqp:not-implemented');
  }

  /** `hub` or `hub/Partitions/n`: where a client's sender publishes. */
  function publishTarget(address: string | undefined): EntityTarget | string {
    const parts = (address ?? '').split('/');
    const hub = hubs.get((parts[0] ?? '').toLowerCase());
    if (!hub) return `The messaging entity '${address ?? ''}' could not be found.`;
    if (parts.length === 1) return { kind: 'hub', hub };
    if (
      parts.length === 3 &&
      parts[1]?.toLowerCase() === 'partitions' &&
      /^\d+$/.test(parts[2] ?? '') &&
      Number(parts[2]) < hub.partitions.length
    ) {
      return { kind: 'hub', hub, partition: Number(parts[2]) };
    }
    return `The specified partition is invalid for an EventHub partition sender or receiver: ${address ?? ''}`;
  }

  function publish(context: EventContext, receiver: Receiver): void {
    const delivery = context.delivery;
    const target = publishTarget(receiver.target?.address);
    if (typeof target === 'string') {
      delivery?.reject({ condition: 'amqp:not-found', description: target });
      return;
    }
    if (!authorized(context.connection, receiver.target?.address ?? '')) {
      delivery?.reject({ condition: 'amqp:unauthorized-access', description: 'Unauthorized' });
      return;
    }
    let events: { message: Message; size: number }[];
    let envelopeKey: unknown;
    try {
      // rhea hands over a non-standard message format (the SDK's batches) undecoded, as bytes.
      const format = (context as EventContext & { format?: number }).format;
      if (format === BATCH_FORMAT && Buffer.isBuffer(context.message)) {
        const envelope = amqpMessage.decode(context.message);
        envelopeKey = (envelope.message_annotations as Record<string, unknown> | undefined)?.['x-opt-partition-key'];
        const sections = (envelope.body as { content?: Buffer | Buffer[] } | undefined)?.content;
        const encoded = sections === undefined ? [] : Array.isArray(sections) ? sections : [sections];
        events = encoded.map((bytes) => ({ message: amqpMessage.decode(bytes) as unknown as Message, size: bytes.length }));
      } else {
        const single = context.message as Message;
        events = [{ message: single, size: amqpMessage.encode(single).length }];
        envelopeKey = single.message_annotations?.['x-opt-partition-key'];
      }
    } catch (error) {
      delivery?.reject({ condition: 'amqp:decode-error', description: error instanceof Error ? error.message : 'undecodable message' });
      return;
    }
    const partitionKey = typeof envelopeKey === 'string' ? envelopeKey : undefined;
    const hub = target.hub;
    const partition =
      target.partition ??
      (partitionKey !== undefined ? partitionForKey(partitionKey, hub.partitions.length) : hub.nextRoundRobin++ % hub.partitions.length);
    const log = hub.partitions[partition];
    if (!log) return;
    for (const event of events) {
      const key: unknown = event.message.message_annotations?.['x-opt-partition-key'];
      log.append(event.message, event.size, typeof key === 'string' ? key : partitionKey);
    }
    delivery?.accept();
  }

  /** Sends one event to a reader: its stored bytes, or with a runtime metric the partition's state at this moment. */
  function deliver(reader: Reader, event: StoredEvent): void {
    if (!reader.runtimeMetric && event.delivery) {
      // Format 0 is the standard AMQP message format: rhea sends the bytes as they are.
      reader.sender.send(event.delivery, undefined, 0);
      return;
    }
    const message = annotated(event);
    if (reader.runtimeMetric) {
      const state = reader.log.state();
      message.delivery_annotations = {
        last_enqueued_sequence_number: types.wrap_long(state.lastEnqueuedSequenceNumber),
        last_enqueued_offset: state.lastEnqueuedOffset,
        last_enqueued_time_utc: new Date(state.lastEnqueuedTimeMs),
        runtime_info_retrieval_time_utc: new Date(now()),
      };
    }
    reader.sender.send(message);
  }

  /**
   * rhea writes every frame to the socket on its own; a reader's burst of transfers is held and
   * written together once the tick's frames are out (one writev instead of one write each).
   */
  const corked = new Set<Socket>();
  function coalesceWrites(socket: Socket | undefined): void {
    if (!socket || corked.has(socket)) return;
    corked.add(socket);
    socket.cork();
    setImmediate(() => {
      corked.delete(socket);
      socket.uncork();
    });
  }

  function pump(reader: Reader): void {
    if (reader.sender.sendable()) coalesceWrites((reader.sender.connection as unknown as { socket?: Socket }).socket);
    while (reader.sender.sendable()) {
      const event = reader.log.eventFrom(reader.nextSequenceNumber);
      if (!event) return;
      reader.nextSequenceNumber = event.sequenceNumber + 1;
      deliver(reader, event);
    }
  }

  function dropReader(sender: Sender): void {
    const reader = readers.get(sender);
    if (!reader) return;
    readers.delete(sender);
    reader.stopListening();
    readersByPartition.get(reader.readerKey)?.delete(reader);
  }

  function openReader(context: EventContext, sender: Sender): void {
    const address = sender.source?.address ?? '';
    const parts = address.split('/');
    const hub = hubs.get((parts[0] ?? '').toLowerCase());
    const group = parts[2]?.toLowerCase() ?? '';
    const partition = parts[4] ?? '';
    const refuse = (condition: string, description: string) => sender.close({ condition, description });
    if (!hub || parts.length !== 5 || parts[1]?.toLowerCase() !== 'consumergroups' || parts[3]?.toLowerCase() !== 'partitions') {
      return refuse('amqp:not-found', `The messaging entity '${address}' could not be found.`);
    }
    if (!hub.consumerGroups.has(group))
      return refuse('amqp:not-found', `The messaging entity '${hub.name}~${parts[2] ?? ''}' could not be found.`);
    const log = /^\d+$/.test(partition) ? hub.partitions[Number(partition)] : undefined;
    if (!log) return refuse('com.microsoft:argument-out-of-range', `The specified partition '${partition}' is invalid.`);
    if (!authorized(context.connection, address)) return refuse('amqp:unauthorized-access', 'Unauthorized: no token for this entity');

    let position;
    try {
      const filter = (sender.source as { filter?: Record<string, unknown> } | undefined)?.filter?.[SELECTOR_FILTER];
      const value = filter && typeof filter === 'object' && 'value' in filter ? filter.value : filter;
      position = parseEventPosition(typeof value === 'string' ? value : undefined);
    } catch (error) {
      return refuse('com.microsoft:argument-error', error instanceof Error ? error.message : 'invalid filter');
    }

    const rawLevel: unknown = (sender.properties as Record<string, unknown> | undefined)?.[EPOCH_PROPERTY];
    const ownerLevel = typeof rawLevel === 'number' ? rawLevel : undefined;
    const readerKey = `${hub.name.toLowerCase()}/${group}/${partition}`;
    const current = readersByPartition.get(readerKey) ?? new Set<Reader>();
    readersByPartition.set(readerKey, current);
    const levels = [...current].map((reader) => reader.ownerLevel).filter((level): level is number => level !== undefined);
    const highest = levels.length ? Math.max(...levels) : undefined;
    if (ownerLevel === undefined) {
      if (highest !== undefined) {
        return refuse(
          'amqp:link:stolen',
          `At least one receiver for the endpoint is created with epoch of '${highest}', and so non-epoch receiver is not allowed.`,
        );
      }
      if (current.size >= MAX_READERS_PER_PARTITION) {
        return refuse(
          'amqp:resource-limit-exceeded',
          `Exceeded the maximum number of allowed receivers per partition in a consumer group which is ${MAX_READERS_PER_PARTITION}.`,
        );
      }
    } else if (highest !== undefined && ownerLevel < highest) {
      return refuse(
        'amqp:link:stolen',
        `Receiver with a higher epoch '${highest}' already exists. Receiver with epoch ${ownerLevel} cannot be created.`,
      );
    } else {
      for (const other of [...current]) {
        dropReader(other.sender);
        other.sender.close({
          condition: 'amqp:link:stolen',
          description: `New receiver with higher epoch of '${ownerLevel}' is created hence current receiver with epoch '${other.ownerLevel ?? ''}' is getting disconnected.`,
        });
      }
    }

    sender.set_source({ address });
    // As the service does on a consumer group's links (snd-settle-mode settled): the events go out
    // settled, so the client sends no disposition per event and the hub tracks none.
    (sender as unknown as { local: { attach: { snd_settle_mode: number } } }).local.attach.snd_settle_mode = SETTLED;
    const reader: Reader = {
      sender,
      ownerLevel,
      readerKey,
      log,
      nextSequenceNumber: startingSequenceNumber(log, position),
      runtimeMetric: [sender.desired_capabilities].flat().includes(RUNTIME_METRIC_CAPABILITY),
      stopListening: () => undefined,
    };
    reader.stopListening = log.onAppend(() => pump(reader));
    readers.set(sender, reader);
    current.add(reader);
    readerWaiters
      .get(readerKey)
      ?.splice(0)
      .forEach((wake) => wake());
    pump(reader);
  }

  container.on('connection_open', (context: EventContext) => {
    claims.set(context.connection, []);
  });
  const forgetConnection = (context: EventContext) => {
    claims.delete(context.connection);
    for (const sender of [...readers.keys()]) if (sender.connection === context.connection) dropReader(sender);
  };
  container.on('connection_close', forgetConnection);
  container.on('disconnected', forgetConnection);
  container.on('connection_error', () => undefined);
  container.on('protocol_error', () => undefined);
  container.on('error', () => undefined);

  container.on('sender_open', (context: EventContext) => {
    const sender = context.sender;
    if (!sender) return;
    const address = sender.source?.address ?? '';
    if (address === '$cbs' || address === '$management') {
      sender.set_source({ address });
      sender.set_target({ address: sender.target?.address ?? sender.name });
      return;
    }
    openReader(context, sender);
  });
  container.on('sendable', (context: EventContext) => {
    const reader = context.sender && readers.get(context.sender);
    if (reader) pump(reader);
  });
  container.on('sender_close', (context: EventContext) => {
    if (context.sender) dropReader(context.sender);
  });

  container.on('receiver_open', (context: EventContext) => {
    const receiver = context.receiver;
    if (!receiver) return;
    const address = receiver.target?.address ?? '';
    receiver.set_target({ address });
    if (address === '$cbs' || address === '$management') return;
    const target = publishTarget(address);
    if (typeof target === 'string') receiver.close({ condition: 'amqp:not-found', description: target });
    else if (!authorized(context.connection, address))
      receiver.close({ condition: 'amqp:unauthorized-access', description: 'Unauthorized: no token for this entity' });
  });
  container.on('message', (context: EventContext) => {
    const receiver = context.receiver;
    if (!receiver) return;
    const address = receiver.target?.address ?? '';
    if (address === '$cbs' || address === '$management') {
      context.delivery?.accept();
      const request = context.message as Message;
      if (address === '$cbs') void handleCbs(context, request);
      else handleManagement(context, request);
      return;
    }
    publish(context, receiver);
  });

  const server: Server = container.listen({
    port: options.port,
    host,
    ...(options.tls ? { transport: 'tls', key: options.tls.key, cert: options.tls.cert } : {}),
    // No idle timeout of our own: rhea re-arms its idle timer while a closing connection flushes,
    // which would keep the process alive for minutes after close(). Clients still get heartbeats.
    max_frame_size: 65_536,
    receiver_options: { autoaccept: false, max_message_size: maxMessageSize, credit_window: 300 },
    sender_options: { max_message_size: maxMessageSize },
  } as Parameters<typeof container.listen>[0]);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const key = options.sharedAccessKey ?? DEFAULT_SHARED_ACCESS_KEY;

  return {
    host,
    port,
    fullyQualifiedNamespace: `${host}:${port}`,
    connectionString: (eventHubName) =>
      `Endpoint=sb://${host}:${port};SharedAccessKeyName=${key.name};SharedAccessKey=${key.key};UseDevelopmentEmulator=true` +
      (eventHubName ? `;EntityPath=${eventHubName}` : ''),
    waitForReader: (eventHubName, consumerGroup, partitionId) => {
      const readerKey = `${eventHubName.toLowerCase()}/${consumerGroup.toLowerCase()}/${partitionId}`;
      if (readersByPartition.get(readerKey)?.size) return Promise.resolve();
      return new Promise<void>((resolve) => readerWaiters.set(readerKey, [...(readerWaiters.get(readerKey) ?? []), resolve]));
    },
    close: async () => {
      for (const sender of [...readers.keys()]) dropReader(sender);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // With an error, not bare: rhea hears of a socket's end only through 'end' or 'error', and a
      // connection it still thinks open keeps re-arming the heartbeat its client asked for.
      for (const socket of sockets) socket.destroy(new Error('Local Event Hubs closed'));
      await closed;
    },
  };
}
