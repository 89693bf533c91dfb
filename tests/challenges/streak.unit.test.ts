import { computeStreak, isoWeekLabel, currentWeek } from '../../shared/challenges/streak';

// Wednesday 18 November 2026, 12:00 in Berlin: ISO week 2026-W47 (16 to 22 November).
const NOW = new Date('2026-11-18T11:00:00.000Z');

describe('the training streak (weeks in a row with a training day, Europe/Berlin)', () => {
  it('is nothing without training, with the freeze of the month still there', () => {
    expect(computeStreak([], NOW)).toEqual({
      weeks: 0,
      longestWeeks: 0,
      trainedThisWeek: false,
      freezeAvailable: true,
      frozenWeeks: [],
      atRisk: false,
      weekEndsAt: '2026-11-22T23:00:00.000Z',
    });
  });

  it('counts the weeks in a row up to this one, whatever the order and however often a day repeats (redelivered hits)', () => {
    const days = ['2026-11-17', '2026-11-03', '2026-11-12', '2026-11-12', '2026-11-03', '2026-11-09'];
    expect(computeStreak(days, NOW)).toMatchObject({ weeks: 3, longestWeeks: 3, trainedThisWeek: true, frozenWeeks: [], atRisk: false });
  });

  it('does not break while the current week has not been trained yet', () => {
    const streak = computeStreak(['2026-11-04', '2026-11-11'], NOW);
    expect(streak).toMatchObject({ weeks: 2, trainedThisWeek: false, freezeAvailable: true, atRisk: false });
  });

  it('covers one missed week with the month’s freeze; the frozen week keeps the streak without adding to it', () => {
    // Trained W44 (26 Oct), W45, missed W46, trained W47.
    const streak = computeStreak(['2026-10-27', '2026-11-02', '2026-11-17'], NOW);
    expect(streak).toMatchObject({ weeks: 3, frozenWeeks: ['2026-W46'], freezeAvailable: false, trainedThisWeek: true, atRisk: false });
  });

  it('is at risk when this week is not trained yet and this month’s freeze is spent', () => {
    const streak = computeStreak(['2026-10-27', '2026-11-02', '2026-11-11'], new Date('2026-11-25T11:00:00.000Z'));
    // W44, W45, W46 trained, W47 missed and frozen (November's freeze); W48 running without training.
    expect(streak).toMatchObject({ weeks: 3, trainedThisWeek: false, freezeAvailable: false, atRisk: true, frozenWeeks: ['2026-W47'] });
  });

  it('ends with a second missed week in the same month, keeping the longest', () => {
    // W45 trained, W46 missed (freeze), W47 trained, W48 missed again in November: broken.
    const streak = computeStreak(['2026-11-02', '2026-11-16'], new Date('2026-12-02T11:00:00.000Z'));
    expect(streak).toMatchObject({ weeks: 0, longestWeeks: 2, frozenWeeks: [], atRisk: false });
  });

  it('ends with two missed weeks in a row when both fall in one month', () => {
    const streak = computeStreak(['2026-11-02', '2026-11-03'], new Date('2026-11-25T11:00:00.000Z'));
    expect(streak).toMatchObject({ weeks: 0, longestWeeks: 1 });
  });

  it('takes a week’s freeze from the month of its Thursday: a week from January into February is February’s', () => {
    // 2024: W02 missed (January's freeze), W05 (29 Jan to 4 Feb, Thursday 1 Feb) missed: February's freeze.
    const days = ['2024-01-03', '2024-01-17', '2024-01-24', '2024-02-06'];
    const streak = computeStreak(days, new Date('2024-02-07T12:00:00.000Z'));
    expect(streak).toMatchObject({ weeks: 4, frozenWeeks: ['2024-W02', '2024-W05'], freezeAvailable: false });
    // The same miss in W04 (Thursday 25 January) finds January's freeze spent: the streak ends there.
    const broken = computeStreak(['2024-01-03', '2024-01-17', '2024-01-31', '2024-02-06'], new Date('2024-02-07T12:00:00.000Z'));
    expect(broken).toMatchObject({ weeks: 2, frozenWeeks: [] });
  });

  it('runs across the turn of a year with a week 53', () => {
    expect(isoWeekLabel(currentWeek(new Date('2027-01-02T12:00:00.000Z')))).toBe('2026-W53');
    const days = ['2026-12-22', '2027-01-02', '2027-01-05'];
    expect(computeStreak(days, new Date('2027-01-06T12:00:00.000Z'))).toMatchObject({ weeks: 3, trainedThisWeek: true });
    // Week 53 missed: its Thursday is 31 December, so December's freeze covers it.
    const missed = computeStreak(['2026-12-22', '2027-01-05'], new Date('2027-01-06T12:00:00.000Z'));
    expect(missed).toMatchObject({ weeks: 2, frozenWeeks: ['2026-W53'], freezeAvailable: true });
  });

  it('ends the week at Monday midnight Berlin time across both daylight saving changes', () => {
    // Clocks go forward in the night to Sunday 29 March 2026: the week ends at 00:00 CEST, 22:00 UTC.
    const spring = computeStreak(['2026-03-29'], new Date('2026-03-29T21:30:00.000Z'));
    expect(spring).toMatchObject({ weeks: 1, trainedThisWeek: true, weekEndsAt: '2026-03-29T22:00:00.000Z' });
    // Half an hour later it is Monday in Berlin: a new week, not trained yet, and no break.
    const monday = computeStreak(['2026-03-29'], new Date('2026-03-29T22:30:00.000Z'));
    expect(monday).toMatchObject({ weeks: 1, trainedThisWeek: false, weekEndsAt: '2026-04-05T22:00:00.000Z' });
    // Clocks go back in the night to Sunday 25 October 2026: the week ends at 00:00 CET, 23:00 UTC.
    expect(computeStreak([], new Date('2026-10-25T12:00:00.000Z')).weekEndsAt).toBe('2026-10-25T23:00:00.000Z');
  });

  it('ignores days after now', () => {
    expect(computeStreak(['2026-11-30'], NOW)).toMatchObject({ weeks: 0, trainedThisWeek: false });
  });
});
