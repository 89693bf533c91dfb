import { costsOverBudget, withCostProblem } from '../../portal/src/costProblem';
import { PROBLEM_KINDS, SEVERITIES, openProblems, type ProblemSignals } from '../../shared/portal/openProblems';
import { calm } from './problemSignals';

const forecast = (endOfMonth: number) => ({ method: 'provider' as const, endOfMonth, points: [] });
const signals: ProblemSignals = {
  ...calm,
  ingest: { ...calm.ingest, catchUpState: 'stalled', totalLag: 40, maxTopicLag: 40 },
  delivery: [
    { channel: 'email', outcome: 'skipped', reason: 'no_email_address', count: 6 },
    { channel: 'push', outcome: 'failed', reason: 'provider_error', count: 2 },
  ],
};
const rank = (problem: { severity: (typeof SEVERITIES)[number]; kind: (typeof PROBLEM_KINDS)[number] }) =>
  SEVERITIES.indexOf(problem.severity) * PROBLEM_KINDS.length + PROBLEM_KINDS.indexOf(problem.kind);

describe('costs over budget on the worst-first list', () => {
  it('is raised only when the forecast to month end is above a configured budget', () => {
    expect(costsOverBudget({ budget: null, currency: 'EUR', forecast: forecast(900) })).toBeNull();
    expect(costsOverBudget({ budget: 300, currency: 'EUR', forecast: forecast(300) })).toBeNull();
    expect(costsOverBudget({ budget: 260, currency: 'EUR', forecast: forecast(266.2) })).toEqual(
      expect.objectContaining({
        kind: 'costs_over_budget',
        severity: 'medium',
        link: '#/costs',
        facts: { forecast: 266.2, budget: 260, currency: 'EUR' },
      }),
    );
  });

  it('takes the place the ranking of the summary gives it: after failed deliveries, before skipped ones', () => {
    const cost = costsOverBudget({ budget: 100, currency: 'EUR', forecast: forecast(130) });
    const merged = withCostProblem(openProblems(signals), cost);
    expect(merged.map((problem) => problem.kind)).toEqual(['ingest_stalled', 'delivery_failed', 'costs_over_budget', 'delivery_skipped']);
    const ranks = merged.map(rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it('goes last when nothing lower is open, and changes nothing when there is no cost problem', () => {
    const cost = costsOverBudget({ budget: 100, currency: 'EUR', forecast: forecast(130) });
    const quiet = openProblems({ ...signals, delivery: [] });
    expect(withCostProblem(quiet, cost).map((problem) => problem.kind)).toEqual(['ingest_stalled', 'costs_over_budget']);
    expect(withCostProblem([], cost).map((problem) => problem.kind)).toEqual(['costs_over_budget']);
    expect(withCostProblem(quiet, null)).toEqual(quiet);
  });
});
