import { accumulatedModel, boxFor } from '../../portal/src/accumulatedModel';

const box = { width: 330, height: 140, margin: { top: 10, right: 10, bottom: 30, left: 30 } };
// plot: x 30..320 over days 1..30 (10 per day), y 110 (0) .. 10 (max)
const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}`;
const input = {
  daysInMonth: 30,
  actual: [1, 2, 3, 4, 5].map((n) => ({ date: day(n), cumulative: n * 10, complete: n <= 3 })),
  forecast: [5, 30].map((n) => ({ date: day(n), cumulative: n * 10 })),
  lastMonth: Array.from({ length: 31 }, (_, i) => ({ day: i + 1, cumulative: (i + 1) * 5 })),
  budget: 250,
  groups: [
    { name: 'Storage', cumulative: [5, 10, 15, 20, 25] },
    { name: 'Bandwidth', cumulative: [5, 10, 15, 20, 25] },
  ],
};

describe('accumulated chart geometry', () => {
  const model = accumulatedModel(input, box);

  it('scales to the largest of the curves and the budget, on round ticks', () => {
    // Forecast end 300 is the highest: ticks of 100 up to 300.
    expect(model.max).toBe(300);
    expect(model.yTicks.map((tick) => tick.value)).toEqual([0, 100, 200, 300]);
    expect(model.budgetY).toBeCloseTo(110 - (100 * 250) / 300, 1);
  });

  it('puts day 1 on the left edge and the last day of the month on the right, labelled', () => {
    // 10 of 300 is a thirtieth of the 100-unit height, rounded to hundredths.
    expect(model.complete[0]).toMatchObject({ x: 30, y: 106.67 });
    expect(model.forecast.at(-1)).toEqual({ x: 320, y: 10 });
    expect(model.xTicks.map((tick) => tick.day)).toEqual([1, 8, 15, 22, 30]);
  });

  it('splits the actual curve at the last complete day, sharing that point so the line is unbroken', () => {
    expect(model.complete.map((point) => point.date)).toEqual([day(1), day(2), day(3)]);
    expect(model.incomplete.map((point) => point.date)).toEqual([day(3), day(4), day(5)]);
    const allComplete = accumulatedModel({ ...input, actual: input.actual.map((point) => ({ ...point, complete: true })) }, box);
    expect(allComplete.incomplete).toEqual([]);
  });

  it('draws last month only over the days this month has', () => {
    expect(model.lastMonth).toHaveLength(30);
    expect(model.lastMonth.at(-1)?.x).toBe(320);
  });

  it('stacks the groups: the second starts where the first ends, the top is the total', () => {
    const [first, second] = model.areas;
    expect(first?.points).toHaveLength(10);
    // Top edge of the first group on day 5 is 25, bottom edge of the second there is 25 as well.
    expect(first?.points[4]?.y).toBeCloseTo(110 - (100 * 25) / 300, 1);
    expect(second?.points[9 - 4]?.y).toBe(first?.points[4]?.y);
    expect(second?.points[4]?.y).toBeCloseTo(110 - (100 * 50) / 300, 1);
  });

  it('without a budget draws no budget line, and with no costs still has a scale', () => {
    const empty = accumulatedModel({ ...input, actual: [], forecast: [], lastMonth: [], budget: null, groups: [] }, box);
    expect(empty.budgetY).toBeNull();
    expect(empty.max).toBeGreaterThan(0);
    expect(empty.yTicks[0]).toEqual({ value: 0, y: 110 });
  });

  it('draws one chart unit per screen pixel, within bounds, narrower margins on a phone', () => {
    expect(boxFor(358)).toMatchObject({ width: 358, height: 260 });
    expect(boxFor(358).margin.left).toBeLessThan(boxFor(900).margin.left);
    expect(boxFor(100).width).toBe(300);
    expect(boxFor(2000).width).toBe(960);
  });
});
