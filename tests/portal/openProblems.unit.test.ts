import { statusBoard, type SummaryBlocks } from '../../shared/diagnostics/statusBoard';
import { clubStory } from '../../shared/portal/clubStory';
import { openProblems } from '../../shared/portal/openProblems';
import { calm, now } from './problemSignals';

const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();
const story = clubStory({ freshness: 'stale', hint: 'nothing_shot', pushes: null, consent: 'GRANTED', quarantined: false, deadLetters: 0 });
const stale = (name: string, hours: number) => ({
  clubId: `id-${name}`,
  name,
  vereinsId: null,
  status: 'stale',
  eveningEnd: hoursAgo(hours),
  since: null,
  story,
});

describe('openProblems: the signals as one list, worst first', () => {
  it('is empty on a calm evening', () => {
    expect(openProblems(calm)).toEqual([]);
  });

  it('ranks a quarantine first, naming its club, cause, runbook section and page', () => {
    const [first, ...rest] = openProblems({
      ...calm,
      ingest: {
        ...calm.ingest,
        admissionState: 'quarantined',
        catchUpState: 'catching_up',
        totalLag: 120,
        quarantineSince: hoursAgo(1),
        quarantineClubId: '4711',
        quarantineTopic: 'club.4711.scores',
        quarantineReason: 'invalid_payload',
        quarantineDetail: 'received 42.5',
      },
      clubsByNumber: new Map([['4711', { clubId: 'c-4711', name: 'SV Beispiel', vereinsId: '4711' }]]),
      deadLetters: { pending: 2, byClubNumber: new Map([['4711', 2]]) },
      staleClubs: [stale('Late', 30)],
      delivery: [{ channel: 'email', outcome: 'skipped', reason: 'no_email_address', count: 6 }],
    });
    expect(first).toMatchObject({
      kind: 'ingest_quarantined',
      severity: 'critical',
      club: { name: 'SV Beispiel' },
      part: 'club.4711.scores',
      facts: { detail: 'received 42.5', reason: 'invalid_payload' },
      runbook: 'Quarantined',
      link: '#/clubs/c-4711',
    });
    expect(rest.map((problem) => problem.kind)).toEqual(['dead_letters', 'club_stale', 'partitions_behind', 'delivery_skipped']);
  });

  it('links a quarantine of a number without a service club to the diagnostics page', () => {
    const [first] = openProblems({ ...calm, ingest: { ...calm.ingest, admissionState: 'quarantined', quarantineClubId: '999' } });
    expect(first).toMatchObject({ club: null, link: '#/diagnostics', facts: { clubNumber: '999' } });
  });

  it('orders stale clubs by how late, two days late above a fresh failure', () => {
    const problems = openProblems({
      ...calm,
      staleClubs: [stale('A bit late', 8), stale('Very late', 72), stale('Late', 30)],
      delivery: [{ channel: 'push', outcome: 'failed', reason: 'provider_error', count: 1 }],
    });
    expect(problems.map((problem) => [problem.club?.name ?? problem.kind, problem.severity, problem.facts.hoursLate])).toEqual([
      ['Very late', 'high', 72],
      ['Late', 'medium', 30],
      ['A bit late', 'medium', 8],
      ['delivery_failed', 'medium', undefined],
    ]);
  });

  it('counts skipped deliveries per channel and reason, but not the ones a member chose', () => {
    const problems = openProblems({
      ...calm,
      delivery: [
        { channel: 'email', outcome: 'sent', reason: null, count: 40 },
        { channel: 'email', outcome: 'skipped', reason: 'email_disabled', count: 9 },
        { channel: 'push', outcome: 'skipped', reason: 'no_push_registration', count: 6 },
        { channel: 'email', outcome: 'skipped', reason: 'no_email_address', count: 6 },
        { channel: 'email', outcome: 'retrying', reason: 'throttled', count: 2 },
      ],
    });
    expect(problems.map((problem) => [problem.kind, problem.facts.channel, problem.facts.reason, problem.facts.count])).toEqual([
      ['delivery_skipped', 'email', 'no_email_address', 6],
      ['delivery_skipped', 'push', 'no_push_registration', 6],
    ]);
  });

  it('puts an outage and a stalled catch-up before drift', () => {
    const kinds = openProblems({
      ...calm,
      ingest: { ...calm.ingest, status: 'down', catchUpState: 'stalled', sourceDriftState: 'suspected', admissionState: 'rejecting' },
    }).map((problem) => [problem.kind, problem.runbook]);
    expect(kinds).toEqual([
      ['ingest_down', 'Rollback'],
      ['ingest_rejecting', 'Rejecting'],
      ['ingest_stalled', 'Stalled'],
      ['ingest_drift', 'Drift suspected'],
    ]);
  });
});

describe('statusBoard: the summary blocks as problems and one story per club', () => {
  const club = (id: string, number: string, extra: object = {}) => ({
    clubId: id,
    vereinsId: number,
    name: `Club ${number}`,
    status: 'stale' as const,
    lastArrivalAt: null,
    lastStarterlistSeenAt: null,
    edgeTokenLastUsedAt: null,
    planSource: 'stored' as const,
    evening: { start: hoursAgo(30), end: hoursAgo(28) },
    since: null,
    hint: { code: 'nothing_shot' as const, message: '' },
    consent: { state: 'REVOKED' as const, since: null, reportedAt: null },
    ...extra,
  });
  const blocks = {
    ingest: { status: 'up', admissionState: 'quarantined', quarantineClubId: '4711', catchUpState: 'live', quarantineSince: hoursAgo(2) },
    dataFreshness: { clubs: [club('a', '4711'), club('b', '4712', { consent: { state: 'GRANTED', since: null, reportedAt: null } })] },
    deadLetters: { pending: 0, recent: [] },
    delivery: { outcomes: [] },
    boxPushes: {
      staleAfterHours: 24,
      failing: 2,
      clubs: [
        {
          clubId: 'b',
          vereinsId: '4712',
          name: 'Club 4712',
          clubMaster: 'refused',
          clubMasterReportedAt: hoursAgo(40),
          starterlists: 'never',
          starterlistPushAt: null,
          tokenLastUsedAt: hoursAgo(1),
        },
        {
          clubId: 'c',
          vereinsId: '4713',
          name: 'Club 4713',
          clubMaster: 'stopped',
          clubMasterReportedAt: hoursAgo(50),
          starterlists: 'never',
          starterlistPushAt: null,
          tokenLastUsedAt: hoursAgo(50),
        },
      ],
    },
    namedClubs: [{ vereinsId: '4711', clubId: 'a', name: 'Club 4711' }],
  } as unknown as SummaryBlocks;

  it('names the quarantined club first and tells each club once, with the same cause in its story and its problem', () => {
    const board = statusBoard(blocks, now);
    // The quarantine tells its club's story, how late included, instead of a second entry.
    expect(board.problems[0]?.facts.hoursLate).toBe(28);
    expect(board.problems.map((problem) => [problem.kind, problem.club?.clubId, problem.cause])).toEqual([
      ['ingest_quarantined', 'a', null],
      ['club_stale', 'b', 'pushes_refused'],
      ['box_pushes_failing', 'c', 'box_offline'],
    ]);
    expect(Object.fromEntries(board.clubStories.map(({ clubId, story: told }) => [clubId, told.cause]))).toEqual({
      a: 'quarantined',
      b: 'pushes_refused',
      c: 'box_offline',
    });
  });
});

describe('openProblems: many silent clubs still read in one screen', () => {
  it('names the five latest clubs and counts the rest in one problem at the worst severity among them', () => {
    const clubs = [1, 2, 3, 4, 5, 6, 7].map((hours) => stale(`Club ${hours}`, hours * 10));
    const problems = openProblems({ ...calm, staleClubs: clubs });
    expect(problems.map((problem) => [problem.kind, problem.club?.name ?? problem.facts.count, problem.severity])).toEqual([
      ['club_stale', 'Club 7', 'high'],
      ['club_stale', 'Club 6', 'high'],
      ['club_stale', 'Club 5', 'high'],
      ['club_stale', 'Club 4', 'medium'],
      ['club_stale', 'Club 3', 'medium'],
      ['clubs_stale_more', 2, 'medium'],
    ]);
  });
});
