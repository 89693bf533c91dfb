import { boxFor } from './accumulatedModel';
import { chartModel, nearestIndex, type ChartPoint } from './chartModel';
import { amountAxis, chartSvg, chartTable, dayAxis } from './chartParts';
import { h, s } from './dom';
import { day, money } from './format';
import { t } from './i18n';

/**
 * The daily trend as an SVG line chart: y axis in the currency with round ticks, x axis with a
 * label every 7 days, one point per day. Hovering (or arrow keys while the chart has focus) shows
 * the day's value in the readout below the chart; the values are also available as a table.
 */
export function lineChart(series: readonly ChartPoint[], currency: string, total: number, width: number): HTMLElement {
  // One chart unit per CSS pixel of the width the chart gets: labels keep their size on a phone.
  const BOX = boxFor(width);
  const model = chartModel(series, BOX);
  const first = series[0]?.date ?? '';
  const last = series[series.length - 1]?.date ?? '';
  const label = t('costs.trend.label', { from: day(first, true), to: day(last, true), total: money(total, currency) });
  const readout = h('p', { class: 'chart-readout', 'aria-live': 'polite', 'data-testid': 'chart-readout' }, t('costs.trend.hint'));
  const marker = s('circle', { class: 'chart-marker', r: 6, cx: -100, cy: -100, 'aria-hidden': 'true' });

  const svg = chartSvg(
    BOX,
    'trend-chart',
    label,
    { tabindex: 0, preserveAspectRatio: 'xMidYMid meet' },
    amountAxis(model.plot, model.yTicks, currency),
    dayAxis(
      model.plot,
      // The newest day sits on the right edge.
      model.xTicks.map((tick) => ({ x: tick.x, label: day(tick.date), last: tick.x >= model.plot.right })),
      s('line', { x1: model.plot.left, x2: model.plot.left, y1: model.plot.top, y2: model.plot.bottom, class: 'baseline' }),
    ),
    s('polyline', { class: 'chart-line', points: model.points.map((point) => `${point.x},${point.y}`).join(' ') }),
    s(
      'g',
      { class: 'chart-points' },
      model.points.map((point) =>
        s(
          'circle',
          { class: 'point', cx: point.x, cy: point.y, r: 3.5, 'data-date': point.date, 'data-cost': point.cost },
          s('title', {}, `${day(point.date, true)}: ${money(point.cost, currency)}`),
        ),
      ),
    ),
    marker,
  );

  let active = -1;
  const show = (index: number) => {
    const point = model.points[index];
    if (!point) return;
    active = index;
    marker.setAttribute('cx', String(point.x));
    marker.setAttribute('cy', String(point.y));
    readout.textContent = `${day(point.date, true)}: ${money(point.cost, currency)}`;
  };
  svg.addEventListener('mousemove', (event) => {
    const rect = svg.getBoundingClientRect();
    if (rect.width === 0) return;
    // viewBox units; preserveAspectRatio "meet" keeps the whole box visible and centred.
    const scale = Math.min(rect.width / BOX.width, rect.height / BOX.height);
    const offsetX = (rect.width - BOX.width * scale) / 2;
    show(nearestIndex(model, (event.clientX - rect.left - offsetX) / scale));
  });
  svg.addEventListener('focus', () => show(active < 0 ? model.points.length - 1 : active));
  svg.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight' || event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      const next =
        event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? model.points.length - 1
            : Math.min(model.points.length - 1, Math.max(0, active + (event.key === 'ArrowLeft' ? -1 : 1)));
      show(next);
    }
  });

  const table = chartTable(
    t('costs.trend.cost'),
    series.map((point) => [day(point.date, true), money(point.cost, currency)]),
  );
  return h('figure', { class: 'chart' }, h('div', { class: 'chart-frame' }, svg), readout, table);
}
