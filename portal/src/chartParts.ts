import type { ChartBox } from './chartModel';
import { h, s, type Child } from './dom';
import { money } from './format';
import { t } from './i18n';
import { dataTable } from './ui';

type Plot = { left: number; right: number; top: number; bottom: number };

/** The frame both cost charts draw in: one chart unit per CSS pixel, described by `label` for screen readers. */
export function chartSvg(
  box: ChartBox,
  className: string,
  label: string,
  props: Record<string, string | number>,
  ...children: Child[]
): SVGSVGElement {
  return s(
    'svg',
    {
      class: className,
      viewBox: `0 0 ${box.width} ${box.height}`,
      width: box.width,
      height: box.height,
      role: 'img',
      'aria-label': label,
      ...props,
    },
    s('title', {}, label),
    ...children,
  );
}

/** Gridlines at the amount ticks, each labelled in the currency; the zero line is the baseline. */
export function amountAxis(plot: Plot, ticks: readonly { value: number; y: number }[], currency: string): SVGGElement {
  return s(
    'g',
    { class: 'axis axis-y' },
    ticks.map((tick) => [
      s('line', { x1: plot.left, x2: plot.right, y1: tick.y, y2: tick.y, class: tick.value === 0 ? 'baseline' : 'grid' }),
      s('text', { x: plot.left - 8, y: tick.y, 'text-anchor': 'end', 'dominant-baseline': 'middle' }, money(tick.value, currency)),
    ]),
  );
}

/**
 * Day ticks under the plot. The tick on the right edge (`last`) ends its label there instead of
 * spilling over or being cut off on a phone.
 */
export function dayAxis(plot: Plot, ticks: readonly { x: number; label: string; last: boolean }[], ...extra: Child[]): SVGGElement {
  return s(
    'g',
    { class: 'axis axis-x' },
    ...extra,
    ticks.map((tick) => [
      s('line', { x1: tick.x, x2: tick.x, y1: plot.bottom, y2: plot.bottom + 5, class: 'baseline' }),
      s('text', { x: tick.x, y: plot.bottom + 22, 'text-anchor': tick.last ? 'end' : 'middle' }, tick.label),
    ]),
  );
}

/** The chart's values as a table (folded away), a row per day: what the chart shows, for reading and copying. */
export function chartTable(valueHeading: string, rows: readonly [day: string, value: string][]): HTMLDetailsElement {
  return h(
    'details',
    { class: 'chart-table' },
    h('summary', {}, t('costs.trend.table')),
    h(
      'div',
      { class: 'table-wrap' },
      dataTable(
        {},
        [t('costs.trend.date'), { label: valueHeading, numeric: true }],
        rows.map(([day, value]) => h('tr', {}, h('td', {}, day), h('td', { class: 'num' }, value))),
      ),
    ),
  );
}
