import { checkFreshness, evaluateClubs } from '../../shared/freshness/clubFreshness';
import { dueEvening, evaluateClub, overallFreshness, type FreshnessStatus } from '../../shared/freshness/evaluation';
import type { ClubSignals } from '../../shared/freshness/freshnessRepository';
import { DEFAULT_PLAN, type TrainingEvening, type TrainingPlan } from '../../shared/freshness/trainingPlan';

const at = (iso: string) => new Date(iso);
const plan = (evenings: Partial<TrainingEvening>[], timeZone = 'Europe/Berlin'): TrainingPlan => ({
  timeZone,
  evenings: evenings.map((evening) => ({ weekday: 'wednesday', start: '18:00', end: '20:00', endsNextDay: false, ...evening })),
});
const iso = (evening: { start: Date; end: Date }) => [evening.start.toISOString(), evening.end.toISOString()];

describe('dueEvening: the latest evening whose end plus 6 hours has passed', () => {
  // Wednesday 18 November 2026, 18:00-20:00 CET = 17:00Z-19:00Z; due at 19 November 01:00Z.
  it.each<[string, string, string[]]>([
    ['one minute before the grace ends: the week before', '2026-11-19T00:59:00Z', ['2026-11-11T17:00:00.000Z', '2026-11-11T19:00:00.000Z']],
    ['exactly when the grace ends: this week', '2026-11-19T01:00:00Z', ['2026-11-18T17:00:00.000Z', '2026-11-18T19:00:00.000Z']],
    ['during the evening: the week before', '2026-11-18T18:00:00Z', ['2026-11-11T17:00:00.000Z', '2026-11-11T19:00:00.000Z']],
    ['six days later: still this week', '2026-11-25T00:59:00Z', ['2026-11-18T17:00:00.000Z', '2026-11-18T19:00:00.000Z']],
  ])('default plan, %s', (_label, now, expected) => {
    expect(iso(dueEvening(DEFAULT_PLAN, at(now)))).toEqual(expected);
  });

  it('an evening across midnight (Friday 20:00 to 01:00) is due at 07:00 on Saturday', () => {
    const friday = plan([{ weekday: 'friday', start: '20:00', end: '01:00', endsNextDay: true }]);
    // Friday 20 November 2026 20:00 CET = 19:00Z; ends Saturday 01:00 CET = 00:00Z; due 06:00Z.
    expect(iso(dueEvening(friday, at('2026-11-21T05:59:00Z')))).toEqual(['2026-11-13T19:00:00.000Z', '2026-11-14T00:00:00.000Z']);
    expect(iso(dueEvening(friday, at('2026-11-21T06:00:00Z')))).toEqual(['2026-11-20T19:00:00.000Z', '2026-11-21T00:00:00.000Z']);
  });

  it('picks the later of several evenings a week', () => {
    const twice = plan([{ weekday: 'monday' }, { weekday: 'thursday', start: '19:00', end: '21:30' }]);
    // Thursday 19 November 2026 19:00-21:30 CET; due Friday 03:30 CET = 02:30Z.
    expect(iso(dueEvening(twice, at('2026-11-20T02:30:00Z')))).toEqual(['2026-11-19T18:00:00.000Z', '2026-11-19T20:30:00.000Z']);
    // Before that, Monday 16 November (18:00-20:00 CET) is the latest due.
    expect(iso(dueEvening(twice, at('2026-11-20T02:29:00Z')))).toEqual(['2026-11-16T17:00:00.000Z', '2026-11-16T19:00:00.000Z']);
  });

  describe('DST weeks in Europe/Berlin', () => {
    const sunday = plan([{ weekday: 'sunday' }]);

    it('last Sunday of March: the evening after the change is on summer time (16:00Z), the one before on winter time', () => {
      // 29 March 2026: CEST from 01:00Z, so 18:00-20:00 local is 16:00Z-18:00Z, due 30 March 00:00Z.
      expect(iso(dueEvening(sunday, at('2026-03-30T00:00:00Z')))).toEqual(['2026-03-29T16:00:00.000Z', '2026-03-29T18:00:00.000Z']);
      expect(iso(dueEvening(sunday, at('2026-03-29T23:59:00Z')))).toEqual(['2026-03-22T17:00:00.000Z', '2026-03-22T19:00:00.000Z']);
    });

    it('last Sunday of October: back on winter time (17:00Z)', () => {
      // 25 October 2026: CET from 01:00Z, so 18:00-20:00 local is 17:00Z-19:00Z, due 26 October 01:00Z.
      expect(iso(dueEvening(sunday, at('2026-10-26T01:00:00Z')))).toEqual(['2026-10-25T17:00:00.000Z', '2026-10-25T19:00:00.000Z']);
      expect(iso(dueEvening(sunday, at('2026-10-26T00:59:00Z')))).toEqual(['2026-10-18T16:00:00.000Z', '2026-10-18T18:00:00.000Z']);
    });

    it('a night that spans the October change is an hour longer (22:00 CEST to 04:00 CET is 7 hours)', () => {
      const night = plan([{ weekday: 'saturday', start: '22:00', end: '04:00', endsNextDay: true }]);
      const evening = dueEvening(night, at('2026-10-25T09:00:00Z'));
      expect(iso(evening)).toEqual(['2026-10-24T20:00:00.000Z', '2026-10-25T03:00:00.000Z']);
    });

    it('a night that spans the March change is an hour shorter (22:00 CET to 04:00 CEST is 5 hours)', () => {
      const night = plan([{ weekday: 'saturday', start: '22:00', end: '04:00', endsNextDay: true }]);
      expect(iso(dueEvening(night, at('2026-03-29T08:00:00Z')))).toEqual(['2026-03-28T21:00:00.000Z', '2026-03-29T02:00:00.000Z']);
    });
  });

  it('reads the plan in its own time zone', () => {
    const newYork = plan([{ weekday: 'wednesday' }], 'America/New_York');
    // Wednesday 18 November 2026 18:00 EST = 23:00Z.
    expect(iso(dueEvening(newYork, at('2026-11-19T07:00:00Z')))).toEqual(['2026-11-18T23:00:00.000Z', '2026-11-19T01:00:00.000Z']);
  });
});

describe('evaluateClub', () => {
  const now = at('2026-11-19T01:00:00Z'); // the evening of 18 November (17:00Z-19:00Z) is due
  it.each<[string, string | null, FreshnessStatus]>([
    ['never delivered: unknown', null, 'unknown'],
    ['a hit after the evening started: ok', '2026-11-18T17:30:00Z', 'ok'],
    ['a hit after the evening ended, within the grace: ok', '2026-11-19T00:30:00Z', 'ok'],
    ['the newest hit at the very start: stale (it must be newer)', '2026-11-18T17:00:00Z', 'stale'],
    ['the newest hit one minute before the start: stale', '2026-11-18T16:59:00Z', 'stale'],
    ['the newest hit last week: stale', '2026-11-11T18:00:00Z', 'stale'],
    ['the newest hit two minutes in the future: error', '2026-11-19T01:02:00Z', 'error'],
    ['the newest hit a day in the future: error', '2026-11-20T01:00:00Z', 'error'],
    ['the newest hit within the clock tolerance: ok', '2026-11-19T01:00:30Z', 'ok'],
  ])('%s', (_label, lastArrival, expected) => {
    expect(evaluateClub(DEFAULT_PLAN, lastArrival === null ? null : at(lastArrival), now).status).toBe(expected);
  });

  it('names the reason of an error', () => {
    expect(evaluateClub(DEFAULT_PLAN, at('2026-11-20T00:00:00Z'), now)).toMatchObject({ status: 'error', reason: 'arrival_in_future' });
  });

  it('the grace boundary decides which evening a late arrival is judged against, to the minute', () => {
    // Hit on Monday 16 November: fresh for the evening of 11 November, stale for that of 18 November.
    const hit = at('2026-11-16T10:00:00Z');
    expect(evaluateClub(DEFAULT_PLAN, hit, at('2026-11-19T00:59:00Z')).status).toBe('ok');
    expect(evaluateClub(DEFAULT_PLAN, hit, at('2026-11-19T01:00:00Z')).status).toBe('stale');
  });

  it('in the March DST week, a hit at 16:30Z on that Sunday counts for the 18:00 CEST evening', () => {
    const sunday = plan([{ weekday: 'sunday' }]);
    expect(evaluateClub(sunday, at('2026-03-29T16:30:00Z'), at('2026-03-30T00:00:00Z')).status).toBe('ok');
    expect(evaluateClub(sunday, at('2026-03-29T15:59:00Z'), at('2026-03-30T00:00:00Z')).status).toBe('stale');
  });
});

function signals(overrides: Partial<ClubSignals> = {}): ClubSignals {
  return {
    clubId: 'club-1',
    vereinsId: '1001',
    name: 'SV Eins',
    storedPlan: null,
    lastArrivalAt: null,
    lastStarterlistSeenAt: null,
    edgeTokenLastUsedAt: null,
    boxCheckAt: null,
    boxCheckHitsAfter: null,
    recordedStatus: null,
    recordedSince: null,
    ...overrides,
  };
}

describe('evaluateClubs', () => {
  const now = at('2026-11-19T01:00:00Z');

  it('applies the default plan as assumed and a stored plan as stored', () => {
    const friday = plan([{ weekday: 'friday' }]);
    const [assumed, stored] = evaluateClubs([signals(), signals({ clubId: 'club-2', storedPlan: friday })], now);
    expect(assumed).toMatchObject({ planSource: 'assumed', plan: DEFAULT_PLAN });
    expect(assumed!.verdict.evening.start.toISOString()).toBe('2026-11-18T17:00:00.000Z');
    expect(stored).toMatchObject({ planSource: 'stored', plan: friday });
    // Friday 13 November 18:00 CET.
    expect(stored!.verdict.evening.start.toISOString()).toBe('2026-11-13T17:00:00.000Z');
  });

  it('gives a stale club a hint and a fresh one none', () => {
    const [stale, fresh] = evaluateClubs(
      [signals({ lastArrivalAt: at('2026-11-01T10:00:00Z') }), signals({ clubId: 'club-2', lastArrivalAt: at('2026-11-18T18:00:00Z') })],
      now,
    );
    expect(stale!.hint?.code).toBe('box_offline');
    expect(fresh!.hint).toBeNull();
  });
});

describe('overallFreshness (GET /healthz/data-freshness)', () => {
  const checkedAt = at('2026-11-19T06:00:00Z');
  it.each<[string, FreshnessStatus[] | undefined, object]>([
    ['the check failed', undefined, { status: 'error', checked: 0, fresh: 0, stale: 0, unknown: 0 }],
    ['a club with an arrival in the future', ['ok', 'error', 'stale'], { status: 'error', checked: 3, fresh: 1, stale: 1, unknown: 0 }],
    ['any club stale', ['ok', 'ok', 'stale', 'unknown'], { status: 'stale', checked: 4, fresh: 2, stale: 1, unknown: 1 }],
    ['fresh and unknown clubs', ['ok', 'unknown'], { status: 'ok', checked: 2, fresh: 1, stale: 0, unknown: 1 }],
    ['only unknown clubs', ['unknown', 'unknown'], { status: 'unknown', checked: 2, fresh: 0, stale: 0, unknown: 2 }],
    ['no clubs at all', [], { status: 'unknown', checked: 0, fresh: 0, stale: 0, unknown: 0 }],
  ])('%s', (_label, statuses, expected) => {
    expect(overallFreshness(statuses, checkedAt)).toEqual({ ...expected, checkedAt: '2026-11-19T06:00:00.000Z' });
  });
});

describe('checkFreshness', () => {
  const now = at('2026-11-19T01:00:00Z');

  it('answers error when the query fails, and hands the failure on for the log', async () => {
    const failures: unknown[] = [];
    const failure = new Error('connection refused');
    const overview = await checkFreshness(
      () => Promise.reject(failure),
      now,
      (error) => failures.push(error),
    );
    expect(overview).toEqual({ status: 'error', checked: 0, fresh: 0, stale: 0, unknown: 0, checkedAt: now.toISOString() });
    expect(failures).toEqual([failure]);
  });

  it('counts the clubs read', async () => {
    const clubs = [
      signals({ lastArrivalAt: at('2026-11-18T18:00:00Z') }),
      signals({ clubId: 'club-2', lastArrivalAt: at('2026-11-10T18:00:00Z') }),
      signals({ clubId: 'club-3' }),
    ];
    const overview = await checkFreshness(
      () => Promise.resolve(clubs),
      now,
      () => undefined,
    );
    expect(overview).toEqual({ status: 'stale', checked: 3, fresh: 1, stale: 1, unknown: 1, checkedAt: now.toISOString() });
  });
});
