import { describe as suite, expect, it } from 'vitest';
import { runTrial } from '@judge/runner';
import { hasBwrap, judgeFixture } from './judging.js';

/**
 * The multi-pass grader in the real sandbox: the validator's nextpass.in feeds the next pass, up to
 * `limits.validation_passes`, with and without interaction, and the ways a pass can end a test case.
 */

const describe = suite.skipIf(!hasBwrap);
const fixture = judgeFixture();
const { problemOf, judge } = fixture;

/**
 * Each input is `p t`: this is pass p of t. The submission has to print p; the validator asks for
 * pass p+1 while p < t, and counts the passes in a state file of its feedback directory (which
 * therefore has to survive from pass to pass).
 */
const VALIDATOR = [
  'import sys, os',
  'p, t = map(int, open(sys.argv[1]).read().split())',
  'fb = sys.argv[3]',
  'state = os.path.join(fb, "state.txt")',
  'seen = int(open(state).read()) if os.path.exists(state) else 0',
  'open(state, "w").write(str(seen + 1))',
  'if seen + 1 != p:',
  '    open(fb + "judgemessage.txt", "w").write("feedback directory lost: %d passes seen before pass %d" % (seen, p))',
  '    sys.exit(1)',
  'out = sys.stdin.read().split()',
  'if out != [str(p)]:',
  '    open(fb + "teammessage.txt", "w").write("expected %d" % p)',
  '    sys.exit(43)',
  'if p < t:',
  '    open(fb + "nextpass.in", "w").write("%d %d\\n" % (p + 1, t))',
  'sys.exit(42)',
  '',
].join('\n');

/** The same protocol, interactively: the interactor tells the pass number, the submission answers twice it. */
const INTERACTOR = [
  'import sys',
  'p, t = map(int, open(sys.argv[1]).read().split())',
  'fb = sys.argv[3]',
  'print(p, flush=True)',
  'line = sys.stdin.readline().split()',
  'if line != [str(2 * p)]:',
  '    open(fb + "teammessage.txt", "w").write("expected %d" % (2 * p))',
  '    sys.exit(43)',
  'if p < t:',
  '    open(fb + "nextpass.in", "w").write("%d %d\\n" % (p + 1, t))',
  'sys.exit(42)',
  '',
].join('\n');

const ECHO_PASS = 'p, t = map(int, input().split())\nprint(p)\n';
const WRONG_IN_PASS_2 = 'p, t = map(int, input().split())\nprint(p + 7 if p == 2 else p)\n';
const CRASH_IN_PASS_2 = 'import sys\np, t = map(int, input().split())\nif p == 2: sys.exit(3)\nprint(p)\n';
/** About 0.6 s of CPU a pass: three passes exceed the 1 s limit together, never alone. */
const BUSY_PASS = 'import time\np, t = map(int, input().split())\nend = time.process_time() + 0.6\nwhile time.process_time() < end: pass\nprint(p)\n';
const TWICE = 'p = int(input())\nprint(2 * p, flush=True)\n';

const passes = (type: string, limits: string, validator: Record<string, string>, extra: Record<string, string> = {}) =>
  problemOf({
    'problem.yaml': `problem_format_version: 2023-07\nname: Passes\ntype: ${type}\nlimits:\n  time_limit: 1\n${limits}`,
    'data/sample/1.in': '1 1\n',
    'data/sample/1.ans': '\n',
    'data/secret/two.in': '1 2\n',
    'data/secret/two.ans': '\n',
    'data/secret/three.in': '1 3\n',
    'data/secret/three.ans': '\n',
    ...validator,
    ...extra,
  });

describe('multi-pass problems', () => {
  it('feeds nextpass.in into the next pass, up to the declared count, with the feedback directory kept', async () => {
    const problem = await passes('multi-pass', '  validation_passes: 3\n', { 'output_validator/validator.py': VALIDATOR });
    expect(problem).toMatchObject({ multiPass: true, limits: { validationPasses: 3 } });
    const ok = await judge(problem, { files: { 'echo.py': ECHO_PASS } });
    expect(ok.log).not.toContain('judge error');
    expect(ok.verdict).toBe('AC');
    expect(ok.details.tests.map((t) => t.verdict)).toEqual(['AC', 'AC', 'AC']);
    expect(ok.details.tests.map((t) => t.feedback)).toEqual(['accepted in pass 1 of at most 3', 'accepted in pass 3 of at most 3', 'accepted in pass 2 of at most 3']);

    const wrong = await judge(problem, { files: { 'wrong.py': WRONG_IN_PASS_2 } });
    expect(wrong.verdict).toBe('WA');
    expect(wrong.details.tests.at(-1)!.feedback).toBe('pass 2 of at most 3: expected 2');
    const crash = await judge(problem, { files: { 'crash.py': CRASH_IN_PASS_2 } });
    expect(crash.verdict).toBe('RTE');
  });

  it('gives every pass the whole time limit', async () => {
    const problem = await passes('multi-pass', '  validation_passes: 3\n', { 'output_validator/validator.py': VALIDATOR });
    const busy = await judge(problem, { files: { 'busy.py': BUSY_PASS } });
    expect(busy.verdict).toBe('AC');
  });

  it('is a judge error when the validator asks for more passes than the problem allows', async () => {
    // the default is 2 passes: the test case `three` asks for a third
    const problem = await passes('multi-pass', '', { 'output_validator/validator.py': VALIDATOR });
    expect(problem.limits.validationPasses).toBe(2);
    const r = await judge(problem, { files: { 'echo.py': ECHO_PASS } });
    expect(r.verdict).toBe('JE');
    expect(r.log).toContain('allows 2 passes (limits.validation_passes)');
    // asking for another pass while rejecting this one is the validator's fault too
    const rejecting = VALIDATOR.replace('sys.exit(42)', 'sys.exit(43 if p < t else 42)');
    const both = await judge(await passes('multi-pass', '', { 'output_validator/validator.py': rejecting }), { files: { 'echo.py': ECHO_PASS } });
    expect(both.verdict).toBe('JE');
    expect(both.log).toContain('rejected pass 1 but wrote nextpass.in');
  });

  it('runs each pass of an interactive multi-pass problem beside the interactor, and agrees with its example submissions', async () => {
    const problem = await passes('[interactive, multi-pass]', '  validation_passes: 3\n', { 'output_validator/interactor.py': INTERACTOR }, {
      'submissions/accepted/twice.py': TWICE,
      'submissions/wrong_answer/off.py': 'p = int(input())\nprint(2 * p + (p == 3), flush=True)\n',
      'submissions/run_time_error/crash.py': 'p = int(input())\nassert p < 2\nprint(2 * p, flush=True)\n',
      'submissions/time_limit_exceeded/spin.py': 'p = int(input())\nwhile p == 3: pass\nprint(2 * p, flush=True)\n',
    });
    expect(problem).toMatchObject({ multiPass: true, interactive: true });
    const trial = await runTrial({ sandbox: fixture.sandbox, languages: fixture.languages, problem });
    const table = trial.submissions.map((s) => `${s.path} ${s.verdict} ${s.ok}`).sort();
    expect(table).toEqual(['accepted/twice.py AC true', 'run_time_error/crash.py RTE true', 'time_limit_exceeded/spin.py TLE true', 'wrong_answer/off.py WA true']);
    const ok = await judge(problem, { files: { 'twice.py': TWICE } });
    expect(ok.log).not.toContain('judge error');
    expect(ok.verdict).toBe('AC');
    const wrong = await judge(problem, { files: { 'wrong.py': 'p = int(input())\nprint(2 * p + (p == 2), flush=True)\n' } });
    expect(wrong.verdict).toBe('WA');
    expect(wrong.details.tests.at(-1)!.feedback).toBe('pass 2 of at most 3: expected 4');
  });

  it('reads the legacy form (validation: custom multi-pass) and agrees with its example submissions', async () => {
    const problem = await problemOf({
      'problem.yaml': 'name: Passes\nvalidation: custom multi-pass\nlimits:\n  validation_passes: 3\n',
      '.timelimit': '1\n',
      'data/sample/1.in': '1 2\n',
      'data/sample/1.ans': '\n',
      'data/secret/1.in': '1 3\n',
      'data/secret/1.ans': '\n',
      'output_validators/passes/validator.py': VALIDATOR,
      'submissions/accepted/echo.py': ECHO_PASS,
      'submissions/accepted/busy.py': BUSY_PASS,
      'submissions/wrong_answer/wrong.py': WRONG_IN_PASS_2,
      'submissions/run_time_error/crash.py': CRASH_IN_PASS_2,
    });
    expect(problem.multiPass).toBe(true);
    const trial = await runTrial({ sandbox: fixture.sandbox, languages: fixture.languages, problem });
    const table = trial.submissions.map((s) => `${s.path} ${s.verdict} ${s.ok}`).sort();
    expect(table).toEqual(['accepted/busy.py AC true', 'accepted/echo.py AC true', 'run_time_error/crash.py RTE true', 'wrong_answer/wrong.py WA true']);
    expect(trial.ok).toBe(true);
  });
});
