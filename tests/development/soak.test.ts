import { getSettings } from '../../shared/config/settings';
import { runSoak, USER_ROUTES, type PhaseResult } from '../../development/soak/soak';

// Three host processes started through tsx, a few seconds of traffic each.
jest.setTimeout(180_000);

/** Every answer of a phase: 2xx, or 503/429 with Retry-After; never another error, never no answer. */
function expectOnlyExpectedAnswers(phase: PhaseResult): void {
  for (const figure of phase.figures) {
    const unexpected = Object.keys(figure.statuses)
      .map(Number)
      .filter((status) => !(status >= 200 && status < 300) && status !== 503 && status !== 429);
    expect({ route: figure.route, unexpected }).toEqual({ route: figure.route, unexpected: [] });
    expect({ route: figure.route, busyWithoutRetryAfter: figure.busyWithoutRetryAfter }).toEqual({
      route: figure.route,
      busyWithoutRetryAfter: 0,
    });
  }
}

describe('npm run soak, a short run', () => {
  it('drives every route, answers only 2xx or 503/429 with Retry-After, applies every ingest batch, and reports memory', async () => {
    const caFile = process.env['NODE_EXTRA_CA_CERTS'] ?? '';
    const result = await runSoak({
      databaseUrl: getSettings().DATABASE_URL ?? '',
      storageConnection: process.env['AzureWebJobsStorage'] ?? '',
      caFile,
      seconds: 3,
      concurrency: 6,
      flood: { seconds: 2, reports: 8, clubsPerReport: 500, userConcurrency: 2 },
    });

    const routes = result.mixed.figures.map((figure) => figure.route).sort();
    expect(routes).toEqual([
      'GET /api/admin/v1/costs/summary',
      'GET /api/notifications',
      'PATCH /api/user/settings',
      'POST /api/edge/clubs/sync',
      'ingest batch (send to hub)',
      USER_ROUTES,
    ]);
    for (const figure of result.mixed.figures) expect(figure.count).toBeGreaterThan(0);
    expectOnlyExpectedAnswers(result.mixed);

    // Nothing lost: every evening sent through the hub is in the database, complete.
    expect(result.ingest.evenings).toBeGreaterThan(0);
    expect(result.ingest.applied).toBe(result.ingest.evenings);

    expect(result.flood).toBeDefined();
    for (const phase of [result.flood!.unlimited, result.flood!.limited]) {
      expectOnlyExpectedAnswers(phase);
      expect(phase.figures.find((figure) => figure.route === USER_ROUTES)?.count).toBeGreaterThan(0);
      expect(phase.figures.find((figure) => figure.route === 'POST /api/edge/clubs/sync (flood)')?.count).toBeGreaterThan(0);
    }

    // Memory of the host process at start and end of each phase, read after a full collection, so
    // the heap is live data: what a phase leaves behind once its requests are answered. Thousands of
    // answered requests and reports of 500 clubs may leave caches and pools warm, not megabytes of
    // request data.
    for (const phase of [result.mixed, result.flood!.unlimited, result.flood!.limited]) {
      expect(phase.memory.start.heapUsedMb).toBeGreaterThan(0);
      expect(phase.memory.start.rssMb).toBeGreaterThan(phase.memory.start.heapUsedMb);
      expect(phase.memory.end.heapUsedMb - phase.memory.start.heapUsedMb).toBeLessThan(32);
    }
  });
});
