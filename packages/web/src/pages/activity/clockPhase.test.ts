import { describe, expect, it } from 'vitest';
import { clockState, phaseKey } from './clockPhase';

const T0 = Date.parse('2026-11-24T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

describe('the contest clock', () => {
  const contest = { startDate: at(0), endDate: at(300), rankingFreezeAt: at(240), rankingRevealAt: at(360) };

  it('counts down to the start, then the time left, then says it ended', () => {
    expect(clockState([contest], T0 - 5000)).toEqual({ phase: { kind: 'before', at: T0 }, frozen: false });
    expect(clockState([contest], T0)).toEqual({ phase: { kind: 'running', until: T0 + 300 * 60_000, paused: false }, frozen: false });
    expect(clockState([contest], T0 + 300 * 60_000).phase).toEqual({ kind: 'ended' });
  });

  it('is frozen from the freeze until the reveal, through the end', () => {
    expect(clockState([contest], T0 + 240 * 60_000 - 1).frozen).toBe(false);
    expect(clockState([contest], T0 + 240 * 60_000).frozen).toBe(true);
    expect(clockState([contest], T0 + 310 * 60_000)).toEqual({ phase: { kind: 'ended' }, frozen: true });
    expect(clockState([contest], T0 + 360 * 60_000).frozen).toBe(false);
  });

  it('follows the series ending first among those running, and the next start between series', () => {
    const week1 = { startDate: at(0), endDate: at(60) };
    const week2 = { startDate: at(30), endDate: at(200) };
    const later = { startDate: at(500) };
    expect(clockState([week1, week2, later], T0 + 45 * 60_000).phase).toEqual({ kind: 'running', until: T0 + 60 * 60_000, paused: false });
    expect(clockState([week1, week2, later], T0 + 300 * 60_000).phase).toEqual({ kind: 'before', at: T0 + 500 * 60_000 });
  });

  it('runs without an end, says paused, and shows nothing without dates', () => {
    expect(clockState([{ startDate: at(0) }], T0 + 1).phase).toEqual({ kind: 'running', paused: false });
    const paused = clockState([{ ...contest, pausedAt: at(10) }], T0 + 20 * 60_000);
    expect(phaseKey(paused.phase)).toBe('paused');
    expect(clockState([{}], T0).phase).toEqual({ kind: 'none' });
    expect(clockState([], T0).phase).toEqual({ kind: 'none' });
  });
});
