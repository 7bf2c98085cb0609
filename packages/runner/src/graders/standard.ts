import path from 'node:path';
import { runCommand } from '../languages.js';
import type { TestCase } from '../problem/types.js';
import { compileSubmission, type Program } from './compiled.js';
import { withTestFiles } from './files.js';
import { runFeedback, STATUS_VERDICT, type GradeContext, type Grader, type TestRun } from './grader.js';
import { withStderr } from './stderr.js';
import { validate } from './validation.js';

/**
 * Standard judging (`standard-io@1`, the default): every test runs the compiled submission with
 * stdin from its `.in` and stdout to a file under the output limit; the output goes to the
 * default validator or the package's own.
 */
export const standardGrader: Grader = {
  mode: 'standard',
  problemTypes: ['standard-io@1'],
  handles: () => true,
  exampleFileNames: 'base',
  async prepare(ctx) {
    const compiled = await compileSubmission(ctx);
    if (!('program' in compiled)) return compiled;
    const { program } = compiled;
    return { language: program.lang.id, grade: (test) => gradeStandard(ctx, program, test) };
  },
};

/** Runs the program on one test case and validates what it wrote (`kept`: the caller's feedback directory). */
export async function gradeStandard(ctx: GradeContext, program: Program, test: TestCase, kept?: string): Promise<TestRun> {
  const { sandbox, problem } = ctx.input;
  const out = path.join(ctx.scratch, 'stdout');
  const err = path.join(ctx.scratch, 'stderr');
  const cmd = runCommand(program.lang, { memoryBytes: ctx.limits.run.memoryBytes, entry: program.entry });
  const run = await withTestFiles(program.box, test, () =>
    sandbox.run({
      argv: [...cmd.argv, ...test.args],
      workDir: program.box.path,
      writable: problem.allowFileWriting,
      mounts: cmd.mounts,
      stdin: { path: test.input },
      stdout: { path: out },
      stderr: { path: err },
      limits: ctx.limits.run,
      env: cmd.env,
      addressSpaceLimit: cmd.addressSpaceLimit,
      outOfMemory: cmd.outOfMemory,
    }),
  );
  if (run.status !== 'ok') return withStderr({ outcome: { verdict: STATUS_VERDICT[run.status] }, run, feedback: runFeedback(run) });
  const checked = await validate(ctx, test, out, kept);
  return withStderr({ ...checked, run });
}
