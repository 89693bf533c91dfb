import type { CostAccumulated, ProblemView } from './types';

/**
 * "Costs over budget" for the worst-first list. The page derives it from the accumulated cost
 * answer it already reads for the costs line, instead of the diagnostics summary asking the cost
 * provider on every 30-second refresh: the cost answer is read once per visit (the costs module
 * caches it for 30 minutes anyway), and a slow or failing provider never holds up the problems.
 */
export function costsOverBudget(costs: Pick<CostAccumulated, 'budget' | 'currency' | 'forecast'>): ProblemView | null {
  const { budget, currency } = costs;
  const forecast = costs.forecast.endOfMonth;
  if (budget === null || forecast <= budget) return null;
  return {
    kind: 'costs_over_budget',
    severity: 'medium',
    club: null,
    part: null,
    cause: null,
    facts: { forecast, budget, currency },
    runbook: null,
    link: '#/costs',
    since: null,
  };
}

/**
 * The summary's problems (already worst first) with the cost problem in its place: it is the
 * last medium kind of the ranking in shared/portal/openProblems.ts (only the low "skipped
 * deliveries" follow it), so it goes before the first low problem.
 */
export function withCostProblem(problems: readonly ProblemView[], cost: ProblemView | null): ProblemView[] {
  if (!cost) return [...problems];
  const at = problems.findIndex((problem) => problem.severity === 'low');
  const index = at === -1 ? problems.length : at;
  return [...problems.slice(0, index), cost, ...problems.slice(index)];
}
