import { describe as suite, expect, it } from 'vitest';
import { runTrial } from '@judge/runner';
import { hasBwrap, judgeFixture, SUM_C, SUM_PY, SUM_WRONG_C, sumPackage } from './judging.js';

/** Trial judging: a package's example submissions run through its grader and checked against their directories. */

const describe = suite.skipIf(!hasBwrap);
const fixture = judgeFixture();
const { problemOf } = fixture;

describe('runTrial', () => {
  it('runs the example submissions and reports expected against actual verdicts', async () => {
    const problem = await problemOf({
      ...sumPackage(),
      '.timelimit': '0.5\n',
      'submissions/accepted/sum.c': SUM_C,
      'submissions/accepted/sum.py': SUM_PY,
      'submissions/wrong_answer/off.c': SUM_WRONG_C,
      'submissions/time_limit_exceeded/slow.py': 'import time\nwhile True: pass\n',
      'submissions/run_time_error/ok-but-listed.py': SUM_PY,
    });
    const trial = await runTrial({ sandbox: fixture.sandbox, languages: fixture.languages, problem });
    const m = JSON.parse(trial.measurement);
    expect(m.problem).toMatchObject({ name: 'Sum', type: 'pass-fail' });
    const byPath = Object.fromEntries(trial.submissions.map((s) => [s.path, s]));
    expect(byPath['accepted/sum.c']).toMatchObject({ expected: 'accepted', verdict: 'AC', ok: true, verdicts: { AC: 4 } });
    expect(byPath['accepted/sum.py']).toMatchObject({ verdict: 'AC', ok: true });
    expect(byPath['wrong_answer/off.c']).toMatchObject({ verdict: 'WA', ok: true, verdicts: { AC: 2, WA: 2 } });
    expect(byPath['time_limit_exceeded/slow.py']).toMatchObject({ verdict: 'TLE', ok: true });
    expect(byPath['run_time_error/ok-but-listed.py']).toMatchObject({ verdict: 'AC', ok: false });
    expect(byPath['run_time_error/ok-but-listed.py']!.why).toContain('no test case got one of RTE');
    expect(trial.ok).toBe(false);
    expect(m.timing.timeLimitSeconds).toBe(0.5);
    expect(m.timing.slowestAcceptedMs).toBeGreaterThanOrEqual(0);
    expect(m.timing.fastestTimeLimitExceededMs).toBeGreaterThanOrEqual(500);
    expect(typeof m.submissions[0].slowestMs).toBe('number');
  });

  it('gives output-only example submissions their answer files by path, so equal base names in different groups stay apart', async () => {
    const problem = await problemOf({
      'problem.yaml': 'name: Answers\n',
      'data/secret/g1/a.in': 'x\n',
      'data/secret/g1/a.ans': '1\n',
      'data/secret/g2/a.in': 'y\n',
      'data/secret/g2/a.ans': '2\n',
      'submissions/accepted/answers/g1/a.out': '1\n',
      'submissions/accepted/answers/g2/a.out': '2\n',
      'submissions/wrong_answer/same/g1/a.out': '1\n',
      'submissions/wrong_answer/same/g2/a.out': '1\n',
    });
    const trial = await runTrial({ sandbox: fixture.sandbox, languages: fixture.languages, problem, problemType: 'output-only@1' });
    const byPath = Object.fromEntries(trial.submissions.map((s) => [s.path, s]));
    expect(byPath['accepted/answers']).toMatchObject({ verdict: 'AC', ok: true, verdicts: { AC: 2 } });
    expect(byPath['wrong_answer/same']).toMatchObject({ verdict: 'WA', ok: true, verdicts: { AC: 1, WA: 1 } });
    expect(trial.ok).toBe(true);
  });
});
