import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_VALIDATION_PASSES } from '@judge/problem-package';
import type { TestCase } from '../problem/types.js';
import { compileSubmission, type Program } from './compiled.js';
import type { GradeContext, Grader, TestRun } from './grader.js';
import { gradeInteractive } from './interactive.js';
import { gradeStandard } from './standard.js';
import { feedbackDir } from './validation.js';

/**
 * Multi-pass judging (2023-07 `type: multi-pass`, legacy `validation: custom multi-pass`): a test
 * case runs the submission once per pass. When the output validator accepts a pass and has written
 * `nextpass.in` in its feedback directory, that file is the input of the next pass; an accepted pass
 * without it ends the test case accepted, a rejected one ends it with its verdict. The feedback
 * directory is the same for every pass of a test case, so the validator can keep its state there.
 * Each pass is judged like a whole run (standard or, for interactive problems, beside the
 * interactor) under the full time limit: the limit is per pass, as in problemtools and DOMjudge.
 * Asking for a pass beyond `limits.validation_passes`, or rejecting a pass while asking for another,
 * is the validator's fault: a judge error (the 2023-07 format's multi-pass validation rules).
 */
export const multiPassGrader: Grader = {
  mode: 'multi-pass',
  // a kind of standard-io@1 package (its problem.yaml says so), not a problem type of its own
  problemTypes: [],
  handles: (problem) => problem.multiPass,
  exampleFileNames: 'base',
  async prepare(ctx) {
    const compiled = await compileSubmission(ctx);
    if (!('program' in compiled)) return compiled;
    const { program } = compiled;
    const passes = ctx.input.problem.limits.validationPasses ?? DEFAULT_VALIDATION_PASSES;
    ctx.log.add(`multi-pass: at most ${passes} passes per test case${ctx.input.problem.interactive ? ', each one interactive' : ''}`);
    return { language: program.lang.id, grade: (test) => gradeMultiPass(ctx, program, test, passes) };
  },
};

/** Runs the passes of one test case. */
export async function gradeMultiPass(ctx: GradeContext, program: Program, test: TestCase, passes: number): Promise<TestRun> {
  const fb = await feedbackDir(ctx);
  const inputs: string[] = [];
  const runs: TestRun[] = [];
  try {
    let current = test;
    for (let pass = 1; ; pass++) {
      const r = ctx.input.problem.interactive ? await gradeInteractive(ctx, program, current, fb) : await gradeStandard(ctx, program, current, fb);
      runs.push(r);
      const next = path.join(fb, 'nextpass.in');
      const asked = await exists(next);
      if (asked && r.outcome.verdict === 'WA') {
        const why = `the output validator rejected pass ${pass} but wrote nextpass.in (a next pass needs exit code 42)`;
        return { outcome: { verdict: 'JE', reason: why }, run: slowest(runs), feedback: why, logText: why };
      }
      if (r.outcome.verdict !== 'AC' || !asked) return passResult(r, pass, passes, runs);
      if (pass >= passes) {
        const why = `the output validator accepted pass ${pass} and wrote nextpass.in, but the problem allows ${passes} passes (limits.validation_passes)`;
        return { outcome: { verdict: 'JE', reason: why }, run: slowest(runs), feedback: why, logText: why };
      }
      current = await nextPassTest(ctx, test, next);
      inputs.push(path.dirname(current.input));
    }
  } finally {
    await fs.promises.rm(fb, { recursive: true, force: true });
    for (const dir of inputs) await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** The test case's result: the last pass's verdict, which pass decided, and the resources of the failing pass or, when all passed, of the slowest. */
function passResult(last: TestRun, pass: number, passes: number, runs: TestRun[]): TestRun {
  const run = last.outcome.verdict === 'AC' ? (slowest(runs) ?? last.run) : last.run;
  const label = `pass ${pass} of at most ${passes}`;
  const feedback = last.outcome.verdict === 'AC' ? (last.feedback ?? `accepted in ${label}`) : pass > 1 ? `${label}: ${last.feedback ?? last.outcome.verdict}` : last.feedback;
  return { ...last, ...(run ? { run } : {}), ...(feedback !== undefined ? { feedback } : {}) };
}

/** The pass that used the most CPU time: what is held against the (per-pass) limit. */
function slowest(runs: TestRun[]): TestRun['run'] {
  return runs.map((r) => r.run).reduce<TestRun['run']>((a, b) => (b && (!a || b.cpuMs > a.cpuMs) ? b : a), undefined);
}

/**
 * The next pass's test case: the validator's nextpass.in moved (out of the feedback directory, so the
 * validator has to write a new one to ask again) beside a copy of the answer, which the validator reads from the same directory.
 */
async function nextPassTest(ctx: GradeContext, test: TestCase, next: string): Promise<TestCase> {
  const dir = path.join(ctx.scratch, `pass-${++ctx.seq}`);
  // only the runner reads these (the program's stdin is opened outside the sandbox; the validator reads copies)
  await fs.promises.mkdir(dir, { mode: 0o700 });
  await fs.promises.chmod(dir, 0o700);
  const base = path.basename(test.input, '.in');
  const input = path.join(dir, `${base}.in`);
  const answer = path.join(dir, `${base}.ans`);
  await fs.promises.copyFile(next, input);
  await fs.promises.rm(next, { force: true });
  await fs.promises.copyFile(test.answer, answer);
  for (const f of [input, answer]) await fs.promises.chmod(f, 0o600);
  return { ...test, input, answer };
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await fs.promises.stat(file)).isFile();
  } catch {
    return false;
  }
}
