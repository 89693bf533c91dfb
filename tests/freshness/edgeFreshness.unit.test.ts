import { nextCheckAt, wednesdayEveningStart } from '../../edge/boxFreshness';
import { eveningDates, prepareStarterlists } from '../../edge/starterlistPush';

describe('box-side check schedule', () => {
  it.each<[string, string]>([
    ['2026-11-18T12:00:00Z', '2026-11-19T05:00:00.000Z'], // Wednesday → the next day
    ['2026-11-19T04:59:59Z', '2026-11-19T05:00:00.000Z'], // Thursday just before
    ['2026-11-19T05:00:00Z', '2026-11-26T05:00:00.000Z'], // at the moment itself → a week later
    ['2026-11-22T20:00:00Z', '2026-11-26T05:00:00.000Z'], // Sunday
  ])('after %s the next check is %s', (now, expected) => {
    expect(nextCheckAt(new Date(now)).toISOString()).toBe(expected);
  });

  it.each<[string, string]>([
    ['2026-11-19T05:00:00Z', '2026-11-18T17:00:00.000Z'], // Thursday check: Wednesday 18:00 CET
    ['2026-11-18T16:59:00Z', '2026-11-11T17:00:00.000Z'], // before this Wednesday's start: last week's
    ['2026-07-16T05:00:00Z', '2026-07-15T16:00:00.000Z'], // summer: 18:00 CEST
  ])('at %s the Wednesday evening started %s', (now, expected) => {
    expect(wednesdayEveningStart(new Date(now)).toISOString()).toBe(expected);
  });
});

describe('starter lists read from the mirror', () => {
  it('takes the dates of yesterday and today on the clubs’ clock', () => {
    // 23:30Z on the 18th is 00:30 on the 19th in Berlin.
    expect(eveningDates(new Date('2026-11-18T23:30:00Z'))).toEqual(['2026-11-18', '2026-11-19']);
  });

  it('skips and names rows the cloud would refuse, sends the rest', () => {
    const row = { id: 'L1', name: 'Abend', date: '2026-11-18', discipline: 'Luftgewehr', laneCount: 10, startersCount: 20 };
    const { lists, skipped } = prepareStarterlists([row, { ...row, id: 'L2', name: 'Abend\u200b' }, { ...row, id: 'L3', name: null }]);
    expect(lists.map((list) => list.id)).toEqual(['L1', 'L3']);
    expect(lists[1]).not.toHaveProperty('name', null);
    expect(skipped).toEqual([expect.stringMatching(/^L2: name must not contain invisible/)]);
  });
});
