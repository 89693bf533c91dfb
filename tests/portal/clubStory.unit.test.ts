import { clubStory, quarantineNames, type ClubCause, type ClubSignals } from '../../shared/portal/clubStory';

const quiet: ClubSignals = {
  freshness: 'ok',
  hint: null,
  pushes: { clubMaster: 'ok', starterlists: 'never' },
  consent: 'GRANTED',
  quarantined: false,
  deadLetters: 0,
};

describe('clubStory: one reading of every status word about a club', () => {
  it.each<[string, Partial<ClubSignals>, ClubCause | null]>([
    ['nothing wrong: no cause', {}, null],
    ['fresh data, a starter-list channel that was never on: no cause', { pushes: { clubMaster: 'ok', starterlists: 'never' } }, null],
    // The bad evening of the issue: the freshness hint said "Box red" beside ok pushes, a quarantine and a revoked consent.
    [
      'stale, pushes ok, quarantined, consent revoked, box check without hits: the quarantine',
      { freshness: 'stale', hint: 'nothing_shot', quarantined: true, consent: 'REVOKED' },
      'quarantined',
    ],
    ['stale with a revoked consent: the consent', { freshness: 'stale', hint: 'nothing_shot', consent: 'REVOKED' }, 'consent_revoked'],
    ['never delivered, no consent reported yet as NONE: the consent', { freshness: 'unknown', consent: 'NONE' }, 'consent_missing'],
    ['fresh data with a revoked consent is not explained by it', { consent: 'REVOKED' }, null],
    ['stale, box stopped calling: box offline', { freshness: 'stale', hint: 'box_offline' }, 'box_offline'],
    [
      'stale, a stopped channel although the hint read the box check: box offline',
      { freshness: 'stale', hint: 'transport_stalled', pushes: { clubMaster: 'stopped', starterlists: 'never' } },
      'box_offline',
    ],
    ['fresh, pushes refused: pushes refused', { pushes: { clubMaster: 'refused', starterlists: 'ok' } }, 'pushes_refused'],
    ['error status: the clock fault', { freshness: 'error' }, 'clock_fault'],
    ['fresh with dead letters: dead letters', { deadLetters: 3 }, 'dead_letters'],
    ['stale, box check found hits: transport stalled', { freshness: 'stale', hint: 'transport_stalled' }, 'transport_stalled'],
    ['stale, starter lists arrived: shot path broken', { freshness: 'stale', hint: 'shot_path_broken' }, 'shot_path_broken'],
    ['stale without a hint: nothing shot', { freshness: 'stale' }, 'nothing_shot'],
    ['not checked and quiet: no cause', { freshness: 'not_checked', pushes: null }, null],
  ])('%s', (_case, signals, cause) => {
    const story = clubStory({ ...quiet, ...signals });
    expect(story.cause).toBe(cause);
    expect(story.troubled).toBe(cause !== null);
  });

  it('keeps every signal it was given, so each status word on a page comes from the story', () => {
    const signals: ClubSignals = { ...quiet, freshness: 'stale', consent: 'REVOKED', quarantined: true, deadLetters: 2 };
    expect(clubStory(signals)).toMatchObject(signals);
  });

  it('reads a quarantine or stale data as danger, the rest as a warning, nothing wrong as ok', () => {
    expect(clubStory({ ...quiet, quarantined: true }).tone).toBe('danger');
    expect(clubStory({ ...quiet, freshness: 'stale' }).tone).toBe('danger');
    expect(clubStory({ ...quiet, deadLetters: 1 }).tone).toBe('warning');
    expect(clubStory(quiet).tone).toBe('ok');
  });
});

describe('quarantineNames: whether the open quarantine is this club', () => {
  it.each<[string, { clubId?: string | null; topic?: string | null } | null, string | null, boolean]>([
    ['its number', { clubId: '4711', topic: null }, '4711', true],
    ['one of its topics', { clubId: null, topic: 'club.4711.scores' }, '4711', true],
    ['a longer number sharing the prefix', { clubId: '47110', topic: 'club.47110.scores' }, '4711', false],
    ['no quarantine', null, '4711', false],
    ['a club without a number', { clubId: '4711' }, null, false],
  ])('%s', (_case, quarantine, number, expected) => {
    expect(quarantineNames(quarantine, number)).toBe(expected);
  });
});
