/**
 * The geometry of the daily-cost line chart, without the DOM: where each day's point lies, the
 * y-axis ticks (0 up to a round maximum) and which days get an x-axis label.
 */
export interface ChartPoint {
  date: string;
  cost: number;
}

export interface ChartBox {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
}

export interface ChartModel {
  points: { date: string; cost: number; x: number; y: number }[];
  yTicks: { value: number; y: number }[];
  xTicks: { date: string; x: number }[];
  max: number;
  /** x of the first and last point, y of the baseline and of the top. */
  plot: { left: number; right: number; top: number; bottom: number };
}

/** The smallest "round" step (1, 2, 2.5 or 5 times a power of ten) that reaches `max` in `count` steps. */
export function niceStep(max: number, count: number): number {
  if (!(max > 0)) return 1;
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * magnitude >= raw) ?? 10;
  return step * magnitude;
}

export function chartModel(series: readonly ChartPoint[], box: ChartBox, yTickCount = 4, xLabelEvery = 7): ChartModel {
  const plot = {
    left: box.margin.left,
    right: box.width - box.margin.right,
    top: box.margin.top,
    bottom: box.height - box.margin.bottom,
  };
  const highest = Math.max(0, ...series.map((point) => point.cost));
  const step = niceStep(highest, yTickCount);
  const max = Math.max(step, Math.ceil(highest / step - 1e-9) * step);
  const xAt = (index: number) =>
    series.length <= 1 ? (plot.left + plot.right) / 2 : plot.left + ((plot.right - plot.left) * index) / (series.length - 1);
  const yAt = (value: number) => plot.bottom - ((plot.bottom - plot.top) * value) / max;
  const points = series.map((point, index) => ({ ...point, x: round(xAt(index)), y: round(yAt(point.cost)) }));
  const yTicks: ChartModel['yTicks'] = [];
  for (let value = 0; value <= max + step / 2; value += step) yTicks.push({ value: round(value), y: round(yAt(value)) });
  // Labels counted back from the newest day, so today always has one.
  const xTicks = points.filter((_, index) => (series.length - 1 - index) % xLabelEvery === 0).map(({ date, x }) => ({ date, x }));
  return { points, yTicks, xTicks, max, plot };
}

/** The index of the point nearest to `x` (in chart units). */
export function nearestIndex(model: ChartModel, x: number): number {
  let best = 0;
  model.points.forEach((point, index) => {
    if (Math.abs(point.x - x) < Math.abs((model.points[best]?.x ?? Infinity) - x)) best = index;
  });
  return best;
}

const round = (value: number) => Math.round(value * 100) / 100;
