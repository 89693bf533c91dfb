import { performance } from 'node:perf_hooks';
import { EventHubProducerClient, type EventData } from '@azure/event-hubs';
import { changeEvent, toEventData, type HitRow } from '../ingest/debeziumEvents';
import { activeClubNumber } from './hitRows';
import { liveHit } from './liveHits';

/**
 * The sender of the federation run, in a process of its own: evenings of every shooting club at
 * once, hit events sent with EventHubProducerClient at a set rate, each club's events to one
 * partition (its topic's order kept), batched per partition every tick.
 * Arguments: connection string, hub, rate, seconds, clubs, shooters per club, partitions, the
 * tracked clubs (comma-separated; their last shooter is left to the probes), the first record id.
 * Sends `{ ready }` once connected, starts on `go`, answers `sent`, sends `{ done }` at the end.
 */
const TICK_MS = 100;

async function main(): Promise<void> {
  const [connection = '', hub = '', rateText, secondsText, clubsText, shootersText, partitionsText, trackedText = '', firstText] =
    process.argv.slice(2);
  const [rate, seconds, clubs, shooters, partitions, firstRecord] = [
    rateText,
    secondsText,
    clubsText,
    shootersText,
    partitionsText,
    firstText,
  ].map(Number) as [number, number, number, number, number, number];
  const tracked = new Set(trackedText.split(',').filter(Boolean).map(Number));
  const producer = new EventHubProducerClient(connection, hub);
  await producer.getPartitionIds();
  let sent = 0;
  let made = 0;
  process.on('message', (message: unknown) => {
    if (message === 'sent') process.send?.({ sent });
    if (message === 'go') void run();
  });
  process.send?.({ ready: true });

  async function run(): Promise<void> {
    const started = performance.now();
    const deadline = started + seconds * 1000;
    while (performance.now() < deadline) {
      const tickStarted = performance.now();
      const due = Math.min(Math.round(((tickStarted - started) / 1000) * rate), made + rate);
      const byPartition = new Map<number, EventData[]>();
      for (; made < due; made += 1) {
        const hit = liveHit(made, { clubs, shooters, tracked, firstRecord, now: Date.now() });
        const partition = hit.club % partitions;
        const events = byPartition.get(partition) ?? [];
        events.push(toEventData(changeEvent<HitRow>('hits', activeClubNumber(hit.club), 'c', { after: hit.row }, hit.position)));
        byPartition.set(partition, events);
      }
      await Promise.all([...byPartition].map(([partition, events]) => sendAll(producer, String(partition), events)));
      const waited = TICK_MS - (performance.now() - tickStarted);
      if (waited > 0) await new Promise((resolve) => setTimeout(resolve, waited));
    }
    process.send?.({ done: { sent, seconds: (performance.now() - started) / 1000 } });
  }

  async function sendAll(client: EventHubProducerClient, partitionId: string, events: EventData[]): Promise<void> {
    let index = 0;
    while (index < events.length) {
      const batch = await client.createBatch({ partitionId });
      while (index < events.length && batch.tryAdd(events[index] as EventData)) index += 1;
      await client.sendBatch(batch);
      sent += batch.count;
    }
  }

  process.on('message', (message: unknown) => {
    if (message === 'stop') void producer.close().finally(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`scale sender failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
