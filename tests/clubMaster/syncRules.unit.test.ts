import {
  duplicateVereinsIdErrors,
  tallySync,
  transitionCounter,
  type PreviousState,
  type SyncCounter,
} from '../../shared/clubMaster/syncRules';

// Counting only: the row changes themselves are checked against PostgreSQL in knownClubSync.test.ts.
describe('transitionCounter: the "counted as" column of the "Known-club rows" state table', () => {
  it.each<[PreviousState, boolean, SyncCounter]>([
    // from, in report, counted as
    ['absent', true, 'added'],
    ['deleted', true, 'restored'],
    ['active', true, 'refreshed'],
    ['active', false, 'markedDeleted'],
    ['deleted', false, 'none'],
    ['absent', false, 'none'],
  ])('%s, in report %s: counted as %s', (previous, inReport, counter) => {
    expect(transitionCounter(previous, inReport)).toBe(counter);
  });
});

describe('tallySync: per-previous-state counts of reported rows plus the marked ones, as the result counts', () => {
  it.each([
    [{}, 0, { reported: 0, added: 0, restored: 0, refreshed: 0, markedDeleted: 0 }],
    [{ absent: 3 }, 0, { reported: 3, added: 3, restored: 0, refreshed: 0, markedDeleted: 0 }],
    [{ absent: 1, deleted: 2, active: 4 }, 5, { reported: 7, added: 1, restored: 2, refreshed: 4, markedDeleted: 5 }],
    [{}, 9, { reported: 0, added: 0, restored: 0, refreshed: 0, markedDeleted: 9 }],
  ])('%j with %d marked deleted', (byPrevious, marked, expected) => {
    expect(tallySync(byPrevious, marked)).toEqual(expected);
  });
});

describe('duplicateVereinsIdErrors', () => {
  const club = (vereinsId: string) => ({ vereinsId, name: `Club ${vereinsId}` });
  it.each([
    ['no clubs', [], []],
    ['distinct numbers', [club('1'), club('2')], []],
    ['numbers differing only in case are distinct', [club('a1'), club('A1')], []],
    [
      'each repeat after the first is named',
      [club('7'), club('8'), club('7'), club('7')],
      [
        { path: 'clubs.2.vereinsId', message: 'repeats the club number of clubs.0' },
        { path: 'clubs.3.vereinsId', message: 'repeats the club number of clubs.0' },
      ],
    ],
  ])('%s', (_label, clubs, expected) => {
    expect(duplicateVereinsIdErrors(clubs)).toEqual(expected);
  });
});
