import { createRecorder, formatFigures, percentile } from '../../development/soak/stats';

describe('soak figures', () => {
  it('percentile uses the nearest rank: p50 of 1..100 is 50, p99 is 99, and an empty list is 0', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 0.5)).toBe(50);
    expect(percentile(sorted, 0.99)).toBe(99);
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([], 0.5)).toBe(0);
  });

  it('counts answers per status and busy answers that came without Retry-After', () => {
    const recorder = createRecorder();
    recorder.record('GET /a', 200, 10);
    recorder.record('GET /a', 503, 30, true);
    recorder.record('GET /a', 503, 20, false);
    recorder.record('GET /a', 0, 5);
    const [figure] = recorder.figures();
    expect(figure).toMatchObject({ route: 'GET /a', count: 4, statuses: { 0: 1, 200: 1, 503: 2 }, busyWithoutRetryAfter: 1, maxMs: 30 });
    expect(formatFigures(recorder.figures())).toMatch(/^route\s+count\s+p50 ms.*\nGET \/a\s+4\s+/);
  });
});
