import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { runCommand } from '../languages.js';
import type { TestCase } from '../problem/types.js';
import type { RunResult, RunningProgram } from '../sandbox/types.js';
import { compileSubmission, type Program } from './compiled.js';
import { withTestFiles } from './files.js';
import type { GradeContext, Grader, TestRun } from './grader.js';
import { withStderr } from './stderr.js';
import { feedbackDir, interpretValidator, validatorArgs, validatorMounts, type InteractiveSide } from './validation.js';
import { testDataView, validatorView } from './validator-view.js';

/** After an interactor decides, the submission gets this long to exit by itself. */
export const INTERACTIVE_GRACE_MS = 1000;

/**
 * Interactive judging: the compiled submission and the package's interactor (its output validator)
 * run side by side, each one's stdout piped into the other's stdin; the interactor's exit code
 * decides, unless the submission failed first (or ran out of CPU time at all).
 */
export const interactiveGrader: Grader = {
  mode: 'interactive',
  // a kind of standard-io@1 package (its problem.yaml says so), not a problem type of its own
  problemTypes: [],
  handles: (problem) => problem.interactive,
  exampleFileNames: 'base',
  async prepare(ctx) {
    const compiled = await compileSubmission(ctx);
    if (!('program' in compiled)) return compiled;
    const { program } = compiled;
    return { language: program.lang.id, grade: (test) => gradeInteractive(ctx, program, test) };
  },
};

/** Runs the submission against the interactor on one test case (`kept`: the caller's feedback directory). */
export async function gradeInteractive(ctx: GradeContext, program: Program, test: TestCase, kept?: string): Promise<TestRun> {
  const fb = kept ?? (await feedbackDir(ctx));
  try {
    const data = await testDataView(ctx, test);
    return await withTestFiles(program.box, test, async () => {
      const { val, sub } = await startPair(ctx, program, test, fb, data);
      const ends = connect(val, sub);
      const { valRun, subRun, killed } = await settle(ends, sub);
      const first = (subRun.exitedAt ?? ends.subEnded()) < (valRun.exitedAt ?? ends.valEnded());
      const side: InteractiveSide = { result: subRun, first, killed };
      const outcome = await interpretValidator(valRun, fb, side);
      return withStderr({ ...outcome, run: subRun });
    }).finally(() => fs.promises.rm(data, { recursive: true, force: true }));
  } finally {
    if (!kept) await fs.promises.rm(fb, { recursive: true, force: true });
  }
}

/** Starts the interactor, then the submission; if the second cannot start, the first is stopped. */
async function startPair(ctx: GradeContext, program: Program, test: TestCase, fb: string, data: string): Promise<{ val: RunningProgram; sub: RunningProgram }> {
  const { sandbox, problem } = ctx.input;
  const v = ctx.validator!;
  const vcmd = v.command(ctx.limits.validation.memoryBytes);
  const scmd = runCommand(program.lang, { memoryBytes: ctx.limits.run.memoryBytes, entry: program.entry, ...(program.source ? { source: program.source } : {}) });
  const val = sandbox.start({
    argv: [...vcmd.argv, ...validatorArgs(test)],
    workDir: (await validatorView(ctx)).dir,
    mounts: [...vcmd.mounts, ...validatorMounts(data, fb)],
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: { path: path.join(ctx.scratch, 'validator-stderr') },
    // the interactor waits for the submission: it must outlast it
    limits: { ...ctx.limits.validation, wallMs: Math.max(ctx.limits.validation.wallMs, ctx.limits.run.wallMs + 10_000) },
    env: vcmd.env,
    addressSpaceLimit: vcmd.addressSpaceLimit,
    openFiles: vcmd.openFiles,
  });
  try {
    const sub = sandbox.start({
      argv: [...scmd.argv, ...test.args],
      workDir: program.box.path,
      writable: problem.allowFileWriting,
      mounts: scmd.mounts,
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: { path: path.join(ctx.scratch, 'stderr') },
      limits: ctx.limits.run,
      env: scmd.env,
      addressSpaceLimit: scmd.addressSpaceLimit,
    openFiles: scmd.openFiles,
      outOfMemory: scmd.outOfMemory,
    });
    return { val, sub };
  } catch (e) {
    val.kill();
    await val.result.catch(() => undefined);
    throw e;
  }
}

interface Ends {
  valResult: Promise<RunResult>;
  subResult: Promise<RunResult>;
  /** When each side ended (performance.now()), Infinity while it runs. */
  valEnded(): number;
  subEnded(): number;
}

/** Pipes each side's stdout into the other's stdin, and notes when each side ends. */
function connect(val: RunningProgram, sub: RunningProgram): Ends {
  const subIn = sub.stdin as Writable;
  const valIn = val.stdin as Writable;
  subIn.on('error', () => undefined);
  valIn.on('error', () => undefined);
  const subOut = sub.stdout as Readable;
  const valOut = val.stdout as Readable;
  subOut.pipe(valIn);
  valOut.pipe(subIn);
  // once one side is gone, what the other still writes is drained, so it never blocks on a full pipe
  const drain = (from: Readable, to: Writable) => {
    from.unpipe(to);
    from.resume();
  };
  let subEnded = Infinity;
  let valEnded = Infinity;
  const subResult = sub.result.then((r) => {
    subEnded = performance.now();
    drain(valOut, subIn);
    return r;
  });
  const valResult = val.result.then((r) => {
    valEnded = performance.now();
    drain(subOut, valIn);
    return r;
  });
  return { valResult, subResult, valEnded: () => valEnded, subEnded: () => subEnded };
}

/**
 * Waits for the interactor. Once it has rejected the submission (or failed), the verdict is known:
 * the submission gets the grace period to finish before it is killed. Once it has accepted, the
 * submission still has to end by itself within its own limits (a submission that hangs after the
 * last exchange is TLE, as in problemtools and DOMjudge).
 */
async function settle(ends: Ends, sub: RunningProgram): Promise<{ valRun: RunResult; subRun: RunResult; killed: boolean }> {
  let valRun: RunResult;
  try {
    valRun = await ends.valResult;
  } catch (e) {
    sub.kill();
    await ends.subResult.catch(() => undefined);
    throw e;
  }
  if (valRun.exitCode === 42) return { valRun, subRun: await ends.subResult, killed: false };
  let killed = false;
  const timer = setTimeout(() => {
    killed = ends.subEnded() === Infinity;
    sub.kill();
  }, INTERACTIVE_GRACE_MS);
  let subRun: RunResult;
  try {
    subRun = await ends.subResult;
  } finally {
    clearTimeout(timer);
  }
  return { valRun, subRun, killed };
}
