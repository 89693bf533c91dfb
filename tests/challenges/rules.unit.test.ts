import * as v from 'valibot';
import { knockoutOutcome } from '../../shared/challenges/knockout';
import { adaptiveGoal, type History } from '../../shared/challenges/personalizeMaths';
import { measurementOf, windowOf } from '../../shared/challenges/progress';
import { isGoalMet, progressFraction, RulesSchema } from '../../shared/challenges/rules';
import { hasInvisibleCharacters, visibleText } from '../../shared/challenges/text';

const issuesOf = (value: unknown) => {
  const result = v.safeParse(RulesSchema, value);
  return result.success ? [] : result.issues.map((issue) => `${v.getDotPath(issue) ?? ''}: ${issue.message}`);
};

describe('rulesJson', () => {
  it('accepts each metric and fills the defaults', () => {
    expect(v.parse(RulesSchema, { goal: { metric: 'averageRing', target: 9.5 } })).toEqual({
      goal: { metric: 'averageRing', target: 9.5, minShots: 30 },
      window: { type: 'participation' },
    });
    expect(
      v.parse(RulesSchema, { goal: { metric: 'shots', target: 100 }, window: { type: 'lastDays', days: 7 }, rewardBadge: 'steady-hand' }),
    ).toEqual({
      goal: { metric: 'shots', target: 100 },
      window: { type: 'lastDays', days: 7 },
      rewardBadge: 'steady-hand',
    });
    expect(issuesOf({ goal: { metric: 'sessions', target: 3 }, discipline: 'LG' })).toEqual([]);
    expect(issuesOf({ goal: { metric: 'bestSeries', target: 95.5 }, knockout: { finalists: 3, finalistXp: 300 } })).toEqual([]);
  });

  it.each([
    [{ goal: { metric: 'laps', target: 3 } }, 'goal.metric'],
    [{ goal: { metric: 'shots', target: 0 } }, 'goal.target: must be at least 1'],
    [{ goal: { metric: 'shots', target: 2.5 } }, 'goal.target: must be a whole number'],
    [{ goal: { metric: 'averageRing', target: 11 } }, 'goal.target: must be at most 10.9'],
    [{ goal: { metric: 'averageRing', target: 9.55 } }, 'goal.target: must have at most one decimal'],
    [{ goal: { metric: 'bestSeries', target: 110 } }, 'goal.target: must be at most 109'],
    [{ goal: { metric: 'shots', target: 5 }, window: { type: 'lastDays', days: 0 } }, 'window.days: must be at least 1'],
    [{ goal: { metric: 'shots', target: 5 }, rewardBadge: 'Bad Badge!' }, 'rewardBadge'],
    [{ goal: { metric: 'shots', target: 5 }, extra: 1 }, 'extra'],
    [{ goal: { metric: 'shots', target: 5, minShots: 3 } }, 'goal.minShots'],
  ])('rejects %j at %s', (rules, expected) => {
    const issues = issuesOf(rules);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.join('\n')).toContain(expected);
  });

  it('an average needs its minimum of shots before it completes', () => {
    const goal = { metric: 'averageRing', target: 9, minShots: 30 } as const;
    expect(isGoalMet(goal, { value: 9.4, shots: 29 })).toBe(false);
    expect(progressFraction(goal, { value: 9.4, shots: 15 })).toBe(0.5);
    expect(isGoalMet(goal, { value: 9.0, shots: 30 })).toBe(true);
    expect(isGoalMet(goal, { value: 8.9, shots: 300 })).toBe(false);
  });

  it('counts complete at the target, not before', () => {
    expect(isGoalMet({ metric: 'shots', target: 100 }, { value: 99, shots: 99 })).toBe(false);
    expect(isGoalMet({ metric: 'shots', target: 100 }, { value: 100, shots: 100 })).toBe(true);
    expect(progressFraction({ metric: 'shots', target: 100 }, { value: 250, shots: 250 })).toBe(1);
  });

  it('reads the metric from the window’s stats', () => {
    const stats = { shots: 40, sessions: 3, averageRing: 8.75, bestSeries: 92.1, averageBestSeries: 90 };
    const rules = (goal: unknown) => v.parse(RulesSchema, { goal });
    expect(measurementOf(rules({ metric: 'shots', target: 1 }), stats)).toEqual({ value: 40, shots: 40 });
    expect(measurementOf(rules({ metric: 'sessions', target: 1 }), stats)).toEqual({ value: 3, shots: 40 });
    expect(measurementOf(rules({ metric: 'averageRing', target: 1 }), stats)).toEqual({ value: 8.75, shots: 40 });
    expect(measurementOf(rules({ metric: 'bestSeries', target: 1 }), stats)).toEqual({ value: 92.1, shots: 40 });
  });

  it('windows start at joining and stop at the deadline', () => {
    const joined = new Date('2026-11-01T00:00:00Z');
    const deadline = new Date('2026-11-15T00:00:00Z');
    const now = new Date('2026-11-20T00:00:00Z');
    const participation = v.parse(RulesSchema, { goal: { metric: 'shots', target: 1 } });
    expect(windowOf(participation, joined, deadline, now)).toEqual({ from: joined, to: deadline });
    const lastWeek = v.parse(RulesSchema, { goal: { metric: 'shots', target: 1 }, window: { type: 'lastDays', days: 7 } });
    expect(windowOf(lastWeek, joined, deadline, new Date('2026-11-10T00:00:00Z'))).toEqual({
      from: new Date('2026-11-03T00:00:00Z'),
      to: new Date('2026-11-10T00:00:00Z'),
    });
    expect(windowOf(lastWeek, joined, deadline, new Date('2026-11-03T00:00:00Z')).from).toEqual(joined);
  });
});

describe('adaptive goals (personalize maths)', () => {
  const history: History = { lookbackDays: 28, sessions: 8, shots: 400, averageRing: 8.6, averageBestSeries: 88.4 };

  it('counts: weekly average × weeks of the challenge × (1 + multiplier), rounded up', () => {
    // 400 shots in 4 weeks = 100 a week; 14 days = 2 weeks; medium +5 %: 210.
    expect(adaptiveGoal('shots', history, 'medium', 14)).toEqual({
      goal: { metric: 'shots', target: 210 },
      average: 100,
      multiplier: 0.05,
    });
    // 8 sessions in 4 weeks = 2 a week; 2 weeks × 2 × 1.10 = 4.4 → 5.
    expect(adaptiveGoal('sessions', history, 'hard', 14)).toEqual({ goal: { metric: 'sessions', target: 5 }, average: 2, multiplier: 0.1 });
    // Never more sessions than days.
    expect(adaptiveGoal('sessions', { ...history, sessions: 28 }, 'expert', 7)?.goal.target).toBe(7);
  });

  it('ring values: average × (1 + multiplier), one decimal, capped at the maximum', () => {
    expect(adaptiveGoal('averageRing', history, 'medium', 14)).toEqual({
      goal: { metric: 'averageRing', target: 9, minShots: 30 },
      average: 8.6,
      multiplier: 0.05,
    });
    expect(adaptiveGoal('bestSeries', history, 'easy', 14)).toEqual({
      goal: { metric: 'bestSeries', target: 90.2 },
      average: 88.4,
      multiplier: 0.02,
    });
    expect(adaptiveGoal('averageRing', { ...history, averageRing: 10.6 }, 'expert', 14)?.goal.target).toBe(10.9);
    expect(adaptiveGoal('bestSeries', { ...history, averageBestSeries: 104 }, 'expert', 14)?.goal.target).toBe(109);
  });

  it('refuses a history of fewer than three sessions', () => {
    expect(adaptiveGoal('shots', { ...history, sessions: 2 }, 'medium', 14)).toBeNull();
    expect(adaptiveGoal('shots', { ...history, sessions: 3 }, 'medium', 14)).not.toBeNull();
  });
});

describe('knockout payout', () => {
  const knockout = { finalists: 3, finalistXp: 400 };
  it('pays the winner more than the finalists and nothing beyond; every completion earns the badge', () => {
    expect(knockoutOutcome(1, 1000, knockout)).toEqual({ placement: 'winner', xp: 1000, badge: true });
    expect(knockoutOutcome(2, 1000, knockout)).toEqual({ placement: 'finalist', xp: 400, badge: true });
    expect(knockoutOutcome(4, 1000, knockout)).toEqual({ placement: 'finalist', xp: 400, badge: true });
    expect(knockoutOutcome(5, 1000, knockout)).toEqual({ placement: 'out' });
  });
  it('a finalist never gets as much as the winner', () => {
    expect(knockoutOutcome(2, 300, { finalists: 1, finalistXp: 500 })).toEqual({ placement: 'finalist', xp: 299, badge: true });
  });
});

describe('visible text', () => {
  it.each(['\u200b', '\u200d', '\u202e', '\u00ad', '\u2060', '\ufeff', '\u180e', '\u{e0041}', '\u034f', '\u3164'])(
    'refuses U+%s',
    (character) => {
      expect(hasInvisibleCharacters(`Gold${character}Cup`)).toBe(true);
      expect(v.safeParse(visibleText(50), `Gold${character}Cup`).success).toBe(false);
    },
  );
  it('accepts ordinary text with umlauts and emoji', () => {
    expect(v.parse(visibleText(50), '  Schützenkönig 🎯 ')).toBe('Schützenkönig 🎯');
    expect(v.safeParse(visibleText(5), 'toolong').success).toBe(false);
    expect(v.safeParse(visibleText(5), '   ').success).toBe(false);
  });
});
