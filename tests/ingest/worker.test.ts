import type { LocalEventHubs } from '../../development/local/eventHubs/localEventHubs';
import { getSql } from '../../shared/db/client';
import { runEventBatch } from '../../shared/ingest/eventRunner';
import type { IngestWorker, IngestWorkerOptions } from '../../shared/ingest/worker';
import type { TableCheckpointStore } from '../../shared/ingest/checkpointStore';
import { partitionForKey } from '../../development/local/eventHubs/partitionKey';
import { topicFor } from '../../development/ingest/debeziumEvents';
import { whileDatabaseRefuses } from './injectedFailure';
import {
  checkpointStore,
  eventually,
  GROUP,
  hitEvents,
  hitValues,
  HUB,
  publish,
  startHub,
  startTestWorker,
  uniqueClub,
} from './workerSupport';
import { useIngestTablesInTurn } from './exclusive';

/** The core's batch step, noting the sequence numbers of each batch it is given in `seen`. */
const recordingBatches =
  (seen: number[][]): IngestWorkerOptions['applyBatch'] =>
  (db, messages, options, log) => {
    seen.push(messages.map((message) => message.sequenceNumber ?? -1));
    return runEventBatch(db, messages, options, log);
  };

/**
 * The staging worker against the local hub (real SDK), Azurite (checkpoint table) and PostgreSQL.
 * Every test has its own hub, checkpoint table and club.
 */
describe('staging ingest worker', () => {
  useIngestTablesInTurn();
  let hub: LocalEventHubs;
  let store: TableCheckpointStore;
  const workers: IngestWorker[] = [];
  const sql = () => getSql();

  beforeEach(async () => {
    hub = await startHub();
    store = checkpointStore();
  });

  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.stop();
    await hub.close();
  });

  const start = async (overrides: Parameters<typeof startTestWorker>[3] = {}) => {
    const worker = await startTestWorker(sql(), hub, store, overrides);
    workers.push(worker);
    return worker;
  };

  const checkpointed = async () =>
    new Map((await store.listCheckpoints(hub.host, HUB, GROUP)).map((checkpoint) => [checkpoint.partitionId, checkpoint.sequenceNumber]));

  it('starts from the earliest event when the group has no checkpoint and checkpoints what it applied', async () => {
    const club = uniqueClub();
    const events = hitEvents(club, 40);
    await publish(hub, events);
    const worker = await start();

    const values = await eventually(async () => {
      const found = await hitValues(sql(), club);
      return found.size === 40 ? found : undefined;
    });
    expect(values.get('7')).toBe(7.5);
    // One club's hits share a partition key: one partition holds all 40 (sequence numbers 0..39).
    await eventually(async () => [...(await checkpointed()).values()].includes(39));
    expect(worker.applied).toBe(40);
    const [row]: [{ workerState: string; runnerKind: string }?] = await sql()`
      select worker_state as "workerState", runner_kind as "runnerKind" from ingest_runner_status where runner_id = ${worker.runner.id}`;
    expect(row).toEqual({ workerState: 'running', runnerKind: 'worker' });
  });

  it('delivers a batch again after processing it threw, and never skips it', async () => {
    const club = uniqueClub();
    const seen: number[][] = [];
    let failures = 1;
    const applyBatch: IngestWorkerOptions['applyBatch'] = async (db, messages, options, log) => {
      seen.push(messages.map((message) => message.sequenceNumber ?? -1));
      if (failures > 0) {
        failures -= 1;
        throw new Error('database connection lost');
      }
      return runEventBatch(db, messages, options, log);
    };
    await publish(hub, hitEvents(club, 25));
    const worker = await start({ applyBatch });

    await eventually(async () => (await hitValues(sql(), club)).size === 25);
    const [failed, ...later] = seen;
    // The failed batch's first event is delivered again (from the checkpoint: nothing was checkpointed).
    expect(later.some((batch) => batch[0] === failed![0])).toBe(true);
    expect(new Set(later.flat())).toEqual(new Set(Array.from({ length: 25 }, (_, index) => index)));
    const [row]: [{ lastErrorMessage: string | null }?] = await sql()`
      select last_error_message as "lastErrorMessage" from ingest_runner_status where runner_id = ${worker.runner.id}`;
    // The next applied batch cleared the error the failed one recorded.
    expect(row?.lastErrorMessage ?? null).toBeNull();
  });

  it('checkpoints a position only once the core committed it, and after a failed checkpoint write delivers again from the last one written', async () => {
    const club = uniqueClub();
    const seen: number[][] = [];
    const applyBatch = recordingBatches(seen);
    // Each write is checked against the table of hits when it starts; the second one fails.
    const writes: { sequenceNumber: number; committed: boolean }[] = [];
    const write = store.updateCheckpoint.bind(store);
    store.updateCheckpoint = async (checkpoint) => {
      const values = await hitValues(sql(), club);
      // Record i is the event with sequence number i - 1: every event up to this one is in.
      const committed = Array.from({ length: checkpoint.sequenceNumber + 1 }, (_, index) => values.has(String(index + 1))).every(Boolean);
      writes.push({ sequenceNumber: checkpoint.sequenceNumber, committed });
      if (writes.length === 2) throw new Error('storage unavailable');
      await write(checkpoint);
    };
    await publish(hub, hitEvents(club, 40));
    await start({ applyBatch });

    await eventually(async () => [...(await checkpointed()).values()].includes(39));
    expect(writes.length).toBeGreaterThan(2);
    expect(writes.filter((entry) => !entry.committed)).toEqual([]);
    // The events of the batch whose position never reached the table are delivered again.
    const lost = writes[1]!.sequenceNumber;
    expect(seen.filter((batch) => batch.includes(lost)).length).toBeGreaterThanOrEqual(2);
    expect((await hitValues(sql(), club)).size).toBe(40);
  });

  it('writes the checkpoint again when the write of the last batch failed and nothing else arrives', async () => {
    const club = uniqueClub();
    const seen: number[][] = [];
    const applyBatch = recordingBatches(seen);
    let failed = false;
    const write = store.updateCheckpoint.bind(store);
    store.updateCheckpoint = async (checkpoint) => {
      if (checkpoint.sequenceNumber === 9 && !failed) {
        failed = true;
        throw new Error('storage unavailable');
      }
      await write(checkpoint);
    };
    await publish(hub, hitEvents(club, 10));
    await start({ applyBatch });

    await eventually(async () => [...(await checkpointed()).values()].includes(9));
    expect(failed).toBe(true);
    expect(seen.filter((batch) => batch.includes(9)).length).toBe(2);
  });

  it('sets an event the database refuses aside as a dead letter and applies and checkpoints the rest', async () => {
    const club = uniqueClub();
    const events = hitEvents(club, 20);
    (events[7]!.body!.after as { discipline: string }).discipline = 'poison';
    await whileDatabaseRefuses(sql(), { table: 'club_data_hit', club, errcode: '23514', poisonOnly: true }, async () => {
      await publish(hub, events);
      await start();
      await eventually(async () => [...(await checkpointed()).values()].includes(19));
    });
    const values = await hitValues(sql(), club);
    expect(values.size).toBe(19);
    expect(values.has('8')).toBe(false);
    const letters = await sql()<{ sqlState: string; sequenceNumber: number; runnerId: string }[]>`
      select sql_state as "sqlState", sequence_number::int as "sequenceNumber", runner_id as "runnerId"
      from ingest_dead_letter where club_id = ${club}`;
    expect(letters.map(({ sqlState, sequenceNumber }) => ({ sqlState, sequenceNumber }))).toEqual([
      { sqlState: '23514', sequenceNumber: 7 },
    ]);
    expect(letters[0]?.runnerId).toMatch(/^worker:/);
  });

  it('shares the partitions between two replicas, and one takes over all of them when the other stops', async () => {
    // Two clubs per partition, so both replicas have work whichever partitions they hold.
    const clubs = clubsPerPartition(2, 4);
    const first = await start({ name: `replica-a-${clubs[0]}` });
    const second = await start({ name: `replica-b-${clubs[0]}` });
    await eventually(() => Promise.resolve(first.ownedPartitions().length === 2 && second.ownedPartitions().length === 2));
    expect([...first.ownedPartitions(), ...second.ownedPartitions()].sort()).toEqual(['0', '1', '2', '3']);

    await publish(
      hub,
      clubs.flatMap((club) => hitEvents(club, 12)),
    );
    await eventually(async () => {
      const sizes = await Promise.all(clubs.map(async (club) => (await hitValues(sql(), club)).size));
      return sizes.every((size) => size === 12);
    });
    expect(first.applied).toBeGreaterThan(0);
    expect(second.applied).toBeGreaterThan(0);

    await first.stop();
    workers.splice(workers.indexOf(first), 1);
    await eventually(() => Promise.resolve(second.ownedPartitions().length === 4));
    // Updates after the hand-over: a new value per record, applied by the remaining replica.
    const updates = clubs.flatMap((club) => hitEvents(club, 12).map((event) => ({ ...event, body: { ...event.body!, op: 'u' as const } })));
    await publish(hub, updates);
    // Every event of every partition checkpointed.
    await eventually(async () => [...(await checkpointed()).values()].reduce((sum, seq) => sum + seq + 1, 0) === 8 * 24);
    for (const club of clubs) {
      const values = await hitValues(sql(), club);
      expect(values.size).toBe(12);
      // Whichever replica applied an event, each row ends with the value its newest event carries.
      for (const [record, value] of values) expect(value).toBe((Number(record) % 10) + 0.5);
    }
    expect(first.applied + second.applied).toBeGreaterThanOrEqual(8 * 24);
  });

  it('finishes the batch in hand when stopped, checkpoints it and marks its row stopped', async () => {
    const club = uniqueClub();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered: (sequences: number[]) => void = () => undefined;
    const inHand = new Promise<number[]>((resolve) => (entered = resolve));
    const applyBatch: IngestWorkerOptions['applyBatch'] = async (db, messages, options, log) => {
      entered(messages.map((message) => message.sequenceNumber ?? -1));
      await gate;
      return runEventBatch(db, messages, options, log);
    };
    await publish(hub, hitEvents(club, 10));
    const worker = await start({ applyBatch });
    // However many events the first batch holds, it is the one in hand when the stop begins.
    const sequences = await inHand;
    const stopping = worker.stop();
    workers.splice(workers.indexOf(worker), 1);
    release();
    await stopping;

    const applied = [...(await hitValues(sql(), club)).keys()].map(Number).sort((a, b) => a - b);
    // Record i is the event with sequence number i - 1: exactly the batch in hand was applied...
    expect(applied).toEqual(sequences.map((sequence) => sequence + 1));
    // ...and checkpointed; what came after stays behind the checkpoint for the next start.
    expect([...(await checkpointed()).values()]).toEqual([sequences.at(-1)]);
    const [row]: [{ workerState: string }?] = await sql()`
      select worker_state as "workerState" from ingest_runner_status where runner_id = ${worker.runner.id}`;
    expect(row?.workerState).toBe('stopped');
  });
});

/** Club ids whose hits topics land `perPartition` on each of `partitions` partitions (the local hub's key hash). */
function clubsPerPartition(perPartition: number, partitions: number): string[] {
  const counts = new Array<number>(partitions).fill(0);
  const clubs: string[] = [];
  while (clubs.length < perPartition * partitions) {
    const club = uniqueClub();
    const partition = partitionForKey(topicFor(club, 'hits'), partitions);
    if ((counts[partition] ?? 0) >= perPartition) continue;
    counts[partition] = (counts[partition] ?? 0) + 1;
    clubs.push(club);
  }
  return clubs;
}
