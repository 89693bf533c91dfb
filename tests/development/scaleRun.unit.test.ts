import { statementKind } from '../../development/scale/dbActivity';
import { formatReport, percentile, sustained, appliedRates, drainRates, type ScaleFigures } from '../../development/scale/figures';
import { HIT_COPY_COLUMNS, hitCopyLine, preloadMonths, PRELOAD_MONTHS } from '../../development/scale/hitRows';
import { liveHit } from '../../development/scale/liveHits';
import { parseScaleOptions, scaleDatabaseName } from '../../development/scale/options';

const shape = { catalogClubs: 100, shootersPerClub: 5 };
const now = new Date('2026-11-27T23:00:00.000Z');

describe('federation run: preloaded hits', () => {
  const months = preloadMonths(10_003, now);

  it('spreads the rows over thirteen months up to the current one, every row in exactly one', () => {
    expect(months).toHaveLength(PRELOAD_MONTHS);
    expect(months[0]?.partition).toBe('club_data_hit_p2025_11');
    expect(months[PRELOAD_MONTHS - 1]?.partition).toBe('club_data_hit_p2026_11');
    expect(months.reduce((sum, month) => sum + month.rows, 0)).toBe(10_003);
    months.slice(1).forEach((month, index) => expect(month.firstRow).toBe(months[index]!.firstRow + months[index]!.rows));
  });

  it('writes one line per row with every column, arriving inside its month and never in the future', () => {
    for (const month of months) {
      for (const index of [month.firstRow, month.firstRow + month.rows - 1]) {
        const fields = hitCopyLine(index, month, shape).trimEnd().split('\t');
        expect(fields).toHaveLength(HIT_COPY_COLUMNS.length);
        const createdAt = Date.parse(fields[2]!);
        expect(createdAt).toBeGreaterThanOrEqual(month.start.getTime());
        expect(createdAt).toBeLessThan(Math.min(month.end.getTime(), now.getTime()));
        expect(Number(fields[8])).toBeLessThanOrEqual(10.9);
      }
    }
  });

  it('gives each club distinct record ids across the whole year, the same row each time', () => {
    const seen = new Set<string>();
    for (const month of months) {
      for (let index = month.firstRow; index < month.firstRow + month.rows; index += 1) {
        const [, club, , record] = hitCopyLine(index, month, shape).split('\t');
        seen.add(`${club}/${record}`);
      }
    }
    expect(seen.size).toBe(10_003);
    expect(hitCopyLine(42, months[0]!, shape)).toBe(hitCopyLine(42, months[0]!, shape));
  });
});

describe('federation run: live hits', () => {
  const live = { clubs: 10, shooters: 5, tracked: new Set([3]), firstRecord: 1_000_000, now: now.getTime() };

  it('lets the clubs take turns and never sends a tracked club’s last shooter, which the probes own', () => {
    const hits = Array.from({ length: 500 }, (_, k) => liveHit(k, live));
    expect(new Set(hits.map((hit) => hit.club)).size).toBe(10);
    expect(hits.some((hit) => hit.club === 3 && hit.row.shooter_id === 1005)).toBe(false);
    expect(hits.some((hit) => hit.club === 4 && hit.row.shooter_id === 1005)).toBe(true);
    expect(new Set(hits.map((hit) => hit.row.id)).size).toBe(500);
    expect(hits.every((hit) => hit.row.club_id === String(100_000 + hit.club * 10))).toBe(true);
  });
});

describe('federation run: figures', () => {
  it('takes percentiles by nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 0.95)).toBe(95);
    expect(percentile(values, 0.5)).toBe(50);
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([], 0.5)).toBeNaN();
  });

  const queue = (queued: number, oldestSeconds: number, queuedTotal: number, drainedTotal: number) => ({
    queued,
    oldestSeconds,
    queuedTotal,
    drainedTotal,
  });
  const samples = [
    { atSeconds: 0, sent: 0, applied: 0, drain: queue(0, 0, 100, 100) },
    { atSeconds: 5, sent: 10_000, applied: 9_000, drain: queue(2_000, 3.5, 6_100, 4_100) },
    { atSeconds: 10, sent: 20_000, applied: 14_000, drain: queue(4_000, 7.25, 12_100, 8_100) },
    { atSeconds: 15, sent: 20_000, applied: 20_000, drain: queue(0, 0, 12_100, 12_100) },
  ];

  it('counts sustained and per-interval rates within the send window only', () => {
    expect(sustained(samples, 10)).toEqual({ sentPerSecond: 2000, appliedPerSecond: 1400 });
    expect(appliedRates(samples, 10)).toEqual([1800, 1000]);
    expect(drainRates(samples, 10)).toEqual({ queuedPerSecond: 1200, drainedPerSecond: 800 });
  });

  it('has no drain rates where the queue was never read', () => {
    expect(
      drainRates(
        samples.map(({ drain: _drain, ...rest }) => rest),
        10,
      ),
    ).toBeNull();
  });

  it('marks each target met or missed in the markdown block', () => {
    const figures: ScaleFigures = {
      command: 'npm run scale',
      date: '2026-11-28 00:00 UTC',
      machine: '2 cores',
      preload: { hits: 50_000_000, partitions: 12, seconds: 1000, rowsPerSecond: 50_000, reused: false },
      catalogClubs: 14_000,
      members: 70_000,
      rate: 2000,
      seconds: 10,
      partitions: 8,
      samples,
      drainedAfterSeconds: 5,
      latenciesMs: [1000, 2000, 6000],
      probesUnseen: 0,
      freshnessMs: [400, 500, 600],
      leaderboard: { subjectMs: 1.2, baselineMs: 1 },
      inbox: { subjectMs: 1.5, baselineMs: 1 },
      retention: { partition: 'club_data_hit_p2025_11', dropMs: 30, skipped: false, insertWaitMs: 2, insertBaselineMs: 1 },
      bytesPerMillion: { heapMiB: 130, indexMiB: 160, totalMiB: 290, bytesPerHit: 304 },
      activity: [{ statement: 'commit', wait: 'IO:WALSync', share: 0.25 }],
    };
    const report = formatReport(figures);
    // Every figure beside its target's verdict, the lag curve and where the database waited.
    const expected = [
      '| events/s applied, sustained over the window | 1,400 | ≥ 8,000: **missed** |',
      'p95 ≤ 5,000 ms: **missed**',
      '≤ 1,000 ms: met',
      '1.20× (1.20 / 1.00 ms) | ≤ 1.3×: met',
      '1.50× (1.50 / 1.00 ms) | ≤ 1.3×: **missed**',
      '| progress drain: shooters/s queued / drained over the window | 1,200 / 800 | drained ≥ queued: **missed** |',
      '| progress drain: longest wait of a queued shooter | 7.3 s | — |',
      'Progress drain queue (shooters waiting, the longest wait) every 5 s: 0 s: 0 (0.0 s), 5 s: 2,000 (3.5 s), 10 s: 4,000 (7.3 s), 15 s: 0 (0.0 s).',
      '0 s: 0, 5 s: 1,000, 10 s: 6,000, 15 s: 0',
      '- 25 % `commit` (IO:WALSync)',
    ];
    expect(expected.filter((part) => !report.includes(part))).toEqual([]);
  });
});

describe('federation run: options', () => {
  it('defaults to the issue’s size and rate', () => {
    const options = parseScaleOptions([]);
    expect(options).toMatchObject({
      hits: 55_000_000,
      catalogClubs: 14_000,
      rate: 8000,
      seconds: 300,
      reuse: false,
      only: null,
      drop: false,
    });
    expect(scaleDatabaseName(options)).toBe('scale_14000c_55000000h');
  });

  it('refuses a bad value, naming the option', () => {
    expect(() => parseScaleOptions(['--rate', 'fast'])).toThrow('--rate must be a whole number');
    expect(() => parseScaleOptions(['--hits', '10'])).toThrow('--hits must be a whole number of at least 1000');
    expect(parseScaleOptions(['--hits', '1_000_000', '--reuse']).hits).toBe(1_000_000);
    expect(() => parseScaleOptions(['--only', 'everything'])).toThrow('--only must be preload, quiet or live');
    expect(parseScaleOptions(['--reuse', '--only', 'live']).only).toBe('live');
  });
});

describe('federation run: database activity', () => {
  it('groups statements by their first words, parameters and literals folded', () => {
    expect(statementKind("select   pg_advisory_xact_lock($1, k)\n  from x where a = 'b' and n = 42")).toBe(
      'select pg_advisory_xact_lock(?, k) from x where a = ? and n = ?',
    );
    expect(statementKind('x'.repeat(100))).toHaveLength(70);
  });
});
