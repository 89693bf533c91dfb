import { niceStep, type ChartBox } from './chartModel';

/**
 * The geometry of the accumulated cost chart (Azure Cost analysis's "accumulated" view), without
 * the DOM: x is the day of the month from the 1st to the last day, y the running total. It holds
 * the actual curve split into complete days and the still-growing newest days, the forecast to
 * month end, last month's curve by day of the month, the budget line and the running total of
 * each group stacked as areas.
 */
export interface AccumulatedInput {
  daysInMonth: number;
  actual: readonly { date: string; cumulative: number; complete: boolean }[];
  forecast: readonly { date: string; cumulative: number }[];
  lastMonth: readonly { day: number; cumulative: number }[];
  budget: number | null;
  /** Running totals per day of `actual`, largest group first (drawn at the bottom). */
  groups: readonly { name: string; cumulative: readonly number[] }[];
}

export interface XY {
  x: number;
  y: number;
}

export interface AccumulatedModel {
  plot: { left: number; right: number; top: number; bottom: number };
  max: number;
  yTicks: { value: number; y: number }[];
  /** Day-of-month labels: the 1st, every 7 days, and the last day. */
  xTicks: { day: number; x: number }[];
  /** Complete days; the last one is also the first of `incomplete` so the line is unbroken. */
  complete: (XY & { date: string; cumulative: number })[];
  incomplete: (XY & { date: string; cumulative: number })[];
  forecast: XY[];
  lastMonth: XY[];
  budgetY: number | null;
  /** One closed outline per group, stacked in the order given. */
  areas: { name: string; points: XY[] }[];
}

const round = (value: number) => Math.round(value * 100) / 100;
const dayOf = (date: string) => Number(date.slice(8, 10));

/** Plot width and height for the width the chart gets on screen: one chart unit per CSS pixel. */
export function boxFor(width: number): ChartBox {
  const clamped = Math.round(Math.min(960, Math.max(300, width)));
  const narrow = clamped < 560;
  return {
    width: clamped,
    height: narrow ? 260 : 320,
    margin: { top: 16, right: narrow ? 12 : 24, bottom: 36, left: narrow ? 64 : 76 },
  };
}

export function accumulatedModel(input: AccumulatedInput, box: ChartBox, yTickCount = 4): AccumulatedModel {
  const plot = { left: box.margin.left, right: box.width - box.margin.right, top: box.margin.top, bottom: box.height - box.margin.bottom };
  const days = Math.max(1, input.daysInMonth);
  // Last month may be longer than this one: only the days this month has are drawn.
  const lastMonth = input.lastMonth.filter((point) => point.day <= days);
  const highest = Math.max(
    0,
    ...input.actual.map((point) => point.cumulative),
    ...input.forecast.map((point) => point.cumulative),
    ...lastMonth.map((point) => point.cumulative),
    input.budget ?? 0,
  );
  const step = niceStep(highest, yTickCount);
  const max = Math.max(step, Math.ceil(highest / step - 1e-9) * step);
  const xAt = (day: number) =>
    round(days <= 1 ? (plot.left + plot.right) / 2 : plot.left + ((plot.right - plot.left) * (day - 1)) / (days - 1));
  const yAt = (value: number) => round(plot.bottom - ((plot.bottom - plot.top) * value) / max);

  const actual = input.actual.map((point) => ({ ...point, x: xAt(dayOf(point.date)), y: yAt(point.cumulative) }));
  const firstIncomplete = actual.findIndex((point) => !point.complete);
  const complete = firstIncomplete < 0 ? actual : actual.slice(0, firstIncomplete);
  const incomplete = firstIncomplete < 0 ? [] : actual.slice(Math.max(0, firstIncomplete - 1));

  const yTicks: AccumulatedModel['yTicks'] = [];
  for (let value = 0; value <= max + step / 2; value += step) yTicks.push({ value: round(value), y: yAt(value) });
  const tickDays = [...new Set([...Array.from({ length: Math.ceil(days / 7) }, (_, i) => 1 + i * 7), days])];
  // The last day's label would overlap a label fewer than 3 days before it.
  const xTicks = tickDays
    .filter((day, index) => day === days || (tickDays[index + 1] ?? Infinity) - day >= 3)
    .map((day) => ({ day, x: xAt(day) }));

  const base = actual.map(() => 0);
  const areas = input.groups.map((group) => {
    const lower = [...base];
    group.cumulative.forEach((value, index) => (base[index] = (base[index] ?? 0) + value));
    const top = actual.map((point, index) => ({ x: point.x, y: yAt(base[index] ?? 0) }));
    const bottom = actual.map((point, index) => ({ x: point.x, y: yAt(lower[index] ?? 0) })).reverse();
    return { name: group.name, points: [...top, ...bottom] };
  });

  return {
    plot,
    max,
    yTicks,
    xTicks,
    complete,
    incomplete,
    forecast: input.forecast.map((point) => ({ x: xAt(dayOf(point.date)), y: yAt(point.cumulative) })),
    lastMonth: lastMonth.map((point) => ({ x: xAt(point.day), y: yAt(point.cumulative) })),
    budgetY: input.budget === null ? null : yAt(input.budget),
    areas,
  };
}
