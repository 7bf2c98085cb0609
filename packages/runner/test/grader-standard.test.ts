import { describe as suite, expect, it } from 'vitest';
import { hasBwrap, judgeFixture, SUM_C, SUM_PY, SUM_WRONG_C, sumPackage } from './judging.js';

/**
 * The standard grader (standard-io@1): real compilers in the real sandbox, the default validator
 * and custom ones, scoring groups. Nothing is mocked.
 */

const describe = suite.skipIf(!hasBwrap);
const { problemOf, judge } = judgeFixture();

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
});

describe('judging standard-io problems: limits, tolerances and files', () => {
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

describe('custom validators', () => {
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
    // a scoring submission is given a score, not a verdict: its points make it AC; the group keeps its WA
    expect(partial).toMatchObject({ verdict: 'AC', score: 65, maxScore: 100 });
    expect(partial.details.groups.find((g) => g.name === 'secret/large')).toMatchObject({ verdict: 'WA' });
    expect(partial.details.groups.find((g) => g.name === 'secret/small')).toMatchObject({ score: 30, maxScore: 30 });
    expect(partial.details.groups.find((g) => g.name === 'secret/large')).toMatchObject({ score: 35, maxScore: 70 });
    expect(partial.details.tests.find((t) => t.test === 'secret/large/2')).toMatchObject({ verdict: 'AC', score: 35, maxScore: 35 });
    const full = await judge(problem, { files: { 'a.py': SUM_PY } });
    expect(full).toMatchObject({ verdict: 'AC', score: 100, maxScore: 100 });
  });
});
