import { findStaleBoxes } from '../../shared/clubMaster/staleBoxes';

const now = new Date('2026-03-01T12:00:00Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);

describe('findStaleBoxes', () => {
  it.each([
    ['reported just now', 0, false],
    ['reported 23 h ago', 23, false],
    ['reported exactly 24 h ago', 24, false],
    ['reported 24 h and a minute ago', 24 + 1 / 60, true],
    ['reported a week ago', 168, true],
  ])('%s with a 24 h window: stale %s', (_label, hours, stale) => {
    const result = findStaleBoxes([{ clubId: 'c1', lastReportedAt: hoursAgo(hours), edgeTokenLastUsedAt: null }], now, 24);
    expect(result.length === 1).toBe(stale);
  });

  it('lists the longest-silent box first with its figures', () => {
    const result = findStaleBoxes(
      [
        { clubId: 'b', lastReportedAt: hoursAgo(30), edgeTokenLastUsedAt: hoursAgo(2) },
        { clubId: 'a', lastReportedAt: hoursAgo(100), edgeTokenLastUsedAt: null },
        { clubId: 'c', lastReportedAt: hoursAgo(1), edgeTokenLastUsedAt: hoursAgo(1) },
      ],
      now,
      24,
    );
    expect(result).toEqual([
      { clubId: 'a', lastReportedAt: hoursAgo(100).toISOString(), edgeTokenLastUsedAt: null, hoursSinceReport: 100 },
      { clubId: 'b', lastReportedAt: hoursAgo(30).toISOString(), edgeTokenLastUsedAt: hoursAgo(2).toISOString(), hoursSinceReport: 30 },
    ]);
  });
});
