import { getJson } from '../api';
import { h, replace } from '../dom';
import { autoRefresh } from '../autoRefresh';
import { costsOverBudget, withCostProblem } from '../costProblem';
import { deliveryTotals } from '../deliveryOutcomes';
import { day, money } from '../format';
import { t, type Key } from '../i18n';
import { problemList } from '../problemList';
import { ingestState } from '../runbook';
import { capabilityName, platformRoleName } from '../words';
import type { Capability, CostAccumulated, CostStatus, CostSummary, DiagnosticsSummary, ProblemView, Session } from '../types';
import { loading, problemBox, section } from '../ui';

/** Clubs of the freshness list the overview reads (worst first): enough for the problems it names. */
const CLUBS_READ = 20;

/** The cost answers the overview reads once per visit; null when costs are not configured. */
type CostFigures = { summary: CostSummary; accumulated: CostAccumulated | null } | null;

/**
 * "Is everything all right?": the open problems worst first (refreshing itself), the ingest
 * state, clubs by freshness and deliveries per channel; the month's costs against the forecast
 * and the same days of last month, each linking to its page; then the session and its pages.
 */
export async function overviewPage(main: HTMLElement, session: Session): Promise<void> {
  const can = (capability: Capability) => session.capabilities.includes(capability);
  const pages = [
    can('costs.read') ? h('li', {}, h('a', { href: '#/costs' }, t('nav.costs')), ` — ${t('overview.costsHint')}`) : null,
    can('diagnostics.read')
      ? h('li', {}, h('a', { href: '#/diagnostics' }, t('nav.diagnostics')), ` — ${t('overview.diagnosticsHint')}`)
      : null,
  ].filter((item) => item !== null);
  const health = can('diagnostics.read') ? h('div', { class: 'stack' }, loading()) : null;
  const costs = can('costs.read') ? h('div', { class: 'stack' }, loading()) : null;
  main.append(
    h('h1', { tabindex: -1 }, t('overview.title')),
    ...[health, costs].filter((block) => block !== null),
    section(
      'session-title',
      t('overview.signedInAs'),
      h(
        'dl',
        { class: 'session' },
        h('dt', {}, t('overview.userId')),
        h('dd', { 'data-testid': 'session-sub' }, session.sub),
        h('dt', {}, t('overview.roles')),
        h('dd', { 'data-testid': 'session-roles' }, session.roles.map(platformRoleName).join(', ') || t('common.none')),
        h('dt', {}, t('overview.capabilities')),
        h('dd', { 'data-testid': 'session-capabilities' }, session.capabilities.map(capabilityName).join(', ') || t('common.none')),
      ),
    ),
    section('pages-title', t('overview.pages'), pages.length ? h('ul', {}, pages) : h('p', {}, t('overview.noPages'))),
  );
  // Read once and shared: the costs line shows them, the problem list adds "costs over budget" from them.
  const costFigures = costs ? readCosts() : null;
  if (health) healthBlock(health, costFigures);
  await (costs && costFigures ? costBlock(costs, costFigures) : null);
}

async function readCosts(): Promise<CostFigures> {
  const status = await getJson<CostStatus>('/api/admin/v1/costs/status');
  if (!status.configured) return null;
  const [summary, accumulated] = await Promise.all([
    getJson<CostSummary>('/api/admin/v1/costs/summary'),
    // Without the accumulated answer the line still shows the month; only the budget is missing.
    getJson<CostAccumulated>('/api/admin/v1/costs/accumulated').catch(() => null),
  ]);
  return { summary, accumulated };
}

/**
 * The open problems, worst first, then the ingest state, the clubs by freshness and the
 * deliveries of 24 hours per channel; read again every 30 s while the tab is visible.
 */
function healthBlock(host: HTMLElement, costs: Promise<CostFigures> | null): void {
  const content = h('div', {}, loading());
  let summary: DiagnosticsSummary | null = null;
  let costProblem: ProblemView | null = null;
  const render = () => {
    if (summary) showHealth(content, summary, costProblem);
  };
  // The costs arrive when they arrive: a slow cost provider never holds up the other problems.
  void costs?.then(
    (figures) => {
      costProblem = figures?.accumulated ? costsOverBudget(figures.accumulated) : null;
      render();
    },
    () => undefined,
  );
  const load = async () => {
    try {
      summary = await getJson<DiagnosticsSummary>(`/api/admin/diagnostics/summary?limit=${CLUBS_READ}`);
      render();
    } catch (error) {
      summary = null;
      replace(content, problemBox(t('board.title'), error));
    }
  };
  replace(host, section('overview-health-title', t('board.title'), autoRefresh(load), content));
}

function showHealth(content: HTMLElement, summary: DiagnosticsSummary, costProblem: ProblemView | null): void {
  const state = ingestState(summary.ingest);
  const freshness = summary.dataFreshness;
  replace(
    content,
    problemList(withCostProblem(summary.problems, costProblem)),
    h(
      'p',
      { class: `ingest-state state-${state}`, 'data-testid': 'overview-ingest', 'data-state': state },
      t('diag.ingest.state'),
      ' ',
      h('strong', {}, t(`diag.headline.${state}` as Key)),
      ' — ',
      h('a', { href: '#/diagnostics' }, t('overview.toDiagnostics')),
    ),
    h(
      'p',
      { 'data-testid': 'overview-freshness' },
      t('overview.freshness', {
        stale: freshness.stale,
        unknown: freshness.unknown,
        fresh: freshness.fresh,
        checked: freshness.checked,
      }),
    ),
    deliveryTotals(summary.delivery),
  );
}

/** The month to date against the forecast and last month, which of its days are still incomplete, and the budget. */
async function costBlock(host: HTMLElement, costs: Promise<CostFigures>): Promise<void> {
  try {
    const figures = await costs;
    if (!figures) {
      replace(host, section('overview-costs-title', t('costs.title'), h('p', { class: 'muted' }, t('costs.unconfigured.title'))));
      return;
    }
    const { summary, accumulated } = figures;
    const { currency } = summary;
    const over = accumulated ? costsOverBudget(accumulated) : null;
    replace(
      host,
      section(
        'overview-costs-title',
        t('costs.title'),
        h(
          'p',
          { 'data-testid': 'overview-costs' },
          t('overview.costs', {
            mtd: money(summary.monthToDate, currency),
            forecast: money(summary.forecast.endOfMonth, currency),
            lastMonth: money(summary.lastMonth, currency),
            samePeriod: money(summary.lastMonthToDate, currency),
          }),
          ' — ',
          h('a', { href: '#/costs' }, t('overview.toCosts')),
        ),
        h(
          'p',
          { class: 'muted small', 'data-testid': 'overview-costs-incomplete' },
          t('costs.mtdIncomplete', { day: day(summary.completeThrough) }),
        ),
        accumulated
          ? h(
              'p',
              { class: over ? 'alert alert-warning' : 'muted small', 'data-testid': 'overview-costs-budget' },
              accumulated.budget === null
                ? t('costs.acc.noBudget')
                : t('costs.acc.budget', { amount: money(accumulated.budget, currency) }),
              over && accumulated.budget !== null
                ? `. ${t('costs.acc.overBudget', { amount: money(accumulated.forecast.endOfMonth - accumulated.budget, currency) })}`
                : null,
            )
          : null,
      ),
    );
  } catch (error) {
    replace(host, problemBox(t('costs.title'), error));
  }
}
