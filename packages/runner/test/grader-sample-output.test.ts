import { describe as suite, expect, it } from 'vitest';
import { OUTPUT_PREFIX_BYTES } from '../src/graders/standard.js';
import { hasBwrap, judgeFixture, SUM_WRONG_C, sumPackage } from './judging.js';

/**
 * What a failed sample test leaves in the details: the start of the program's own output, so the
 * participant can set it beside the sample's input and answer (public anyway). Secret tests and
 * passed samples never carry output. Real compilers in the real sandbox.
 */

const describe = suite.skipIf(!hasBwrap);
const { problemOf, judge } = judgeFixture();

describe('the output of failed sample tests', () => {
  it("keeps a failed sample's output, and no other test's", async () => {
    const problem = await problemOf(sumPackage());
    const wrong = await judge(problem, { files: { 'off.py': 'a, b = map(int, input().split())\nprint(a + b + 1)\n' } });
    expect(wrong.verdict).toBe('WA');
    expect(wrong.details.tests).toEqual([expect.objectContaining({ test: 'sample/1', verdict: 'WA', fullFeedback: true, output: '4\n' })]);
    expect(JSON.parse(JSON.stringify(wrong.details))).toEqual(wrong.details);

    // right on the sample, wrong on a secret test: nothing of any output is kept
    const secret = await judge(problem, { files: { 'sum.c': SUM_WRONG_C } });
    expect(secret.details.tests.map((t) => [t.test, t.verdict])).toEqual([
      ['sample/1', 'AC'],
      ['secret/1', 'AC'],
      ['secret/2', 'WA'],
    ]);
    for (const t of secret.details.tests) expect(t.output).toBeUndefined();
  });

  it('keeps only the first 64 KiB, also of a sample that crashed', async () => {
    const problem = await problemOf(sumPackage());
    const flood = await judge(problem, { files: { 'flood.py': 'import sys\nsys.stdout.write("x" * 200000)\nsys.stdout.flush()\nraise SystemExit(3)\n' } });
    expect(flood.verdict).toBe('RTE');
    const t = flood.details.tests[0]!;
    expect(t.output).toBe('x'.repeat(OUTPUT_PREFIX_BYTES));
  });
});
