import { describe, expect, it } from 'vitest';
import { expectedVerdict, parseMeasurement, trialRunning } from './trial';

describe('a trial as the page reads it', () => {
  it('reads the examples, what did not run and the warnings of a measurement', () => {
    const m = parseMeasurement(
      JSON.stringify({ ok: false, submissions: [{ path: 'wrong_answer/a.py', expected: 'wrong_answer', verdict: 'AC', ok: false, why: 'accepted' }], notRun: [{ path: 'x.kt', expected: 'accepted', reason: 'no kotlin' }], warnings: ['w'] }),
    );
    expect(m).toMatchObject({ ok: false, submissions: [{ path: 'wrong_answer/a.py', verdict: 'AC', ok: false }], notRun: [{ reason: 'no kotlin' }], errors: [], warnings: ['w'] });
  });

  it('has no measurement while none came or when it is not JSON', () => {
    expect(parseMeasurement(undefined)).toBeUndefined();
    expect(parseMeasurement('not json')).toBeUndefined();
    expect(parseMeasurement('null')).toBeUndefined();
  });

  it('expects the verdict its directory names, none of a directory that names none, and asks again only while it runs', () => {
    expect(expectedVerdict('accepted')).toBe('AC');
    expect(expectedVerdict('wrong_answer')).toBe('WA');
    expect(expectedVerdict('time_limit_exceeded')).toBe('TLE');
    expect(expectedVerdict('rejected')).toBeUndefined();
    expect(['queued', 'running', 'completed', 'failed'].map(trialRunning)).toEqual([true, true, false, false]);
  });
});
