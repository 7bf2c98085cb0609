import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { ManualClock, raw, TestJudge } from './harness.js';

/**
 * GET /health carries the server's clock: the web app's contest clock measures its offset from it
 * instead of trusting the browser's clock, so it must be the server's own time, to the millisecond,
 * and never served from a cache.
 */
describe('health tells the server time', () => {
  const clock = new ManualClock(new Date('2026-11-22T08:00:00.123Z'));
  let j: TestJudge;
  beforeAll(async () => {
    j = await TestJudge.start({ clock });
  });
  afterAll(() => j.stop());

  it('answers anonymously with the server clock in ISO form with milliseconds', async () => {
    const h = await j.anonymous().call(ops.health);
    expect(h.status).toBe('ok');
    expect(h.serverTime).toBe('2026-11-22T08:00:00.123Z');
  });

  it('follows the server clock, not the caller', async () => {
    clock.advance(90.5);
    const h = await j.anonymous().call(ops.health);
    expect(h.serverTime).toBe('2026-11-22T08:01:30.623Z');
  });

  it('is never cached, so a resync reads the clock afresh', async () => {
    const first = await raw(`${j.url}/api/v1/health`);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    clock.advance(1);
    const second = await raw(`${j.url}/api/v1/health`);
    expect(Date.parse(second.body.serverTime) - Date.parse(first.body.serverTime)).toBe(1000);
  });
});

describe('health on the real clock', () => {
  let j: TestJudge;
  beforeAll(async () => {
    j = await TestJudge.start();
  });
  afterAll(() => j.stop());

  it('tells a time between the request and its answer', async () => {
    const before = Date.now();
    const h = await j.anonymous().call(ops.health);
    const after = Date.now();
    expect(h.serverTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const t = Date.parse(h.serverTime);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(after);
  });
});
