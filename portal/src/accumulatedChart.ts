import { accumulatedModel, boxFor, type XY } from './accumulatedModel';
import { costsOverBudget } from './costProblem';
import { amountAxis, chartSvg, chartTable, dayAxis } from './chartParts';
import { h, s } from './dom';
import { drawAtWidth } from './drawAtWidth';
import { day, money } from './format';
import { locale, t } from './i18n';
import type { CostAccumulated } from './types';
import { section } from './ui';

export type Grouping = 'service' | 'resourceGroup';

/** Colours of the stacked groups, largest first; "Other" is always grey. */
const GROUP_CLASSES = ['group-0', 'group-1', 'group-2', 'group-3', 'group-4'];
const line = (points: readonly XY[]) => points.map((point) => `${point.x},${point.y}`).join(' ');

function monthName(month: string): string {
  return new Intl.DateTimeFormat(locale(), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));
}

/**
 * The running month as Azure Cost analysis's accumulated view: the running total (its newest,
 * still-growing days dashed), the forecast to month end, the budget line, last month's curve by
 * day of the month, and under the total the running total of each service or resource group
 * stacked (a switch chooses which). `width` is the width the chart gets, so that one chart unit
 * is one CSS pixel and labels keep their size on a phone.
 */
export function accumulatedSection(data: CostAccumulated, width: number): HTMLElement {
  const lastDay = `${data.month}-${String(data.daysInMonth).padStart(2, '0')}`;
  const title = t('costs.acc.title', { from: day(`${data.month}-01`), to: day(lastDay, true), count: data.daysInMonth });
  const holder = h('div', { class: 'acc-body' });
  let grouping: Grouping = 'service';
  const buttons = (['service', 'resourceGroup'] as const).map((option) => {
    const button = h(
      'button',
      { type: 'button', class: 'button button-toggle', 'aria-pressed': String(option === grouping), 'data-grouping': option },
      t(option === 'service' ? 'costs.acc.byService' : 'costs.acc.byGroup'),
    );
    button.addEventListener('click', () => {
      grouping = option;
      for (const other of buttons) other.setAttribute('aria-pressed', String(other === button));
      redraw();
    });
    return button;
  });
  const redraw = drawAtWidth(holder, width, (current) => chartAndLegend(data, grouping, current));
  return section(
    'acc-title',
    title,
    h('div', { class: 'toggle-group', role: 'group', 'aria-label': t('costs.acc.grouping') }, buttons),
    holder,
  );
}

function chartAndLegend(data: CostAccumulated, grouping: Grouping, width: number): Node[] {
  const { currency } = data;
  const groups = data.groups[grouping];
  const box = boxFor(width);
  const model = accumulatedModel(
    {
      daysInMonth: data.daysInMonth,
      actual: data.actual,
      forecast: data.forecast.points,
      lastMonth: data.lastMonth.points,
      budget: data.budget,
      groups,
    },
    box,
  );
  const lastDay = `${data.month}-${String(data.daysInMonth).padStart(2, '0')}`;
  const monthToDate = data.actual.at(-1)?.cumulative ?? 0;
  const label = t('costs.acc.label', {
    amount: money(monthToDate, currency),
    forecast: money(data.forecast.endOfMonth, currency),
    day: day(lastDay, true),
  });
  const groupClass = (index: number, other: boolean) => (other ? 'group-other' : (GROUP_CLASSES[index] ?? 'group-other'));

  const svg = chartSvg(
    box,
    'trend-chart acc-chart',
    label,
    { 'data-grouping': grouping },
    amountAxis(model.plot, model.yTicks, currency),
    dayAxis(
      model.plot,
      model.xTicks.map((tick) => ({
        x: tick.x,
        label: day(`${data.month}-${String(tick.day).padStart(2, '0')}`),
        last: tick.day === data.daysInMonth,
      })),
    ),
    s(
      'g',
      { class: 'acc-areas' },
      model.areas.map((area, index) =>
        s('polygon', {
          class: `acc-area ${groupClass(index, groups[index]?.other ?? false)}`,
          points: line(area.points),
          'data-group': area.name,
        }),
      ),
    ),
    s('polyline', { class: 'acc-last-month', points: line(model.lastMonth) }),
    model.budgetY === null
      ? null
      : s('line', { class: 'acc-budget', x1: model.plot.left, x2: model.plot.right, y1: model.budgetY, y2: model.budgetY }),
    s('polyline', { class: 'acc-forecast', points: line(model.forecast) }),
    s('polyline', { class: 'chart-line acc-actual', points: line(model.complete) }),
    model.incomplete.length ? s('polyline', { class: 'acc-incomplete', points: line(model.incomplete) }) : null,
    model.incomplete
      .filter((point) => !data.actual.find((actual) => actual.date === point.date)?.complete)
      .map((point) =>
        s(
          'circle',
          { class: 'acc-incomplete-point', cx: point.x, cy: point.y, r: 3.5, 'data-date': point.date },
          s('title', {}, t('costs.acc.pointIncomplete', { day: day(point.date, true), amount: money(point.cumulative, currency) })),
        ),
      ),
  );

  const incompleteDays = data.actual.filter((point) => !point.complete).length;
  const overBudget = costsOverBudget(data) !== null;
  const legend = h(
    'ul',
    { class: 'acc-legend', 'data-testid': 'acc-legend' },
    h(
      'li',
      {},
      h('span', { class: 'swatch swatch-actual', 'aria-hidden': 'true' }),
      t('costs.acc.actual', { amount: money(monthToDate, currency) }),
    ),
    incompleteDays
      ? h(
          'li',
          { 'data-testid': 'acc-incomplete' },
          h('span', { class: 'swatch swatch-incomplete', 'aria-hidden': 'true' }),
          t('costs.acc.incomplete', { count: incompleteDays, day: day(data.completeThrough, true) }),
        )
      : null,
    h(
      'li',
      {},
      h('span', { class: 'swatch swatch-forecast', 'aria-hidden': 'true' }),
      t(data.forecast.method === 'run_rate' ? 'costs.acc.forecastRunRate' : 'costs.acc.forecast', {
        day: day(lastDay),
        amount: money(data.forecast.endOfMonth, currency),
      }),
    ),
    h(
      'li',
      { 'data-testid': 'acc-budget' },
      h('span', { class: 'swatch swatch-budget', 'aria-hidden': 'true' }),
      data.budget === null ? t('costs.acc.noBudget') : t('costs.acc.budget', { amount: money(data.budget, currency) }),
    ),
    h(
      'li',
      {},
      h('span', { class: 'swatch swatch-last-month', 'aria-hidden': 'true' }),
      t('costs.acc.lastMonth', { month: monthName(data.lastMonth.month), amount: money(data.lastMonth.total, currency) }),
    ),
  );
  const groupLegend = h(
    'ul',
    {
      class: 'acc-legend acc-groups',
      'data-testid': 'acc-groups',
      'aria-label': t(grouping === 'service' ? 'costs.acc.byService' : 'costs.acc.byGroup'),
    },
    groups.map((group, index) =>
      h(
        'li',
        {},
        h('span', { class: `swatch ${groupClass(index, group.other)}`, 'aria-hidden': 'true' }),
        `${group.other ? t('costs.acc.other') : group.name}: ${money(group.monthToDate, currency)}`,
      ),
    ),
  );
  const table = chartTable(
    t('costs.acc.running'),
    data.actual.map((point) => [
      point.complete ? day(point.date, true) : t('costs.acc.dayIncomplete', { day: day(point.date, true) }),
      money(point.cumulative, currency),
    ]),
  );
  return [
    h('figure', { class: 'chart' }, h('div', { class: 'chart-frame' }, svg), legend, groupLegend),
    overBudget && data.budget !== null
      ? h(
          'p',
          { class: 'alert alert-warning', 'data-testid': 'acc-over-budget' },
          t('costs.acc.overBudget', { amount: money(data.forecast.endOfMonth - data.budget, currency) }),
        )
      : null,
    table,
  ].filter((node): node is HTMLElement => node !== null);
}
