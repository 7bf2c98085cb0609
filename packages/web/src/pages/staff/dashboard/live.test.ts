import { afterEach, describe, expect, it, vi } from 'vitest';
import { changesDashboard, throttle } from './live';

describe('what refetches the dashboard', () => {
  it("takes its own activity's submission, question and printout events, and every runner event", () => {
    for (const type of ['submissionChanged', 'questionChanged', 'printoutChanged']) {
      expect(changesDashboard({ type, data: { activityId: 'a1' } }, 'a1')).toBe(true);
      expect(changesDashboard({ type, data: { activityId: 'a2' } }, 'a1')).toBe(false);
    }
    expect(changesDashboard({ type: 'runnerChanged', data: { deletedId: 'r' } }, 'a1')).toBe(true);
    expect(changesDashboard({ type: 'rankingChanged', data: { activityId: 'a1' } }, 'a1')).toBe(false);
  });
});

describe('the throttle', () => {
  afterEach(() => vi.useRealTimers());

  it('runs at once after a quiet spell, then once more for a burst, after the interval', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    const t = throttle(run, 1000, () => Date.now());
    t.signal();
    expect(run).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 20; i++) t.signal();
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(999);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(2);
    // nothing pending: no further run
    vi.advanceTimersByTime(5000);
    expect(run).toHaveBeenCalledTimes(2);
    t.signal();
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('runs nothing after cancel', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    const t = throttle(run, 1000, () => Date.now());
    t.signal();
    t.signal();
    t.cancel();
    vi.advanceTimersByTime(5000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
