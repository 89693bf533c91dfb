import type { BackfillStatusRow } from '../../shared/ingest/backfillStatusRepository';
import { backfillHealth, publicIngestHealth, summariseIngestHealth } from '../../shared/ingest/health';

const now = new Date('2026-03-01T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

function row(overrides: Partial<BackfillStatusRow>): BackfillStatusRow {
  return {
    consumerGroup: 'shooting-club-backfill',
    kind: 'records',
    scope: {
      records: [
        { clubId: '4711', recordId: '9001' },
        { clubId: '4711', recordId: '9002' },
        { clubId: '4712', recordId: '1' },
      ],
    },
    fresh: false,
    state: 'running',
    eventsRead: 40,
    eventsApplied: 2,
    eventsSkipped: 38,
    rowsWritten: 2,
    lagLeft: 60,
    progressIntervalMs: 2000,
    startedAt: ago(120_000),
    updatedAt: ago(1000),
    finishedAt: null,
    errorMessage: null,
    ...overrides,
  };
}

describe('backfills in the ingest health', () => {
  it('names the clubs of the scope once each', () => {
    expect(backfillHealth(row({}), now).clubIds).toEqual(['4711', '4712']);
    expect(backfillHealth(row({ kind: 'shooters', scope: { clubIds: ['4711'] } }), now).clubIds).toEqual(['4711']);
  });

  it('calls a running backfill stale after 5 progress intervals without an update, at least 30 s', () => {
    expect(backfillHealth(row({ updatedAt: ago(29_000) }), now).stale).toBe(false);
    expect(backfillHealth(row({ updatedAt: ago(31_000) }), now)).toMatchObject({ state: 'running', stale: true });
    // A slower progress interval waits longer: 5 × 20 s.
    expect(backfillHealth(row({ updatedAt: ago(90_000), progressIntervalMs: 20_000 }), now).stale).toBe(false);
    expect(backfillHealth(row({ updatedAt: ago(101_000), progressIntervalMs: 20_000 }), now).stale).toBe(true);
    // A finished backfill is never stale, however old.
    const done = row({ state: 'done', lagLeft: 0, updatedAt: ago(3_600_000), finishedAt: ago(3_600_000) });
    expect(backfillHealth(done, now)).toMatchObject({ state: 'done', stale: false, finishedAt: ago(3_600_000).toISOString() });
  });

  it('lists them only in the detailed view, also while no runner has written a status record', () => {
    const detailed = summariseIngestHealth([], new Map(), [], true, now, [row({})]);
    expect(detailed.backfills).toEqual([expect.objectContaining({ consumerGroup: 'shooting-club-backfill', lagLeft: 60 })]);
    expect(publicIngestHealth(detailed)).not.toHaveProperty('backfills');
    expect(summariseIngestHealth([], new Map(), [], false, now, [row({})])).not.toHaveProperty('backfills');
  });
});
