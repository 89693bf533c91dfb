import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { EventHubConsumerClient, EventHubProducerClient, earliestEventPosition, latestEventPosition } from '@azure/event-hubs';
import { connect, type EventContext } from 'rhea';
import { startLocalEventHubs, type LocalEventHubs } from '../../development/local/eventHubs/localEventHubs';
import { receive, watch } from './eventHubSupport';

// Real sockets and SDK link set-up take a few seconds on a busy machine.
jest.setTimeout(30_000);

/** The local hub against the real SDK clients over real sockets. */
describe('local Event Hubs endpoint', () => {
  const hubName = 'club-data';
  let hub: LocalEventHubs;
  let clock = 0;
  const open: { close(): Promise<void> }[] = [];
  const producer = () => remember(new EventHubProducerClient(hub.connectionString(), hubName));
  const consumer = (group = '$Default') => remember(new EventHubConsumerClient(group, hub.connectionString(), hubName));
  function remember<T extends { close(): Promise<void> }>(client: T): T {
    open.push(client);
    return client;
  }

  beforeEach(async () => {
    clock = Date.parse('2026-11-20T18:00:00.000Z');
    hub = await startLocalEventHubs({
      port: 0,
      eventHubs: { [hubName]: { partitionCount: 4, consumerGroups: ['ingest-replay'] } },
      sharedAccessKey: { name: 'RootManageSharedAccessKey', key: 'SAS_KEY_VALUE' },
      now: () => clock,
    });
  });

  afterEach(async () => {
    for (const client of open.splice(0)) await client.close();
    await hub.close();
  });

  it('reports hub and partition properties, with the last enqueued event per partition', async () => {
    const client = producer();
    const empty = await client.getPartitionProperties('1');
    expect(empty).toMatchObject({
      partitionId: '1',
      eventHubName: hubName,
      isEmpty: true,
      lastEnqueuedSequenceNumber: -1,
      beginningSequenceNumber: 0,
    });

    await client.sendBatch([{ body: { n: 1 } }, { body: { n: 2 } }, { body: { n: 3 } }], { partitionId: '1' });
    clock += 1000;
    await client.sendBatch([{ body: { n: 4 } }], { partitionId: '1' });

    const hubProperties = await client.getEventHubProperties();
    expect(hubProperties).toMatchObject({ name: hubName, partitionIds: ['0', '1', '2', '3'] });
    const partition = await client.getPartitionProperties('1');
    expect(partition).toMatchObject({ isEmpty: false, beginningSequenceNumber: 0, lastEnqueuedSequenceNumber: 3 });
    expect(partition.lastEnqueuedOnUtc.toISOString()).toBe('2026-11-20T18:00:01.000Z');
    expect(Number(partition.lastEnqueuedOffset)).toBeGreaterThan(0);
    expect((await client.getPartitionProperties('0')).isEmpty).toBe(true);
  });

  it('delivers bodies, application properties and x-opt annotations; a partition key keeps its partition', async () => {
    const client = producer();
    const batch = await client.createBatch({ partitionKey: 'club.4711.hits' });
    batch.tryAdd({ body: { id: 1 }, properties: { sourceTopic: 'club.4711.hits', sourceClubId: '4711' } });
    batch.tryAdd({ body: 'plain text', properties: { sourceTopic: 'club.4711.hits', sourceClubId: '4711' } });
    await client.sendBatch(batch);
    await client.sendBatch([{ body: { id: 2 } }], { partitionKey: 'club.4711.hits' });

    const partitions = await Promise.all(['0', '1', '2', '3'].map((id) => client.getPartitionProperties(id)));
    const used = partitions.filter((partition) => !partition.isEmpty);
    expect(used).toHaveLength(1);
    const partitionId = used[0]!.partitionId;

    const events = await receive(consumer(), partitionId, 3, earliestEventPosition);
    expect(events.map((event) => event.body as unknown)).toEqual([{ id: 1 }, 'plain text', { id: 2 }]);
    expect(events.map((event) => event.sequenceNumber)).toEqual([0, 1, 2]);
    expect(events.map((event) => event.partitionKey)).toEqual(['club.4711.hits', 'club.4711.hits', 'club.4711.hits']);
    expect(events[0]!.properties).toEqual({ sourceTopic: 'club.4711.hits', sourceClubId: '4711' });
    expect(events[0]!.enqueuedTimeUtc.toISOString()).toBe('2026-11-20T18:00:00.000Z');
    // Offsets grow with each event's size, as byte positions do.
    const offsets = events.map((event) => Number(event.offset));
    expect(offsets[0]).toBe(0);
    expect(offsets[1]!).toBeGreaterThan(offsets[0]!);
    expect(offsets[2]!).toBeGreaterThan(offsets[1]!);
  });

  it('tells a reader that tracks the last enqueued event the partition state with each delivery, with the same annotations', async () => {
    const client = producer();
    await client.sendBatch([{ body: { n: 1 } }, { body: { n: 2 } }], { partitionId: '3' });
    clock += 1000;
    await client.sendBatch([{ body: { n: 3 } }], { partitionId: '3' });

    const tracked: { sequenceNumber?: number; enqueuedOn?: Date }[] = [];
    const received: { body: unknown; sequenceNumber: number; enqueuedTimeUtc: Date; offset: string }[] = [];
    let done: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const subscription = consumer().subscribe(
      '3',
      {
        processEvents: async (events, context) => {
          received.push(...events);
          tracked.push({ ...context.lastEnqueuedEventProperties });
          if (received.length >= 3) done();
          await Promise.resolve();
        },
        processError: () => Promise.resolve(),
      },
      { startPosition: earliestEventPosition, trackLastEnqueuedEventProperties: true, maxWaitTimeInSeconds: 1 },
    );
    await finished;
    await subscription.close();

    const plain = await receive(consumer(), '3', 3, earliestEventPosition);
    expect(received.map((event) => event.body)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(received.map((event) => [event.sequenceNumber, event.offset, event.enqueuedTimeUtc.toISOString()])).toEqual(
      plain.map((event) => [event.sequenceNumber, event.offset, event.enqueuedTimeUtc.toISOString()]),
    );
    expect(tracked.at(-1)!.sequenceNumber).toBe(2);
    expect(tracked.at(-1)!.enqueuedOn!.toISOString()).toBe('2026-11-20T18:00:01.000Z');
  });

  it('spreads events without a key over the partitions and sends bytes as bytes', async () => {
    const client = producer();
    for (let i = 0; i < 4; i += 1) await client.sendBatch([{ body: Buffer.from([i, 255]) }]);
    const partitions = await Promise.all(['0', '1', '2', '3'].map((id) => client.getPartitionProperties(id)));
    expect(partitions.map((partition) => partition.lastEnqueuedSequenceNumber)).toEqual([0, 0, 0, 0]);
    const [event] = await receive(consumer(), '2', 1, earliestEventPosition);
    expect(event!.body).toEqual(Buffer.from([2, 255]));
  });

  it('starts receivers at earliest, latest, an offset or a sequence number, inclusive or not', async () => {
    const client = producer();
    await client.sendBatch(
      [0, 1, 2, 3, 4].map((n) => ({ body: { n } })),
      { partitionId: '0' },
    );
    const all = await receive(consumer(), '0', 5, earliestEventPosition);
    const third = all[2]!;
    const bodies = (events: { body: unknown }[]) => events.map((event) => (event.body as { n: number }).n);

    expect(bodies(await receive(consumer(), '0', 3, { offset: third.offset, isInclusive: true }))).toEqual([2, 3, 4]);
    expect(bodies(await receive(consumer(), '0', 2, { offset: third.offset }))).toEqual([3, 4]);
    expect(bodies(await receive(consumer(), '0', 2, { sequenceNumber: 2 }))).toEqual([3, 4]);
    expect(bodies(await receive(consumer(), '0', 3, { sequenceNumber: 2, isInclusive: true }))).toEqual([2, 3, 4]);

    const latest = watch(consumer(), '0', latestEventPosition);
    // The receiver must be attached before the next send for "latest" to mean anything.
    await hub.waitForReader(hubName, '$Default', '0');
    await client.sendBatch([{ body: { n: 5 } }], { partitionId: '0' });
    await latest.until(() => latest.received.length >= 1);
    expect(bodies(latest.received)).toEqual([5]);
    await latest.subscription.close();
  });

  it('starts after an enqueued time', async () => {
    const client = producer();
    await client.sendBatch([{ body: { n: 0 } }], { partitionId: '3' });
    const cut = new Date(clock);
    clock += 60_000;
    await client.sendBatch([{ body: { n: 1 } }, { body: { n: 2 } }], { partitionId: '3' });
    const events = await receive(consumer(), '3', 2, { enqueuedOn: cut });
    expect(events.map((event) => event.body as unknown)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('lets consumer groups read the same events independently', async () => {
    const client = producer();
    await client.sendBatch([{ body: 'a' }, { body: 'b' }], { partitionId: '1' });
    const [first, second] = await Promise.all([
      receive(consumer('$Default'), '1', 2, earliestEventPosition),
      receive(consumer('ingest-replay'), '1', 2, earliestEventPosition),
    ]);
    expect(first.map((event) => event.body as unknown)).toEqual(['a', 'b']);
    expect(second.map((event) => event.body as unknown)).toEqual(['a', 'b']);
  });

  it('refuses an unknown consumer group', async () => {
    const reader = watch(consumer('nobody'), '0', earliestEventPosition);
    await reader.until(() => reader.errors.length > 0);
    expect(reader.errors[0]!.message).toMatch(/could not be found/);
    await reader.subscription.close();
  });

  it('disconnects a reader when one with a higher owner level arrives, and refuses lower ones', async () => {
    const client = producer();
    await client.sendBatch([{ body: 'x' }], { partitionId: '2' });
    const low = watch(consumer(), '2', earliestEventPosition, { ownerLevel: 1 });
    await low.until(() => low.received.length === 1);

    const high = watch(consumer(), '2', earliestEventPosition, { ownerLevel: 2 });
    await high.until(() => high.received.length === 1);
    await low.until(() => low.errors.length > 0);
    expect(low.errors[0]!.message).toMatch(/higher epoch of '2'/);

    const lower = watch(consumer(), '2', earliestEventPosition, { ownerLevel: 1 });
    await lower.until(() => lower.errors.length > 0);
    expect(lower.errors[0]!.message).toMatch(/higher epoch '2' already exists/);

    // The owner keeps reading.
    await client.sendBatch([{ body: 'y' }], { partitionId: '2' });
    await high.until(() => high.received.length === 2);
    expect(high.received.map((event) => event.body as unknown)).toEqual(['x', 'y']);
    for (const reader of [low, high, lower]) await reader.subscription.close();
  });

  it('refuses a client whose key does not match', async () => {
    const wrong = remember(
      new EventHubProducerClient(hub.connectionString().replace('SharedAccessKey=SAS_KEY_VALUE', 'SharedAccessKey=wrong'), hubName, {
        retryOptions: { maxRetries: 0 },
      }),
    );
    await expect(wrong.getEventHubProperties()).rejects.toThrow(/signature does not match/);
  });

  it('sends a consumer group the events settled, as the service does, so a reader settles nothing back', async () => {
    await hub.close();
    hub = await startLocalEventHubs({ port: 0, eventHubs: { [hubName]: { partitionCount: 1 } } });
    await producer().sendBatch([0, 1, 2].map((n) => ({ body: { n } })));
    const connection = connect({ host: hub.host, port: hub.port, reconnect: false });
    try {
      const seen: { settled: boolean; body: unknown }[] = [];
      let senderSettleMode: unknown;
      await new Promise<void>((resolve, reject) => {
        connection.on('connection_error', (context: EventContext) => reject(context.error ?? new Error('connection error')));
        const receiver = connection.open_receiver({
          source: {
            address: `${hubName}/ConsumerGroups/$default/Partitions/0`,
            filter: { 'apache.org:selector-filter:string': "amqp.annotation.x-opt-offset > '-1'" },
          },
          credit_window: 10,
        });
        receiver.on('receiver_open', () => (senderSettleMode = receiver.snd_settle_mode));
        receiver.on('message', (context: EventContext) => {
          seen.push({ settled: context.delivery?.remote_settled === true, body: context.message?.body });
          if (seen.length === 3) resolve();
        });
      });
      expect(senderSettleMode).toBe(1);
      expect(seen.map((event) => event.settled)).toEqual([true, true, true]);
    } finally {
      connection.close();
    }
  });

  it('lets its process exit once closed, even with a client still connected that asked for heartbeats', async () => {
    // In a process of its own: what keeps a process alive is seen only by whether it exits.
    const script = `
      import { connect } from 'rhea';
      import { startLocalEventHubs } from './development/local/eventHubs/localEventHubs';
      void (async () => {
        const hub = await startLocalEventHubs({ port: 0, eventHubs: { '${hubName}': {} } });
        const client = connect({ host: hub.host, port: hub.port, reconnect: false, idle_time_out: 2000 });
        client.on('disconnected', () => undefined);
        await new Promise((resolve) => client.once('connection_open', resolve));
        await hub.close();
        console.log('closed');
      })();`;
    const { stdout } = await promisify(execFile)(process.execPath, [require.resolve('tsx/cli'), '--eval', script], {
      cwd: path.resolve(__dirname, '..', '..'),
      timeout: 20_000,
    });
    expect(stdout.trim()).toBe('closed');
  });

  it('drops the oldest events beyond its retention and moves the beginning sequence number', async () => {
    await hub.close();
    hub = await startLocalEventHubs({
      port: 0,
      eventHubs: { [hubName]: { partitionCount: 1 } },
      retention: { maxEvents: 3 },
      now: () => clock,
    });
    const client = producer();
    await client.sendBatch([0, 1, 2, 3, 4].map((n) => ({ body: { n } })));
    expect(await client.getPartitionProperties('0')).toMatchObject({ beginningSequenceNumber: 2, lastEnqueuedSequenceNumber: 4 });
    const events = await receive(consumer(), '0', 3, earliestEventPosition);
    expect(events.map((event) => event.sequenceNumber)).toEqual([2, 3, 4]);
  });
});
