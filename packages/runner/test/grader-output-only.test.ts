import { describe as suite, expect, it } from 'vitest';
import { judgeSubmission } from '@judge/runner';
import { zipOf } from './zips.js';
import { hasBwrap, judgeFixture } from './judging.js';

/** The output-only grader: submitted files (loose or zipped) are the answers of the secret test cases. */

const describe = suite.skipIf(!hasBwrap);
const fixture = judgeFixture();
const { problemOf, judge } = fixture;

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
    const zipped = await judgeSubmission({ sandbox: fixture.sandbox, languages: fixture.languages, problem, problemType: 'output-only@1', files: [{ name: 'answers.zip', bytes: zip }] });
    expect(zipped.verdict).toBe('WA');
    expect(zipped.details.tests[1]!.feedback).toContain('expected "hello", got "bye"');
    const missing = await judge(problem, { problemType: 'output-only@1', files: { 'a.out': '42\n' } });
    expect(missing.verdict).toBe('WA');
    expect(missing.details.tests[1]!.feedback).toContain('no answer for secret/b');
  });

  it('an answer over the output limit is OLE without running the validator', async () => {
    const problem = await problemOf({ 'problem.yaml': 'name: Short\n', 'data/secret/a.in': 'x\n', 'data/secret/a.ans': 'short\n' });
    // 0.00001 MiB: 10 bytes
    const long = await judge(problem, { problemType: 'output-only@1', files: { 'a.out': 'much too long an answer\n' }, config: { outputMiB: 0.00001 } });
    expect(long.verdict).toBe('OLE');
    expect(long.details.tests[0]!.feedback).toContain('at most 10 are allowed');
    expect(long.details.language).toBeUndefined();
  });

  it('refuses an answer file name that leaves its directory, as a compile error', async () => {
    const problem = await problemOf({ 'problem.yaml': 'name: Names\n', 'data/secret/a.in': 'x\n', 'data/secret/a.ans': '1\n' });
    const bad = await judge(problem, { problemType: 'output-only@1', files: { '../a.out': '1\n' } });
    expect(bad.verdict).toBe('CE');
    expect(bad.log).toContain('is not accepted');
  });
});
