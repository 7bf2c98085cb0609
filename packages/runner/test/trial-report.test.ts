import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe as suite, expect, it } from 'vitest';
import { defaultLanguagesPath, loadLanguages, runTrial, type LanguageTable } from '@judge/runner';
import { hasBwrap, judgeFixture, SUM_C, SUM_PY, SUM_WRONG_C } from './judging.js';

/**
 * What a trial reports (the table `judgectl problems verify` prints): expected against actual per
 * example, problemtools' time limit computed from the accepted examples' measured times when the
 * package names none, the margin check of the time-limit-exceeded examples, and the examples this
 * runner cannot run, with why.
 */

const describe = suite.skipIf(!hasBwrap);
const fixture = judgeFixture();

/** The real table plus a language whose toolchain is nowhere: examples in it cannot run here. */
function tableWithAbsentLanguage(): LanguageTable {
  const t = JSON.parse(readFileSync(defaultLanguagesPath(), 'utf8')) as { languages: Record<string, Record<string, unknown>> };
  t.languages.absent = { ...t.languages.c, name: 'Absent', extensions: ['absent'], requires: ['/nonexistent/absentc'], detect: { headers: [] } };
  const file = join(tmpdir(), `languages-absent-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(t));
  return loadLanguages(file);
}

const TESTS = { 'data/sample/1.in': '1 2\n', 'data/sample/1.ans': '3\n', 'data/secret/1.in': '5 5\n', 'data/secret/1.ans': '10\n' };
/** Python that burns `s` seconds of CPU time before answering. */
const burnPy = (s: number) => `import time\nt = time.process_time()\nwhile time.process_time() - t < ${s}: pass\n${SUM_PY}`;
const SPIN_C = 'int main(void){volatile unsigned long x=0;for(;;)x++;}\n';
const SPIN_PY = 'while True: pass\n';
const SUM_WRONG_PY = 'a, b = map(int, input().split())\nprint(a + b + (a > 4))\n';

const roundHalfUp = (x: number) => Math.floor(0.5 + x + 1e-9);

describe('trial report', () => {
  it('computes the time limit by problemtools rule when the package names none, and judges the rest at it', async () => {
    const problem = await fixture.problemOf({
      'problem.yaml': 'name: Sum\nlimits:\n  time_multiplier: 3\n  time_safety_margin: 1.5\n',
      ...TESTS,
      'submissions/accepted/sum.c': SUM_C,
      'submissions/accepted/slow.py': burnPy(0.3),
      'submissions/accepted/sum.absent': SUM_C,
      'submissions/wrong_answer/off.c': SUM_WRONG_C,
      'submissions/wrong_answer/off.py': SUM_WRONG_PY,
      'submissions/wrong_answer/actually-right.py': SUM_PY,
      'submissions/time_limit_exceeded/spin.c': SPIN_C,
      'submissions/time_limit_exceeded/spin.py': SPIN_PY,
      'submissions/time_limit_exceeded/README.md': 'not a submission\n',
    });
    const trial = await runTrial({ sandbox: fixture.sandbox, languages: tableWithAbsentLanguage(), problem });
    const m = JSON.parse(trial.measurement);
    const by = Object.fromEntries(trial.submissions.map((s) => [s.path, s]));

    // the computed limit follows from the measured CPU time of the slowest accepted example, the
    // least of three runs (a loaded machine only adds time): round(slowest × 3), at least 1 s
    expect(by['accepted/slow.py']!.slowestMs).toBeGreaterThanOrEqual(300);
    expect(by['accepted/slow.py']!.slowestMs).toBeGreaterThan(by['accepted/sum.c']!.slowestMs!);
    const runs = m.timing.slowestAcceptedRunsMs as number[];
    expect(runs).toHaveLength(3);
    expect(runs[0]).toBe(by['accepted/slow.py']!.slowestMs);
    for (const r of runs) expect(r).toBeGreaterThanOrEqual(300);
    const slowest = Math.min(...runs);
    const limit = Math.max(1, roundHalfUp((slowest / 1000) * 3));
    expect(m.timing).toMatchObject({
      calibrated: true,
      calibrationTimeLimitSeconds: 60,
      multiplier: 3,
      multiplierKey: 'limits.time_multiplier',
      safetyMargin: 1.5,
      slowestAcceptedMs: slowest,
      slowestAccepted: 'accepted/slow.py',
      suggestedTimeLimitSeconds: limit,
      timeLimitSeconds: limit,
      timeLimitSource: 'computed by this trial',
      tleMarginSeconds: Math.max(limit + 1, roundHalfUp((slowest / 1000) * 3 * 1.5)),
    });

    expect(by['accepted/sum.c']).toMatchObject({ language: 'c', verdict: 'AC', ok: true, timeLimitSeconds: 60 });
    expect(by['accepted/slow.py']).toMatchObject({ language: 'python3', verdict: 'AC', ok: true });
    expect(by['wrong_answer/off.c']).toMatchObject({ verdict: 'WA', ok: true, timeLimitSeconds: limit });
    expect(by['wrong_answer/off.py']).toMatchObject({ verdict: 'WA', ok: true });
    for (const p of ['time_limit_exceeded/spin.c', 'time_limit_exceeded/spin.py']) {
      expect(by[p]).toMatchObject({ verdict: 'TLE', ok: true, beyondMargin: true, timeLimitSeconds: limit });
      expect(by[p]!.slowestMs).toBeGreaterThan(limit * 1000);
    }
    // the example that disagrees with its directory, and why
    expect(by['wrong_answer/actually-right.py']).toMatchObject({ verdict: 'AC', ok: false });
    expect(by['wrong_answer/actually-right.py']!.why).toContain('no test case got one of WA');
    // the absent language is not run, and is no disagreement
    expect(trial.notRun).toEqual([{ path: 'accepted/sum.absent', expected: 'accepted', language: 'absent', reason: expect.stringContaining('not installed on this runner') }]);
    expect(m.notRun).toEqual(trial.notRun);
    expect(trial.submissions.map((s) => s.path)).not.toContain('accepted/sum.absent');
    expect(trial.ok).toBe(false);
    expect(m.ok).toBe(false);
  }, 120_000);

  it('keeps a limit the package names, checks the accepted margin, and tells a time-limit-exceeded example that is sensitive to the limit', async () => {
    const problem = await fixture.problemOf({
      'problem.yaml': 'problem_format_version: 2023-07\nname: Sum\nlimits:\n  time_limit: 1\n  time_multipliers:\n    time_limit_to_tle: 2\n',
      ...TESTS,
      'submissions/accepted/sum.py': SUM_PY,
      'submissions/time_limit_exceeded/spin.c': SPIN_C,
      'submissions/time_limit_exceeded/barely.py': burnPy(1.3),
    });
    const trial = await runTrial({ sandbox: fixture.sandbox, languages: fixture.languages, problem });
    const m = JSON.parse(trial.measurement);
    const by = Object.fromEntries(trial.submissions.map((s) => [s.path, s]));
    expect(m.timing).toMatchObject({
      calibrated: false,
      timeLimitSeconds: 1,
      timeLimitSource: 'problem.yaml',
      multiplier: 2,
      multiplierKey: 'limits.time_multipliers.ac_to_time_limit',
      safetyMargin: 2,
      tleMarginSeconds: 2,
      acceptedWithinMargin: true,
    });
    expect(m.timing.suggestedTimeLimitSeconds).toBe(Math.max(1, roundHalfUp((m.timing.slowestAcceptedMs / 1000) * 2)));
    expect(by['time_limit_exceeded/spin.c']).toMatchObject({ verdict: 'TLE', ok: true, beyondMargin: true });
    // out of time at 1 s, not at 2 s: it agrees, with a warning as problemtools gives
    expect(by['time_limit_exceeded/barely.py']).toMatchObject({ verdict: 'TLE', ok: true, beyondMargin: false, timeLimitSeconds: 1 });
    expect(m.warnings.join('\n')).toContain('time_limit_exceeded/barely.py runs out of time at 1 s but not at the margin limit of 2 s');
    expect(trial.notRun).toEqual([]);
    expect(trial.ok).toBe(true);
  }, 120_000);

  it('fails a package that names no time limit and has no accepted example to compute one from', async () => {
    const problem = await fixture.problemOf({ 'problem.yaml': 'name: Sum\n', ...TESTS, 'submissions/wrong_answer/off.c': SUM_WRONG_C });
    const trial = await runTrial({ sandbox: fixture.sandbox, languages: fixture.languages, problem });
    const m = JSON.parse(trial.measurement);
    expect(trial.submissions[0]).toMatchObject({ verdict: 'WA', ok: true });
    expect(m.errors).toEqual(['the package names no time limit and no accepted example submission ran, so none can be computed']);
    expect(trial.ok).toBe(false);
  }, 60_000);
});
