import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { EventHubConsumerClient } from '@azure/event-hubs';
import type { LocalEventHubs } from '../../development/local/eventHubs/localEventHubs';
import { getSql } from '../../shared/db/client';
import { BackfillRefusedError, runBackfill, type BackfillOptions, type BackfillProgress } from '../../shared/ingest/backfill';
import type { TableCheckpointStore } from '../../shared/ingest/checkpointStore';
import { sampleGroupLag } from '../../shared/ingest/lag';
import { runCommandInProcess } from '../support/commandInProcess';
import { useIngestTablesExclusively } from './exclusive';
import { TEST_THRESHOLDS } from './fixtures';
import {
  BACKFILL_GROUP,
  checkpointStore,
  FAST_BALANCING,
  hitEvents,
  hitValues,
  HUB,
  publish,
  quarantine,
  shooterEvents,
  shooterNames,
  startHub,
  uniqueClub,
  uniqueTag,
} from './workerSupport';

const root = path.resolve(__dirname, '..', '..');

/** Replays from the local hub with a consumer group of its own, applying only the selected records. */
describe('backfill and replay', () => {
  // It opens quarantines: the files that reset the ingest status tables must not run meanwhile.
  useIngestTablesExclusively();
  let hub: LocalEventHubs;
  let store: TableCheckpointStore;
  const table = `ckpt${uniqueTag()}`;
  const clubA = uniqueClub();
  const clubB = uniqueClub();

  beforeAll(async () => {
    hub = await startHub();
    store = checkpointStore(table);
    // Nothing consumes these: the rows appear only through the backfill.
    await publish(hub, [
      ...shooterEvents(clubA, ['Anna', 'Bert', 'Cleo']),
      ...shooterEvents(clubB, ['Dora', 'Emil']),
      ...hitEvents(clubA, 5),
    ]);
  });

  afterAll(async () => {
    await hub.close();
  });

  const backfill = (overrides: Partial<BackfillOptions>) =>
    runBackfill({
      sql: getSql(),
      connection: { kind: 'connectionString', connectionString: hub.connectionString() },
      eventHubName: HUB,
      consumerGroup: BACKFILL_GROUP,
      fresh: false,
      force: false,
      checkpointStore: store,
      selection: { kind: 'shooters', clubIds: [clubA] },
      apply: {
        thresholds: TEST_THRESHOLDS,
        rejectLogMax: 1000,
      },
      maxBatchSize: 50,
      progressIntervalMs: 100,
      onProgress: () => undefined,
      loadBalancing: FAST_BALANCING,
      ...overrides,
    });

  it('applies only the selected club’s shooters with the stable group, keeping its checkpoints so its lag is observable', async () => {
    const progress: BackfillProgress[] = [];
    const summary = await backfill({ progressIntervalMs: 1, onProgress: (line) => progress.push(line) });
    // The progress lines while it ran: what was read and what is left always add up to the backlog.
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((line) => line.read + line.lagLeft === 10 && line.applied + line.skipped === line.read)).toBe(true);
    expect(summary).toMatchObject({
      read: 10,
      applied: 3,
      written: 3,
      skipped: 7,
      lagLeft: 0,
      consumerGroup: BACKFILL_GROUP,
      fresh: false,
    });
    expect(await shooterNames(getSql(), clubA)).toEqual(['Anna', 'Bert', 'Cleo']);
    expect(await shooterNames(getSql(), clubB)).toEqual([]);
    expect((await hitValues(getSql(), clubA)).size).toBe(0);

    const client = new EventHubConsumerClient(BACKFILL_GROUP, hub.connectionString(), HUB);
    try {
      const lag = await sampleGroupLag(client, store, BACKFILL_GROUP, new Date());
      expect(lag.map((sample) => sample.lag)).toEqual([0, 0, 0, 0]);
      expect(lag.some((sample) => sample.checkpointSequenceNumber !== null)).toBe(true);
    } finally {
      await client.close();
    }

    // The same group again: it continues from its checkpoints, so only what arrived since is read.
    expect(await backfill({})).toMatchObject({ read: 0, applied: 0 });
    await publish(hub, shooterEvents(clubA, ['Anna Maria'], 'u'));
    expect(await backfill({})).toMatchObject({ read: 1, applied: 1, written: 1 });
    expect(await shooterNames(getSql(), clubA)).toEqual(['Anna Maria', 'Bert', 'Cleo']);
  });

  it('replays from offset 0 with a fresh group, the core leaving rows that are already newer alone', async () => {
    const summary = await backfill({ fresh: true });
    expect(summary).toMatchObject({ read: 11, applied: 4, written: 0, skipped: 7, fresh: true });
    expect(await shooterNames(getSql(), clubA)).toEqual(['Anna Maria', 'Bert', 'Cleo']);
  });

  it('applies single records named club:record, of any entity', async () => {
    const summary = await backfill({
      fresh: true,
      consumerGroup: 'fresh-replay',
      selection: {
        kind: 'records',
        records: [
          { clubId: clubB, recordId: '101' },
          { clubId: clubA, recordId: '3' },
        ],
      },
    });
    expect(summary).toMatchObject({ read: 11, applied: 2, written: 2 });
    expect(await shooterNames(getSql(), clubB)).toEqual(['Emil']);
    expect([...(await hitValues(getSql(), clubA)).keys()]).toEqual(['3']);
  });

  it('refuses while a quarantine for the same scope is open, unless forced', async () => {
    const restore = await quarantine(getSql(), clubA);
    try {
      await expect(backfill({ fresh: true })).rejects.toBeInstanceOf(BackfillRefusedError);
      // Another club is another scope.
      await expect(backfill({ fresh: true, selection: { kind: 'shooters', clubIds: [clubB] } })).resolves.toMatchObject({ applied: 2 });
      await expect(backfill({ fresh: true, force: true })).resolves.toMatchObject({
        read: 11,
        applied: 4,
        forcedPast: { clubId: clubA, entity: 'shooters', reason: 'origin_mismatch' },
      });
    } finally {
      await restore();
    }
  });

  it('as a command: exit 3 when refused, 0 with a summary when forced, 2 on bad arguments', async () => {
    const settings = {
      INGEST_EVENTHUB_CONNECTION: hub.connectionString(),
      INGEST_EVENTHUB_NAME: HUB,
      INGEST_CHECKPOINT_TABLE: table,
      INGEST_BACKFILL_CONSUMER_GROUP: BACKFILL_GROUP,
    };
    // `npm run ingest:backfill-shooters` started as an operator starts it (about two CPU-seconds a
    // start through tsx); the other calls run the same command in this process.
    const runInProcess = async (...args: string[]) => {
      const outcome = await runCommandInProcess(args, { ...process.env, ...settings });
      return { code: outcome.code, output: outcome.stdout + outcome.stderr };
    };
    const run = async (...args: string[]) => {
      try {
        const { stdout, stderr } = await promisify(execFile)(
          process.execPath,
          [require.resolve('tsx/cli'), 'development/ops.ts', ...args],
          {
            cwd: root,
            env: { ...process.env, ...settings },
          },
        );
        return { code: 0, output: stdout + stderr };
      } catch (error) {
        const failed = error as { code: number; stdout: string; stderr: string };
        return { code: failed.code, output: failed.stdout + failed.stderr };
      }
    };
    const restore = await quarantine(getSql(), clubA);
    try {
      const refused = await run('ingest:backfill-shooters', clubA, '--new-group');
      expect(refused.code).toBe(3);
      expect(refused.output).toContain(`Refused: A quarantine is open for club.${clubA}.shooters`);
      const forced = await runInProcess('ingest:backfill-shooters', clubA, '--new-group', '--force');
      expect(forced.output).toMatch(/Done in [\d.]+ s over 4 partition\(s\): read 11, applied 4, written 0, skipped 7, lag left 0/);
      expect(forced.output).toContain(`Forced past the open quarantine of club.${clubA}.shooters`);
      expect(forced.code).toBe(0);
    } finally {
      await restore();
    }
    const usage = await runInProcess('ingest:backfill', clubA);
    expect(usage.code).toBe(2);
    expect(usage.output).toContain('Usage: ingest:backfill <clubId>:<recordId>');
  }, 60_000);
});
