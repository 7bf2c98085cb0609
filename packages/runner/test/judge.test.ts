import { describe as suite, expect, it } from 'vitest';
import { PROBLEM_TYPES } from '@judge/runner';
import { hasBwrap, judgeFixture, SUM_PY, sumPackage } from './judging.js';

/** The judge itself: which grader judges a package, and what it refuses before any grader runs. */

const describe = suite.skipIf(!hasBwrap);
const { problemOf, judge } = judgeFixture();

describe('the judge', () => {
  it('a package the runner cannot judge is an infrastructure failure, not a verdict', async () => {
    const problem = await problemOf({
      'problem.yaml': 'name: Odd\nvalidation: custom\n',
      'data/secret/1.in': '1\n',
      'data/secret/1.ans': '1\n',
      'output_validators/v/v.cob': 'STOP RUN.\n',
    }).catch((e: Error) => e);
    expect(problem).toBeInstanceOf(Error);
    expect((problem as Error).message).toContain('cannot tell the language of the output validator');
    const sum = await problemOf(sumPackage());
    const r = await judge(sum, { problemType: 'multi-pass@1', files: { 'a.py': SUM_PY } });
    expect(r.infrastructureFailure).toContain('not multi-pass@1');
  });

  it('judges an output-only package with the output-only grader, and refuses one that is also interactive', async () => {
    const answers = await problemOf({ 'problem.yaml': 'name: Answers\n', 'data/secret/a.in': 'x\n', 'data/secret/a.ans': '42\n' });
    expect(await judge(answers, { problemType: 'output-only@1', files: { 'a.out': '42\n' } })).toMatchObject({ verdict: 'AC', score: 1 });
    const both = await problemOf({
      'problem.yaml': 'problem_format_version: 2023-07\nname: Both\ntype: interactive\n',
      'data/secret/1.in': '1\n',
      'data/secret/1.ans': '\n',
      'output_validator/interactor.py': 'import sys\nsys.exit(42)\n',
    });
    const r = await judge(both, { problemType: 'output-only@1', files: { '1.out': '1\n' } });
    expect(r.verdict).toBe('JE');
    expect(r.infrastructureFailure).toContain('an interactive problem cannot be judged as output-only');
    expect(r.details.tests).toEqual([]);
  });

  it('registers for the problem types its graders judge', () => {
    expect(PROBLEM_TYPES).toEqual(['standard-io@1', 'output-only@1']);
  });

  it("keeps what the compile said apart for the submission's author: a compile error and why, nothing for a clean compile", async () => {
    const sum = await problemOf(sumPackage());
    const ce = await judge(sum, { files: { 'sum.c': 'int main( {\n' } });
    expect(ce.verdict).toBe('CE');
    expect(ce.compileOutput).toMatch(/error/);
    expect(ce.compileOutput).toMatch(/compilation failed$/);
    const unknown = await judge(sum, { files: { 'sum.cob': 'STOP RUN.\n' } });
    expect(unknown.verdict).toBe('CE');
    expect(unknown.compileOutput).toBeTruthy();
    const ok = await judge(sum, { files: { 'sum.py': SUM_PY } });
    expect(ok.verdict).toBe('AC');
    expect(ok.compileOutput).toBeUndefined();
  });
});
