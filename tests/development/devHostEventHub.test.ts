import { EventHubProducerClient } from '@azure/event-hubs';
import type { InvocationContext, RetryOptions } from '@azure/functions';
import { startDevHost, type DevHost } from '../../development/devhost/host';
import { startLocalEventHubs, type LocalEventHubs } from '../../development/local/eventHubs/localEventHubs';
import { RETRY_POLICIES, type FunctionDefinition } from '../../shared/host/definition';
import { createLogger } from '../../shared/log/logger';

interface Invocation {
  messages: unknown[];
  triggerMetadata: Record<string, unknown>;
  retryCount?: number;
}

// Real sockets and SDK link set-up take a few seconds on a busy machine.
jest.setTimeout(30_000);

/** The local host feeding an eventHub function from the local hub through the real consumer client. */
describe('local host Event Hubs trigger', () => {
  const hubName = 'club-data';
  let hub: LocalEventHubs;
  let host: DevHost | undefined;
  let producer: EventHubProducerClient;
  let invocations: Invocation[];
  let waiters: (() => void)[];
  let logLines: { level: string; line: string }[];
  let delays: number[];

  beforeEach(async () => {
    hub = await startLocalEventHubs({ port: 0, eventHubs: { [hubName]: { partitionCount: 2, consumerGroups: ['ingest'] } } });
    producer = new EventHubProducerClient(hub.connectionString(), hubName);
    invocations = [];
    waiters = [];
    logLines = [];
    delays = [];
  });

  afterEach(async () => {
    await host?.close();
    host = undefined;
    await producer.close();
    await hub.close();
  });

  async function startHost(handler: (messages: unknown, context: InvocationContext) => Promise<void>, retry?: RetryOptions) {
    const definition: FunctionDefinition = {
      kind: 'eventHub',
      name: 'probe',
      options: {
        connection: 'PROBE_EVENTHUB_CONNECTION',
        eventHubName: '%PROBE_EVENTHUB_NAME%',
        consumerGroup: '%PROBE_EVENTHUB_CONSUMER_GROUP%',
        cardinality: 'many',
        ...(retry ? { retry } : {}),
        handler: async (messages, context) => {
          invocations.push({
            messages: messages as unknown[],
            triggerMetadata: context.triggerMetadata ?? {},
            ...(context.retryContext ? { retryCount: context.retryContext.retryCount } : {}),
          });
          waiters.splice(0).forEach((wake) => wake());
          await handler(messages, context);
        },
      },
    };
    const settings: Record<string, string> = {
      PROBE_EVENTHUB_CONNECTION: hub.connectionString(),
      PROBE_EVENTHUB_NAME: hubName,
      PROBE_EVENTHUB_CONSUMER_GROUP: 'ingest',
    };
    host = await startDevHost([definition], {
      port: 0,
      log: createLogger({ minLevel: 'info', sink: (level, line) => logLines.push({ level, line }) }),
      setting: (name) => settings[name],
      runTimers: false,
      eventHubTriggers: {
        maxEventBatchSize: 100,
        maxWaitTimeInSeconds: 1,
        sleep: async (ms) => {
          delays.push(ms);
          await Promise.resolve();
        },
      },
    });
    expect(host.eventHubFeeds).toEqual(['probe <- club-data (ingest)']);
  }

  async function messagesReach(count: number): Promise<void> {
    while (invocations.flatMap((invocation) => invocation.messages).length < count)
      await new Promise<void>((resolve) => waiters.push(resolve));
  }

  /** The metadata arrays of all invocations so far, end to end. */
  function joinedMetadata(): Record<string, unknown> {
    const joined: Record<string, unknown> = { partitionContext: invocations[0]?.triggerMetadata['partitionContext'] };
    for (const key of [
      'sequenceNumberArray',
      'offsetArray',
      'partitionKeyArray',
      'enqueuedTimeUtcArray',
      'propertiesArray',
      'systemPropertiesArray',
    ]) {
      joined[key] = invocations.flatMap((invocation) => invocation.triggerMetadata[key] as unknown[]);
    }
    return joined;
  }

  async function invocationsReach(count: number): Promise<void> {
    while (invocations.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
  }

  it('hands over bodies and triggerMetadata as the Node worker does for cardinality many', async () => {
    await producer.sendBatch(
      [
        { body: { id: 7, club_id: '4711' }, properties: { sourceTopic: 'club.4711.hits', sourceClubId: '4711', SourceSystem: 'box' } },
        { body: 'not json', properties: { sourceTopic: 'club.4711.hits' } },
        { body: Buffer.from('{"raw":true}', 'utf8'), properties: { header: Buffer.from('4711', 'utf8') } },
        // The SDK writes a string body as JSON text; raw bytes reach the worker as they are.
        { body: Buffer.from('42', 'utf8') },
      ],
      { partitionKey: 'club.4711.hits' },
    );
    await startHost(() => Promise.resolve());
    // A busy machine may split the four events over more than one batch; join them.
    await messagesReach(4);
    const metadata = joinedMetadata();
    const partitionId = String((invocations[0]!.triggerMetadata['partitionContext'] as { partitionId: string }).partitionId);

    expect(invocations.flatMap((invocation) => invocation.messages)).toEqual([{ id: 7, club_id: '4711' }, 'not json', { raw: true }, 42]);
    expect(new Set(invocations.map((invocation) => JSON.stringify(invocation.triggerMetadata['partitionContext'])))).toHaveProperty(
      'size',
      1,
    );
    expect(metadata['partitionContext']).toEqual({
      fullyQualifiedNamespace: '127.0.0.1',
      eventHubName: hubName,
      consumerGroup: 'ingest',
      partitionId,
    });
    expect(metadata['sequenceNumberArray']).toEqual([0, 1, 2, 3]);
    // Offsets and partition keys travel as strings and come out JSON-parsed where they parse.
    const offsets = metadata['offsetArray'] as unknown[];
    expect(offsets[0]).toBe(0);
    expect(offsets.every((offset) => typeof offset === 'number')).toBe(true);
    expect(metadata['partitionKeyArray']).toEqual(['club.4711.hits', 'club.4711.hits', 'club.4711.hits', 'club.4711.hits']);
    // DateTime values without a zone, as Newtonsoft writes them.
    for (const time of metadata['enqueuedTimeUtcArray'] as string[]) expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,7})?$/);
    // Keys lose their first capital; byte values become base64 text.
    expect(metadata['propertiesArray']).toEqual([
      { sourceTopic: 'club.4711.hits', sourceClubId: '4711', sourceSystem: 'box' },
      { sourceTopic: 'club.4711.hits' },
      { header: Buffer.from('4711').toString('base64') },
      {},
    ]);
    const system = (metadata['systemPropertiesArray'] as Record<string, unknown>[])[1]!;
    expect(system).toMatchObject({
      'x-opt-sequence-number': 1,
      sequenceNumber: 1,
      partitionKey: 'club.4711.hits',
      'x-opt-partition-key': 'club.4711.hits',
    });
    expect(system['enqueuedTimeUtc']).toBe((metadata['enqueuedTimeUtcArray'] as string[])[1]);
    expect(invocations[0]!.retryCount).toBeUndefined();
  });

  it('runs the same batch again after a throw, under the retry policy, before moving on', async () => {
    await producer.sendBatch([{ body: { n: 1 } }, { body: { n: 2 } }, { body: { n: 3 } }], { partitionId: '1' });
    let failures = 2;
    await startHost(() => {
      if (failures > 0) {
        failures -= 1;
        throw new Error('database unavailable');
      }
      return Promise.resolve();
    }, RETRY_POLICIES.eventBatch);
    await invocationsReach(3);

    const [failed, retried, succeeded] = invocations;
    expect(retried!.messages).toEqual(failed!.messages);
    expect(succeeded!.messages).toEqual(failed!.messages);
    expect(retried!.triggerMetadata['sequenceNumberArray']).toEqual(failed!.triggerMetadata['sequenceNumberArray']);
    expect(invocations.map((invocation) => invocation.retryCount)).toEqual([0, 1, 2]);
    expect(delays).toEqual([1000, 2000]);

    // Then each event is handled once, in order: the failed batch is never delivered again.
    await producer.sendBatch([{ body: { n: 4 } }], { partitionId: '1' });
    const handled = () => invocations.slice(2).flatMap((invocation) => invocation.messages);
    while (handled().length < 4) await new Promise<void>((resolve) => waiters.push(resolve));
    expect(handled()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    expect(logLines.filter((entry) => entry.level === 'warn').map((entry) => (JSON.parse(entry.line) as { event: string }).event)).toEqual([
      'event_batch_retry',
      'event_batch_retry',
    ]);
  });

  it('without a retry policy a failed batch is checkpointed and lost, as on the Azure host', async () => {
    await producer.sendBatch([{ body: { n: 1 } }], { partitionId: '0' });
    let fail = true;
    await startHost(() => {
      if (fail) {
        fail = false;
        throw new Error('boom');
      }
      return Promise.resolve();
    });
    await invocationsReach(1);
    await producer.sendBatch([{ body: { n: 2 } }], { partitionId: '0' });
    await invocationsReach(2);
    expect(invocations.map((invocation) => invocation.messages)).toEqual([[{ n: 1 }], [{ n: 2 }]]);
    const errors = logLines.filter((entry) => entry.level === 'error').map((entry) => JSON.parse(entry.line) as { event: string });
    expect(errors.map((entry) => entry.event)).toEqual(['event_batch_abandoned']);
  });
});
