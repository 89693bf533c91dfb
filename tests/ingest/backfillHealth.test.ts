import type { Checkpoint } from '@azure/event-hubs';
import * as v from 'valibot';
import { startLocalEventHubs, type LocalEventHubs } from '../../development/local/eventHubs/localEventHubs';
import { overrideSettings } from '../../shared/config/settings';
import { getSql, type Sql } from '../../shared/db/client';
import { BackfillFailedError, BackfillRefusedError, runBackfill, type BackfillOptions } from '../../shared/ingest/backfill';
import { TableCheckpointStore } from '../../shared/ingest/checkpointStore';
import type { BackfillHealth } from '../../shared/ingest/health';
import { IngestHealthSchema } from '../../shared/ingest/healthSchema';
import { createLogger } from '../../shared/log/logger';
import { createTableClient } from '../../shared/storage/tables';
import { useIngestTablesExclusively } from './exclusive';
import { inlineSchemaRefs, type OpenApiDocument } from '../support/openApiDocument';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { eventually, FAST_BALANCING, HUB, publish, quarantine, shooterEvents, uniqueClub, uniqueTag } from './workerSupport';
import { TEST_THRESHOLDS } from './fixtures';

/** A checkpoint store whose writes can be held (to look at a running backfill) or made to fail. */
class ControlledStore extends TableCheckpointStore {
  hold: Promise<void> | null = null;
  failWith: Error | null = null;
  override async updateCheckpoint(checkpoint: Checkpoint): Promise<void> {
    if (this.hold) await this.hold;
    if (this.failWith) throw this.failWith;
    return super.updateCheckpoint(checkpoint);
  }
}

/** A backfill's status row, as the ingest health lists it, through GET /healthz/ingest. */
describe('backfill status in the ingest health', () => {
  useIngestTablesExclusively();
  let hub: LocalEventHubs;
  let restoreSettings: () => void;
  const tag = uniqueTag();
  const groups = { done: `bf-${tag}-done`, failed: `bf-${tag}-failed`, refused: `bf-${tag}-refused`, unwritten: `bf-${tag}-unwritten` };
  const clubA = uniqueClub();
  const clubB = uniqueClub();
  const warnings: string[] = [];

  const store = () =>
    new ControlledStore(
      createTableClient({ kind: 'connectionString', connectionString: process.env['AzureWebJobsStorage'] ?? '' }, `ckpt${uniqueTag()}`),
    );

  const backfill = (overrides: Partial<BackfillOptions>) =>
    runBackfill({
      sql: getSql(),
      connection: { kind: 'connectionString', connectionString: hub.connectionString() },
      eventHubName: HUB,
      consumerGroup: groups.done,
      fresh: true,
      force: false,
      checkpointStore: store(),
      selection: { kind: 'shooters', clubIds: [clubA] },
      apply: {
        thresholds: TEST_THRESHOLDS,
        rejectLogMax: 1000,
      },
      maxBatchSize: 50,
      progressIntervalMs: 20,
      onProgress: () => undefined,
      loadBalancing: FAST_BALANCING,
      log: createLogger({ sink: (_level, line) => warnings.push(line) }),
      ...overrides,
    });

  const health = async (headers: Record<string, string> = {}) => {
    const response = await host.request('GET', '/healthz/ingest', { headers });
    return (await response.json()) as Record<string, unknown>;
  };
  const adminHeaders = () => bearer('admin-backfill', { roles: ['platform_admin'] });
  const listed = (body: Record<string, unknown>, group: string) =>
    (body['backfills'] as BackfillHealth[] | undefined)?.find((entry) => entry.consumerGroup === group);

  beforeAll(async () => {
    hub = await startLocalEventHubs({
      port: 0,
      eventHubs: { [HUB]: { partitionCount: 2, consumerGroups: Object.values(groups) } },
    });
    await publish(hub, [...shooterEvents(clubA, ['Anna', 'Bert', 'Cleo']), ...shooterEvents(clubB, ['Dora', 'Emil'])]);
    restoreSettings = overrideSettings({ SVC_INGEST_STATUS_ENABLED: 'true' });
  });
  const host = useTestHost();

  afterAll(async () => {
    await hub.close();
    restoreSettings();
  });

  it('shows a running backfill with its lag, then done with its counts and lag 0', async () => {
    const checkpoints = store();
    let release: () => void = () => undefined;
    checkpoints.hold = new Promise((resolve) => (release = resolve));
    const run = backfill({ checkpointStore: checkpoints });
    try {
      // The first batch waits for its checkpoint: the backfill is running, nothing read yet.
      const running = await eventually(async () => {
        const entry = listed(await health(await adminHeaders()), groups.done);
        return entry?.lagLeft === 5 ? entry : undefined;
      });
      expect(running).toMatchObject({ kind: 'shooters', clubIds: [clubA], fresh: true, state: 'running', stale: false, eventsRead: 0 });
      expect(running.finishedAt).toBeNull();
    } finally {
      release();
    }
    await expect(run).resolves.toMatchObject({ read: 5, applied: 3, lagLeft: 0 });

    const done = listed(await health(await adminHeaders()), groups.done);
    expect(done).toMatchObject({
      state: 'done',
      stale: false,
      lagLeft: 0,
      eventsRead: 5,
      eventsApplied: 3,
      eventsSkipped: 2,
      errorMessage: null,
    });
    expect(Date.parse(done?.finishedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(done?.startedAt ?? ''));
    expect(warnings).toEqual([]);
  });

  it('leaves failed with the error when a batch cannot be checkpointed', async () => {
    const checkpoints = store();
    checkpoints.failWith = new Error('checkpoint table unavailable');
    await expect(backfill({ consumerGroup: groups.failed, checkpointStore: checkpoints })).rejects.toBeInstanceOf(BackfillFailedError);
    const failed = listed(await health(await adminHeaders()), groups.failed);
    expect(failed).toMatchObject({ state: 'failed', stale: false, eventsRead: 0 });
    expect(failed?.errorMessage).toContain('checkpoint table unavailable');
    expect(failed?.finishedAt).not.toBeNull();
  });

  it('leaves refused with the quarantine it met when one is open for the scope', async () => {
    const restore = await quarantine(getSql(), clubB);
    try {
      await expect(
        backfill({ consumerGroup: groups.refused, selection: { kind: 'records', records: [{ clubId: clubB, recordId: '100' }] } }),
      ).rejects.toBeInstanceOf(BackfillRefusedError);
    } finally {
      await restore();
    }
    const refused = listed(await health(await adminHeaders()), groups.refused);
    expect(refused).toMatchObject({ kind: 'records', clubIds: [clubB], state: 'refused', lagLeft: null, eventsRead: 0 });
    expect(refused?.errorMessage).toContain(`A quarantine is open for club.${clubB}.shooters`);
  });

  it('goes on when its status cannot be written, with a warning', async () => {
    const real = getSql();
    // Every statement passes, except those on the status table.
    const sql: Sql = new Proxy(real, {
      apply: (target, self, args: unknown[]): unknown =>
        Array.isArray(args[0]) && args[0].join('').includes('ingest_backfill_status')
          ? Promise.reject(new Error('permission denied for table ingest_backfill_status'))
          : Reflect.apply(target, self, args),
    });
    const logged: string[] = [];
    await expect(
      backfill({ sql, consumerGroup: groups.unwritten, log: createLogger({ sink: (_level, line) => logged.push(line) }) }),
    ).resolves.toMatchObject({ read: 5, applied: 3, lagLeft: 0 });
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.every((line) => line.includes('ingest_backfill_status_write_failed'))).toBe(true);
    expect(listed(await health(await adminHeaders()), groups.unwritten)).toBeUndefined();
  });

  it.each(['platform_admin', 'ops_admin'])('lists them, newest update first, for %s (ingest.details)', async (role) => {
    const body = await health(await bearer('admin-backfill', { roles: [role] }));
    expect(v.safeParse(IngestHealthSchema, body).issues).toBeUndefined();
    const states = Object.fromEntries(Object.values(groups).map((group) => [group, listed(body, group)?.state]));
    expect(states).toEqual({
      [groups.done]: 'done',
      [groups.failed]: 'failed',
      [groups.refused]: 'refused',
      [groups.unwritten]: undefined,
    });
    // Newest update first.
    const updated = (body['backfills'] as BackfillHealth[]).map((entry) => Date.parse(entry.updatedAt));
    expect(updated).toEqual([...updated].sort((a, b) => b - a));
  });

  it('lists them in the diagnostics summary', async () => {
    const summary = await host.request('GET', '/api/admin/diagnostics/summary', { headers: await adminHeaders() });
    expect(summary.status).toBe(200);
    expect(listed(((await summary.json()) as { ingest: Record<string, unknown> }).ingest, groups.failed)?.state).toBe('failed');
  });

  it.each([
    ['an anonymous caller', () => Promise.resolve({})],
    ['a member without platform role', () => bearer('member-backfill', { roles: [] })],
  ])('never lists them for %s', async (_who, headersOf: () => Promise<Record<string, string>>) => {
    const body = await health(await headersOf());
    expect(v.safeParse(IngestHealthSchema, body).issues).toBeUndefined();
    expect(body).not.toHaveProperty('backfills');
    expect(JSON.stringify(body)).not.toContain(tag);
  });

  it('leaves them out of /healthz', async () => {
    const overall = await host.request('GET', '/healthz');
    expect(JSON.stringify(await overall.json())).not.toContain(tag);
  });

  it('documents the backfills in the OpenAPI document of /healthz/ingest', async () => {
    const document = inlineSchemaRefs((await (await host.request('GET', '/api/openapi.json')).json()) as OpenApiDocument);
    const schema = document.paths['/healthz/ingest']?.['get']?.responses['200']?.content?.['application/json']?.schema;
    const item = schema?.properties?.['backfills']?.items;
    expect(Object.keys(item?.properties ?? {})).toEqual(
      expect.arrayContaining(['consumerGroup', 'kind', 'state', 'stale', 'lagLeft', 'eventsRead', 'eventsApplied', 'errorMessage']),
    );
    expect(schema?.required).not.toContain('backfills');
  });
});
