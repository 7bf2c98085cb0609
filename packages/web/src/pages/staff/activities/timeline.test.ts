import type { Series } from '@judge/contract';
import { describe, expect, it } from 'vitest';
import { timelineOf } from './timeline';

const H = 3_600_000;
const at = (h: number) => new Date(Date.UTC(2026, 11, 1) + h * H).toISOString();
const series = (id: string, start?: number, end?: number, freeze?: number) =>
  ({ id, name: id, ...(start !== undefined ? { startDate: at(start) } : {}), ...(end !== undefined ? { endDate: at(end) } : {}), ...(freeze !== undefined ? { rankingFreezeAt: at(freeze) } : {}) }) as Series;

describe('the timeline of the series', () => {
  it('places each bar in order on one span, the freeze inside its bar, and now on the span', () => {
    const m = timelineOf([series('a', 0, 4, 3), series('b', 5, 10)], Date.parse(at(2)))!;
    const [a, b] = m.bars;
    expect(a!.left).toBeLessThan(b!.left);
    expect(a!.left + a!.width).toBeLessThan(b!.left);
    expect(a!.freeze).toBeCloseTo(75);
    expect(b!.freeze).toBeUndefined();
    expect(m.now!).toBeGreaterThan(a!.left);
    expect(m.now!).toBeLessThan(a!.left + a!.width);
  });

  it('keeps now on the span when it lies after every series, runs a bar without an end to the edge, and has nothing to draw without dates', () => {
    const m = timelineOf([series('a', 0)], Date.parse(at(30)))!;
    expect(m.bars[0]!.openEnded).toBe(true);
    expect(m.bars[0]!.left + m.bars[0]!.width).toBeCloseTo(100);
    expect(m.now!).toBeLessThan(100);
    expect(timelineOf([series('x')], 0)).toBeUndefined();
  });
});
