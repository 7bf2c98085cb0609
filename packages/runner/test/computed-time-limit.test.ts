import { describe, expect, it } from 'vitest';
import type { ProblemLimits } from '@judge/problem-package';
import { resolveLimits } from '../src/judging/limits.js';
import type { ProblemSpec } from '../src/problem/types.js';

/**
 * The time limit a calibration trial computed for a package that names none: the server hands it
 * with each job (ClaimedJob.timeLimitSeconds) and the runner takes it as the package's figure. The
 * assignment's config still wins, the instance's maxima still cap, and a limit the package names
 * is never replaced.
 */

/** Only the limits matter to resolveLimits. */
const problem = (limits: Partial<ProblemLimits> = {}): ProblemSpec => ({ limits: { ...limits } }) as unknown as ProblemSpec;

describe('resolveLimits with a computed time limit', () => {
  it('uses the computed limit when the package names none, and says where it came from', () => {
    const r = resolveLimits(problem(), {}, {}, undefined, 3);
    expect(r.run.cpuMs).toBe(3000);
    expect(r.run.wallMs).toBe(7000);
    expect(r.notes[0]).toBe('time limit 3 s (computed by a trial)');
  });

  it("keeps the runner's default without one (the trial has not reported), or with a figure that is no limit", () => {
    for (const computed of [undefined, 0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      const r = resolveLimits(problem(), {}, {}, undefined, computed);
      expect(r.run.cpuMs).toBe(2000);
      expect(r.notes[0]).toBe('time limit 2 s (the package names none: runner default)');
    }
    expect(resolveLimits(problem(), {}, { defaultTimeLimitSeconds: 4 }).run.cpuMs).toBe(4000);
  });

  it('never replaces a limit the package names', () => {
    const r = resolveLimits(problem({ timeLimitSeconds: 1.5, timeLimitSource: '.timelimit' }), {}, {}, undefined, 3);
    expect(r.run.cpuMs).toBe(1500);
    expect(r.notes[0]).toBe('time limit 1.5 s (.timelimit)');
  });

  it("yields to the assignment's config, and is capped by the instance's maxima", () => {
    expect(resolveLimits(problem(), { timeLimitSeconds: 5 }, {}, undefined, 3).run.cpuMs).toBe(5000);
    const capped = resolveLimits(problem(), {}, {}, { timeLimitSeconds: 2 }, 3);
    expect(capped.run.cpuMs).toBe(2000);
    expect(capped.notes[0]).toBe("time limit 3 s capped to the instance's maximum, 2 s (computed by a trial)");
    // the config's figure is capped too
    expect(resolveLimits(problem(), { timeLimitSeconds: 5 }, {}, { timeLimitSeconds: 2 }, 3).run.cpuMs).toBe(2000);
  });
});
