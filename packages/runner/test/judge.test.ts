import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe as suite, expect, it } from 'vitest';
import { Sandbox, judgeSubmission, loadLanguages, loadProblem, runTrial, type JudgeInput, type LanguageTable } from '@judge/runner';
import { zipOf } from './zips.js';

/**
 * Real compilers in the real sandbox (bubblewrap, cgroups where the machine has them): packages
 * are written to disk, loaded, and submissions judged end to end. Nothing is mocked.
 */

const describe = suite.skipIf(Sandbox.findBwrap() === null);
let root: string;
let sandbox: Sandbox;
let languages: LanguageTable;
let n = 0;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'judge-test-'));
  if (Sandbox.findBwrap() === null) return;
  // cgroups when there are any; the rlimit fallback otherwise (these tests need no exact memory numbers)
  sandbox = await Sandbox.create({ workRoot: join(root, 'sandbox'), insecureNoCgroup: true });
  languages = loadLanguages();
});
afterAll(async () => {
  await sandbox?.close();
  await rm(root, { recursive: true, force: true });
});

async function problemOf(files: Record<string, string>) {
  const dir = join(root, `p${++n}`);
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), content);
  }
  return loadProblem(dir);
}

type Submit = Omit<JudgeInput, 'sandbox' | 'languages' | 'problem' | 'files'> & { files: Record<string, string> };
const judge = (problem: JudgeInput['problem'], s: Submit) =>
  judgeSubmission({ ...s, sandbox, languages, problem, files: Object.entries(s.files).map(([name, text]) => ({ name, bytes: Buffer.from(text) })) });

const SUM_C = '#include <stdio.h>\nint main(void){long a,b;scanf("%ld %ld",&a,&b);printf("%ld\\n",a+b);return 0;}\n';
const SUM_PY = 'a, b = map(int, input().split())\nprint(a + b)\n';
const SUM_WRONG_C = '#include <stdio.h>\nint main(void){long a,b;scanf("%ld %ld",&a,&b);printf("%ld\\n",a+b+(a>4));return 0;}\n';

const sumPackage = () => ({
  'problem.yaml': 'name: Sum\nlimits:\n  memory: 256\n',
  '.timelimit': '1\n',
  'data/sample/1.in': '1 2\n',
  'data/sample/1.ans': '3\n',
  'data/secret/1.in': '2 2\n',
  'data/secret/1.ans': '4\n',
  'data/secret/2.in': '5 5\n',
  'data/secret/2.ans': '10\n',
  'data/secret/3.in': '100 1\n',
  'data/secret/3.ans': '101\n',
});

describe('judging standard-io problems', () => {
  it('accepts a C and a Python solution, rejects a wrong one with the first differing token', async () => {
    const problem = await problemOf(sumPackage());
    const progress: number[] = [];
    const c = await judge(problem, { files: { 'sum.c': SUM_C }, onProgress: (d) => progress.push(d) });
    expect(c).toMatchObject({ verdict: 'AC', score: 1, maxScore: 1 });
    expect(c.infrastructureFailure).toBeUndefined();
    expect(c.details.tests.map((t) => [t.test, t.verdict])).toEqual([
      ['sample/1', 'AC'],
      ['secret/1', 'AC'],
      ['secret/2', 'AC'],
      ['secret/3', 'AC'],
    ]);
    expect(c.details.tests[0]!.cpuMs).toBeGreaterThanOrEqual(0);
    expect(c.details.limits).toEqual({ timeMs: 1000, memoryBytes: 256 * 1024 * 1024, outputBytes: 8 * 1024 * 1024 });
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(JSON.parse(JSON.stringify(c.details))).toEqual(c.details);

    const py = await judge(problem, { files: { 'whatever.txt': SUM_PY }, props: { language: 'python3' } });
    expect(py).toMatchObject({ verdict: 'AC', score: 1 });
    expect(py.details.language).toBe('python3');

    const wa = await judge(problem, { files: { 'sum.c': SUM_WRONG_C } });
    expect(wa).toMatchObject({ verdict: 'WA', score: 0, maxScore: 1 });
    expect(wa.details.tests.map((t) => t.verdict)).toEqual(['AC', 'AC', 'WA']); // the first failure stops the run
    expect(wa.details.tests[2]!.feedback).toContain('expected "10", got "11"');
    expect(wa.log).toContain('secret/2: WA');
    // the log may be shown to participants: it never gives a secret test's answer away
    expect(wa.log).not.toContain('"10"');
  });

  it('reports a compile error with the compiler message, and refuses languages the assignment does not allow', async () => {
    const problem = await problemOf(sumPackage());
    const ce = await judge(problem, { files: { 'sum.c': 'int main(void) { return nosuchthing; }\n' } });
    expect(ce).toMatchObject({ verdict: 'CE', score: 0 });
    expect(ce.log).toContain('nosuchthing');
    expect(ce.details.tests).toEqual([]);
    const notAllowed = await judge(problem, { files: { 'sum.py': SUM_PY }, config: { languages: ['c', 'cpp'] } });
    expect(notAllowed.verdict).toBe('CE');
    expect(notAllowed.log).toContain('is not allowed for this problem; allowed: c, cpp');
    const unknown = await judge(problem, { files: { 'sum.xyz': SUM_PY } });
    expect(unknown.verdict).toBe('CE');
    expect(unknown.log).toContain('cannot tell the language');
  });

  it('gives TLE and RTE, and lets the assignment override the time limit', async () => {
    const problem = await problemOf(sumPackage());
    const loop = await judge(problem, { files: { 'loop.c': 'int main(void){volatile unsigned long x=0;for(;;)x++;}\n' }, config: { timeLimitSeconds: 0.5 } });
    expect(loop.verdict).toBe('TLE');
    expect(loop.details.limits?.timeMs).toBe(500);
    const crash = await judge(problem, { files: { 'crash.py': 'raise SystemExit(3)\n' } });
    expect(crash.verdict).toBe('RTE');
    expect(crash.details.tests[0]!.feedback).toContain('exit code 3');
  });

  it('accepts a float within the tolerance and rejects one outside it', async () => {
    const problem = await problemOf({
      'problem.yaml': 'name: Third\nvalidator_flags: float_tolerance 1e-6\n',
      'data/secret/1.in': '1\n',
      'data/secret/1.ans': '0.333333333333\n',
    });
    expect((await judge(problem, { files: { 'a.py': 'print(f"{int(input())/3:.7f}")\n' } })).verdict).toBe('AC');
    const far = await judge(problem, { files: { 'a.py': 'print("0.3334")\n' } });
    expect(far.verdict).toBe('WA');
    expect(far.details.tests[0]!.feedback).toContain('exceeds the tolerance');
  });

  it('passes 2023-07 args and puts <test>.files in the working directory for that test only', async () => {
    const problem = await problemOf({
      'problem.yaml': 'problem_format_version: 2025-09\nname: Files\n',
      'data/secret/1.in': '\n',
      'data/secret/1.ans': 'hello from-file\n',
      'data/secret/1.yaml': 'args: [hello]\n',
      'data/secret/1.files/data.txt': 'from-file\n',
      'data/secret/2.in': '\n',
      'data/secret/2.ans': 'none missing\n',
      'data/secret/2.yaml': 'args: [none]\n',
    });
    const code = 'import os, sys\nprint(sys.argv[1], open("data.txt").read().strip() if os.path.exists("data.txt") else "missing")\n';
    const r = await judge(problem, { files: { 'a.py': code } });
    expect(r.details.tests.map((t) => [t.test, t.verdict])).toEqual([
      ['secret/1', 'AC'],
      ['secret/2', 'AC'],
    ]);
  });

  it('copies include/ files in before compiling', async () => {
    const problem = await problemOf({
      ...sumPackage(),
      'include/c/add.h': 'static long add(long a, long b) { return a + b; }\n',
    });
    const r = await judge(problem, { files: { 'sum.c': '#include <stdio.h>\n#include "add.h"\nint main(void){long a,b;scanf("%ld %ld",&a,&b);printf("%ld\\n",add(a,b));}\n' } });
    expect(r.verdict).toBe('AC');
  });
});

describe('custom validators', () => {
  /** Any x with x > input; the validator also reads the answer file and writes feedback. */
  const validator = [
    'import sys',
    'inp, ans, fb = sys.argv[1:4]',
    'n = int(open(inp).read())',
    'assert open(ans).read().strip() == "any"',
    'try:',
    '    x = int(sys.stdin.read().split()[0])',
    'except Exception:',
    '    open(fb + "judgemessage.txt", "w").write("not a number")',
    '    sys.exit(43)',
    'if x > n:',
    '    sys.exit(42)',
    'open(fb + "judgemessage.txt", "w").write(f"{x} is not above {n}")',
    'sys.exit(43)',
    '',
  ].join('\n');

  it('runs a Python validator built once per package: 42 accepts, 43 rejects with its message', async () => {
    const problem = await problemOf({
      'problem.yaml': 'name: Above\nvalidation: custom\n',
      'data/secret/1.in': '5\n',
      'data/secret/1.ans': 'any\n',
      'data/secret/2.in': '50\n',
      'data/secret/2.ans': 'any\n',
      'output_validators/above/validate.py': validator,
    });
    const ok = await judge(problem, { files: { 'a.py': 'print(int(input()) * 2 + 1)\n' } });
    expect(ok.verdict).toBe('AC');
    const wa = await judge(problem, { files: { 'a.py': 'print(7)\n' } });
    expect(wa.verdict).toBe('WA');
    expect(wa.details.tests[1]).toMatchObject({ test: 'secret/2', verdict: 'WA', feedback: '7 is not above 50' });
  });

  it('builds a C++ validator; a validator that exits 1 is a judge error', async () => {
    const cpp = [
      '#include <fstream>',
      '#include <iostream>',
      'int main(int argc, char** argv) {',
      '  std::ifstream in(argv[1]); long n; in >> n;',
      '  long x; if (!(std::cin >> x)) return 43;',
      '  if (x == n * n) return 42;',
      '  std::ofstream(std::string(argv[3]) + "teammessage.txt") << "not the square";',
      '  return 43;',
      '}',
      '',
    ].join('\n');
    const problem = await problemOf({
      'problem.yaml': 'name: Square\nvalidation: custom\n',
      'data/secret/1.in': '7\n',
      'data/secret/1.ans': '\n',
      'output_validators/square/square.cpp': cpp,
    });
    expect((await judge(problem, { files: { 'a.py': 'n=int(input())\nprint(n*n)\n' } })).verdict).toBe('AC');
    const wa = await judge(problem, { files: { 'a.py': 'print(48)\n' } });
    expect(wa).toMatchObject({ verdict: 'WA' });
    expect(wa.details.tests[0]!.feedback).toBe('not the square');

    const broken = await problemOf({
      'problem.yaml': 'name: Broken\nvalidation: custom\n',
      'data/secret/1.in': '7\n',
      'data/secret/1.ans': '\n',
      'output_validators/v/v.py': 'import sys\nprint("oops", file=sys.stderr)\nsys.exit(1)\n',
    });
    const je = await judge(broken, { files: { 'a.py': 'print(1)\n' } });
    expect(je.verdict).toBe('JE');
    expect(je.infrastructureFailure).toBeUndefined();
    expect(je.log).toContain('exited with code 1');
    expect(je.log).toContain('oops');

    const uncompilable = await problemOf({
      'problem.yaml': 'name: Uncompilable\nvalidation: custom\n',
      'data/secret/1.in': '7\n',
      'data/secret/1.ans': '\n',
      'output_validators/v/v.cpp': 'int main() { return undeclared_thing; }\n',
    });
    const bad = await judge(uncompilable, { files: { 'a.py': 'print(1)\n' } });
    expect(bad).toMatchObject({ verdict: 'JE', score: 0 });
    expect(bad.infrastructureFailure).toBeUndefined();
    expect(bad.log).toContain('the output validator does not compile');
    expect(bad.log).toContain('undeclared_thing');
  });
});

describe('interactive problems', () => {
  /** The interactor knows a number (the .in file) and answers guesses with <, > or =. */
  const interactor = [
    'import sys',
    'secret = int(open(sys.argv[1]).read())',
    'for guesses in range(1, 21):',
    '    line = sys.stdin.readline()',
    '    if not line:',
    '        open(sys.argv[3] + "judgemessage.txt", "w").write("no guess")',
    '        sys.exit(43)',
    '    g = int(line)',
    '    if g == secret:',
    '        print("=", flush=True)',
    '        sys.exit(42)',
    '    print("<" if secret < g else ">", flush=True)',
    'open(sys.argv[3] + "judgemessage.txt", "w").write("too many guesses")',
    'sys.exit(43)',
    '',
  ].join('\n');
  const guesser = [
    'lo, hi = 1, 1000',
    'while True:',
    '    mid = (lo + hi) // 2',
    '    print(mid, flush=True)',
    '    r = input()',
    '    if r == "=": break',
    '    if r == "<": hi = mid - 1',
    '    else: lo = mid + 1',
    '',
  ].join('\n');

  it('pipes the submission and the interactor together; the interactor decides', async () => {
    const problem = await problemOf({
      'problem.yaml': 'problem_format_version: 2023-07\nname: Guess\ntype: interactive\nlimits:\n  time_limit: 2\n',
      'data/sample/1.in': '500\n',
      'data/sample/1.ans': '\n',
      'data/sample/1.interaction': '> 500\n< =\n',
      'data/secret/1.in': '1\n',
      'data/secret/1.ans': '\n',
      'data/secret/2.in': '777\n',
      'data/secret/2.ans': '\n',
      'output_validator/interactor.py': interactor,
    });
    expect(problem.interactive).toBe(true);
    const ok = await judge(problem, { files: { 'guess.py': guesser } });
    expect(ok.log).not.toContain('judge error');
    expect(ok.verdict).toBe('AC');
    const linear = await judge(problem, { files: { 'guess.py': 'for i in range(1, 1001):\n    print(i, flush=True)\n    if input() == "=": break\n' } });
    expect(linear.verdict).toBe('WA');
    expect(linear.details.tests.find((t) => t.verdict === 'WA')?.feedback).toBe('too many guesses');
    // the submission crashing first is its own verdict, not the interactor's
    const crash = await judge(problem, { files: { 'guess.py': 'import sys\nsys.exit(5)\n' } });
    expect(crash.verdict).toBe('RTE');
    // a submission that never answers runs into its time limit
    const idle = await judge(problem, { files: { 'guess.c': '#include <unistd.h>\nint main(void){for(;;)pause();}\n' }, config: { timeLimitSeconds: 0.5 } });
    expect(idle.verdict).toBe('TLE');
  });
});

describe('interactive problems: a submission that leaves early', () => {
  it('drains the interactor so it can finish: its verdict stands when the submission exited cleanly', async () => {
    const problem = await problemOf({
      'problem.yaml': 'name: Flood\nvalidation: custom interactive\n',
      'data/secret/1.in': '1\n',
      'data/secret/1.ans': '\n',
      // writes 1 MiB (more than a pipe holds) before it reads anything
      'output_validators/flood/flood.py': 'import sys\nsys.stdout.write("x" * (1 << 20))\nsys.stdout.flush()\nsys.exit(42 if sys.stdin.read() == "ok\\n" else 43)\n',
    });
    const started = Date.now();
    const quitter = await judge(problem, { files: { 'q.py': 'print("bye")\n' } });
    expect(quitter.verdict).toBe('WA');
    expect(Date.now() - started).toBeLessThan(15_000);
    const reader = await judge(problem, { files: { 'r.py': 'import sys\nsys.stdin.read(1 << 20)\nprint("ok")\n' } });
    expect(reader.verdict).toBe('AC');
  });
});

describe('scoring problems', () => {
  it('gives partial points per group (2023-07 test_group.yaml)', async () => {
    const problem = await problemOf({
      'problem.yaml': 'problem_format_version: 2025-09\nname: Parts\ntype: scoring\n',
      'data/sample/1.in': '1 2\n',
      'data/sample/1.ans': '3\n',
      'data/secret/small/test_group.yaml': 'max_score: 30\n',
      'data/secret/small/1.in': '2 3\n',
      'data/secret/small/1.ans': '5\n',
      'data/secret/small/2.in': '4 4\n',
      'data/secret/small/2.ans': '8\n',
      'data/secret/large/test_group.yaml': 'max_score: 70\nscore_aggregation: sum\n',
      'data/secret/large/1.in': '2000000000 1000000000\n',
      'data/secret/large/1.ans': '3000000000\n',
      'data/secret/large/2.in': '5 6\n',
      'data/secret/large/2.ans': '11\n',
    });
    // 32-bit arithmetic: right on small numbers, wrong on the big one
    const partial = await judge(problem, { files: { 'a.c': '#include <stdio.h>\nint main(void){int a,b;scanf("%d %d",&a,&b);printf("%d\\n",a+b);}\n' } });
    expect(partial).toMatchObject({ verdict: 'WA', score: 65, maxScore: 100 });
    expect(partial.details.groups.find((g) => g.name === 'secret/small')).toMatchObject({ score: 30, maxScore: 30 });
    expect(partial.details.groups.find((g) => g.name === 'secret/large')).toMatchObject({ score: 35, maxScore: 70 });
    expect(partial.details.tests.find((t) => t.test === 'secret/large/2')).toMatchObject({ verdict: 'AC', score: 35, maxScore: 35 });
    const full = await judge(problem, { files: { 'a.py': SUM_PY } });
    expect(full).toMatchObject({ verdict: 'AC', score: 100, maxScore: 100 });
  });
});

describe('output-only problems', () => {
  it('validates the submitted answer files, loose or zipped', async () => {
    const problem = await problemOf({
      'problem.yaml': 'name: Answers\n',
      'data/sample/1.in': '1\n',
      'data/sample/1.ans': '1\n',
      'data/secret/a.in': 'x\n',
      'data/secret/a.ans': '42\n',
      'data/secret/b.in': 'y\n',
      'data/secret/b.ans': 'hello\n',
    });
    const loose = await judge(problem, { problemType: 'output-only@1', files: { 'a.out': '42\n', 'b.out': 'HELLO\n' } });
    expect(loose).toMatchObject({ verdict: 'AC', score: 1 });
    expect(loose.details.tests.map((t) => t.test)).toEqual(['secret/a', 'secret/b']);
    const zip = await zipOf({ 'answers/secret/a.out': '42\n', 'answers/secret/b.txt': 'bye\n' });
    const zipped = await judgeSubmission({ sandbox, languages, problem, problemType: 'output-only@1', files: [{ name: 'answers.zip', bytes: zip }] });
    expect(zipped.verdict).toBe('WA');
    expect(zipped.details.tests[1]!.feedback).toContain('expected "hello", got "bye"');
    const missing = await judge(problem, { problemType: 'output-only@1', files: { 'a.out': '42\n' } });
    expect(missing.verdict).toBe('WA');
    expect(missing.details.tests[1]!.feedback).toContain('no answer for secret/b');
  });
});

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
    const trial = await runTrial({ sandbox, languages, problem });
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

  it('a package the runner cannot judge is an infrastructure failure, not a verdict', async () => {
    const problem = await problemOf({
      'problem.yaml': 'name: Odd\nvalidation: custom\n',
      'data/secret/1.in': '1\n',
      'data/secret/1.ans': '1\n',
      'output_validators/v/v.rb': 'exit 42\n',
    }).catch((e: Error) => e);
    expect(problem).toBeInstanceOf(Error);
    expect((problem as Error).message).toContain('cannot tell the language of the output validator');
    const sum = await problemOf(sumPackage());
    const r = await judge(sum, { problemType: 'multi-pass@1', files: { 'a.py': SUM_PY } });
    expect(r.infrastructureFailure).toContain('not multi-pass@1');
  });
});
