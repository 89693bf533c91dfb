import { spawn } from 'node:child_process';
import path from 'node:path';
import { EventHubConsumerClient, earliestEventPosition, type ReceivedEventData } from '@azure/event-hubs';
import { trainingEvening } from '../../development/ingest/debeziumEvents';
import { startLocalEventHubs, type LocalEventHubs } from '../../development/local/eventHubs/localEventHubs';
import { receive } from './eventHubSupport';

/** `npm run ingest:simulate` as a user runs it, against a local hub on a free port. */
describe('ingest:simulate', () => {
  const root = path.resolve(__dirname, '..', '..');
  let hub: LocalEventHubs;
  let consumer: EventHubConsumerClient;

  beforeAll(async () => {
    hub = await startLocalEventHubs({ port: 0, eventHubs: { 'club-data': { partitionCount: 4 } } });
    consumer = new EventHubConsumerClient('$Default', hub.connectionString(), 'club-data');
  });

  afterAll(async () => {
    await consumer.close();
    await hub.close();
  });

  function simulate(args: string[]): Promise<{ code: number | null; output: string }> {
    const child = spawn(process.execPath, [require.resolve('tsx/cli'), 'development/ingest/simulate.ts', ...args], {
      cwd: root,
      env: { ...process.env, INGEST_EVENTHUB_CONNECTION: hub.connectionString(), INGEST_EVENTHUB_NAME: 'club-data' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
  }

  it('sends a training evening in order, with the origin headers, through the real producer', async () => {
    const startsAt = '2026-11-20T18:30:00.000Z';
    const { code, output } = await simulate(['--club', '4711', '--evening', '--shooters', '5', '--start', startsAt]);
    expect({ code, output }).toMatchObject({ code: 0 });
    const expected = trainingEvening({ clubId: '4711', startsAt: new Date(startsAt), shooters: 5, seed: 1 });
    expect(output).toContain(`Sent ${expected.length} event(s) to club-data`);

    const received: ReceivedEventData[] = [];
    for (const partitionId of ['0', '1', '2', '3']) {
      const properties = await consumer.getPartitionProperties(partitionId);
      const count = properties.lastEnqueuedSequenceNumber + 1;
      if (count > 0) received.push(...(await receive(consumer, partitionId, count, earliestEventPosition)));
    }
    expect(received).toHaveLength(expected.length);
    for (const topic of ['club.4711.shooters', 'club.4711.hits']) {
      const inTopic = received.filter((event) => event.properties?.['sourceTopic'] === topic);
      // One partition per topic, in the order the connector committed them.
      expect(new Set(inTopic.map((event) => event.partitionKey))).toEqual(new Set([topic]));
      expect(inTopic.map((event) => event.body as unknown)).toEqual(
        expected.filter((event) => event.topic === topic).map((event) => event.body as unknown),
      );
      expect(inTopic.every((event) => event.properties?.['sourceClubId'] === '4711')).toBe(true);
    }
  }, 60_000);

  it('refuses to run without a club', async () => {
    const { code, output } = await simulate([]);
    expect(code).toBe(2);
    expect(output).toContain('Usage: npm run ingest:simulate -- --club <vereinsId>');
  }, 30_000);
});
