import { download, getJson } from '../api';
import { accumulatedSection } from '../accumulatedChart';
import { lineChart } from '../chart';
import { h, replace } from '../dom';
import { drawAtWidth } from '../drawAtWidth';
import { dateTime, day, money, percent } from '../format';
import { t } from '../i18n';
import type { CostAccumulated, CostBreakdown, CostStatus, CostSummary, CostTimeseries, Delta, Freshness } from '../types';
import { dataTable, loading, problemBox, section, tableWrap } from '../ui';

const BASE = '/api/admin/v1/costs';

/**
 * The cost dashboard: status first; unconfigured shows only the message. Otherwise summary,
 * breakdown and the 30-day series load side by side; a block whose call fails shows the
 * backend's operator text, the others still render.
 */
export async function costsPage(main: HTMLElement): Promise<void> {
  const body = h('div', { class: 'stack' }, loading());
  main.append(h('h1', { tabindex: -1 }, t('costs.title')), body);

  let status: CostStatus;
  try {
    status = await getJson<CostStatus>(`${BASE}/status`);
  } catch (error) {
    replace(body, problemBox(t('costs.providerError'), error));
    return;
  }
  if (!status.configured) {
    replace(
      body,
      h(
        'div',
        { class: 'alert alert-info', role: 'status', 'data-testid': 'costs-unconfigured' },
        h('p', { class: 'alert-title' }, t('costs.unconfigured.title')),
        h('p', {}, t('costs.unconfigured.body')),
      ),
    );
    return;
  }

  const [summary, breakdown, series, accumulated] = await Promise.allSettled([
    getJson<CostSummary>(`${BASE}/summary`),
    getJson<CostBreakdown>(`${BASE}/breakdown`),
    getJson<CostTimeseries>(`${BASE}/timeseries?days=30`),
    getJson<CostAccumulated>(`${BASE}/accumulated`),
  ]);
  const failures = [summary, breakdown, series, accumulated].filter(
    (result): result is PromiseRejectedResult => result.status === 'rejected',
  );
  // One box per distinct problem: a refused provider fails every call the same way.
  const seen = new Set<string>();
  const problems = failures
    .map((failure) => failure.reason as { code?: string; detail?: string; message?: string })
    .filter((reason) => {
      const key = `${reason.code ?? ''}|${reason.detail ?? reason.message ?? ''}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((reason) => problemBox(t('costs.providerError'), reason));

  const width = chartWidth(body);
  const freshness = [summary, breakdown, series, accumulated].flatMap((result) =>
    result.status === 'fulfilled' ? [result.value as Freshness] : [],
  );
  replace(
    body,
    problems,
    freshness.length ? asOfLine(freshness) : null,
    summary.status === 'fulfilled' ? tiles(summary.value) : null,
    accumulated.status === 'fulfilled' ? accumulatedSection(accumulated.value, width) : null,
    summary.status === 'fulfilled' ? groupTable(summary.value) : null,
    series.status === 'fulfilled' ? trend(series.value, width) : null,
    breakdown.status === 'fulfilled' ? breakdownTable(breakdown.value) : null,
    downloadBlock(),
  );
}

/**
 * The width a chart gets inside a card on this screen, measured on an empty card (its padding
 * differs between desktop and phone), so that the chart is drawn one unit per CSS pixel.
 */
function chartWidth(container: HTMLElement): number {
  const probe = h('section', { class: 'card', 'aria-hidden': 'true' });
  container.append(probe);
  const style = getComputedStyle(probe);
  const width = probe.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  probe.remove();
  return width;
}

function asOfLine(answers: Freshness[]): HTMLElement {
  // The oldest data shown decides the page's as-of time.
  const oldest = answers.reduce((a, b) => (a.asOf <= b.asOf ? a : b));
  const notes = [
    answers.some((answer) => answer.cached) ? t('costs.cached') : '',
    answers.some((answer) => answer.stale) ? t('costs.stale') : '',
  ]
    .filter(Boolean)
    .join(', ');
  return h(
    'p',
    { class: 'as-of', 'data-testid': 'costs-as-of' },
    h('time', { datetime: oldest.asOf }, t('costs.asOf', { time: dateTime(oldest.asOf) })),
    notes ? ` (${notes})` : '',
    h('br'),
    h('span', { class: 'muted small' }, t('costs.lag')),
  );
}

/**
 * Only complete days: cost data lags 8–24 hours, and today's partial figure drawn as a point
 * would read as a sudden drop. A note names the day the chart ends and how many were left out.
 */
function trend(series: CostTimeseries, width: number): HTMLElement {
  const complete = series.points.filter((point) => point.complete);
  const left = series.points.length - complete.length;
  const total = complete.reduce((sum, point) => sum + point.cost, 0);
  // The title counts the days drawn, not the days asked for.
  const first = complete[0]?.date ?? series.from;
  const last = complete.at(-1)?.date ?? series.to;
  return section(
    'trend-title',
    t('costs.trend.title', { from: day(first), to: day(last, true), count: complete.length }),
    complete.length
      ? chartHolder(width, (current) => lineChart(complete, series.currency, Math.round(total * 100) / 100, current))
      : h('p', { class: 'muted' }, t('costs.trend.none')),
    left > 0
      ? h(
          'p',
          { class: 'muted small', 'data-testid': 'trend-incomplete' },
          t('costs.trend.incomplete', { day: day(series.completeThrough, true), count: left }),
        )
      : null,
  );
}

/** A block that draws its chart at the width it gets, and again when that changes. */
function chartHolder(width: number, draw: (width: number) => HTMLElement): HTMLElement {
  const holder = h('div', {});
  drawAtWidth(holder, width, draw);
  return holder;
}

function deltaText(delta: Delta, currency: string): string {
  return `${money(delta.absolute, currency, true)} (${percent(delta.percent, true)})`;
}

function deltaClass(delta: Delta): string {
  return delta.absolute > 0 ? 'up' : delta.absolute < 0 ? 'down' : '';
}

function tiles(summary: CostSummary): HTMLElement {
  const tile = (id: string, label: string, value: string, note?: string | string[], extraClass = '') =>
    h(
      'div',
      { class: `tile ${extraClass}`, 'data-testid': `tile-${id}` },
      h('p', { class: 'tile-label' }, label),
      h('p', { class: 'tile-value' }, value),
      [note ?? []].flat().map((line) => h('p', { class: 'tile-note' }, line)),
    );
  return h(
    'section',
    { class: 'tiles', 'aria-label': t('costs.month', { month: summary.month }) },
    tile('mtd', t('costs.mtd'), money(summary.monthToDate, summary.currency), [
      t('costs.mtdVs', {
        period: period(summary.samePeriod),
        amount: money(summary.lastMonthToDate, summary.currency),
        delta: deltaText(summary.deltaToLastMonthToDate, summary.currency),
      }),
      t('costs.mtdIncomplete', { day: day(summary.completeThrough) }),
    ]),
    tile(
      'forecast',
      t('costs.forecast'),
      money(summary.forecast.endOfMonth, summary.currency),
      summary.forecast.method === 'run_rate' ? t('costs.forecastRunRate') : undefined,
    ),
    tile('last-month', t('costs.lastMonth'), money(summary.lastMonth, summary.currency)),
    tile('delta', t('costs.delta'), deltaText(summary.deltaToLastMonth, summary.currency), undefined, deltaClass(summary.deltaToLastMonth)),
    h('p', { class: 'muted small tiles-note' }, t('costs.currency', { currency: summary.currency })),
    summary.warnings.length
      ? h(
          'div',
          { class: 'alert alert-warning' },
          h('p', { class: 'alert-title' }, t('costs.warnings')),
          h(
            'ul',
            {},
            summary.warnings.map((w) => h('li', {}, w)),
          ),
        )
      : null,
  );
}

/** "1–21 Oct": the days of last month compared with the month so far. */
function period(range: { from: string; to: string }): string {
  return range.from === range.to ? day(range.from) : `${day(range.from)} – ${day(range.to)}`;
}

function groupTable(summary: CostSummary): HTMLElement {
  const { currency } = summary;
  const table = dataTable(
    { 'data-testid': 'resource-groups' },
    [
      t('costs.groups.group'),
      { label: t('costs.groups.mtd'), numeric: true },
      { label: t('costs.groups.samePeriod', { period: period(summary.samePeriod) }), numeric: true },
      { label: t('costs.groups.delta'), numeric: true },
      { label: t('costs.groups.lastMonth'), numeric: true },
    ],
    summary.resourceGroups.map((group) =>
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, group.resourceGroup),
        h('td', { class: 'num' }, money(group.monthToDate, currency)),
        h('td', { class: 'num' }, money(group.lastMonthToDate, currency)),
        h('td', { class: `num ${deltaClass(group.delta)}` }, deltaText(group.delta, currency)),
        h('td', { class: 'num' }, money(group.lastMonth, currency)),
      ),
    ),
  );
  return section('groups-title', t('costs.groups.title'), tableWrap(table, t('costs.groups.title')));
}

function breakdownTable(breakdown: CostBreakdown): HTMLElement {
  const { currency } = breakdown;
  const table = h(
    'table',
    { 'data-testid': 'services' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, t('costs.breakdown.service')),
        h('th', { scope: 'col', class: 'num' }, t('costs.breakdown.cost')),
        h('th', { scope: 'col', class: 'num' }, t('costs.breakdown.share')),
      ),
    ),
    h(
      'tbody',
      {},
      breakdown.services.map((service) => {
        const bar = h('span', { class: 'share-bar', 'aria-hidden': 'true' });
        // CSSOM, not a style attribute: the CSP allows no inline styles.
        bar.style.width = `${Math.min(100, Math.max(0, service.sharePercent))}%`;
        return h(
          'tr',
          {},
          h('th', { scope: 'row' }, service.service),
          h('td', { class: 'num' }, money(service.cost, currency)),
          h('td', { class: 'num share' }, h('span', { class: 'share-track' }, bar), percent(service.sharePercent)),
        );
      }),
    ),
    h(
      'tfoot',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, t('costs.breakdown.total')),
        h('td', { class: 'num' }, money(breakdown.total, currency)),
        h('td', { class: 'num' }, percent(100)),
      ),
    ),
  );
  return section('breakdown-title', t('costs.breakdown.title'), tableWrap(table, t('costs.breakdown.title')));
}

function downloadBlock(): HTMLElement {
  const message = h('p', { class: 'muted small', role: 'status', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', class: 'button', 'data-testid': 'download-csv' }, t('costs.download'));
  button.addEventListener('click', () => {
    button.disabled = true;
    message.textContent = t('costs.downloading');
    download(`${BASE}/export.csv?days=30`, 'costs.csv')
      .then((name) => replace(message, t('costs.downloaded', { name })))
      .catch((error: unknown) => replace(message, problemBox(t('costs.downloadFailed'), error)))
      .finally(() => {
        button.disabled = false;
      });
  });
  return h('div', { class: 'download' }, button, message);
}
