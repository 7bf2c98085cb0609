import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../languages.js';
import type { TestCase } from '../problem/types.js';
import type { Session, SessionSpec } from '../sandbox/sandbox.js';
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

/** The tests of one program share one sandbox session (closed with the judging), where the sandbox has them. */
const sessions = new WeakMap<Program, Session>();

function sessionOf(ctx: GradeContext, program: Program, spec: SessionSpec): Session | null {
  const { sandbox } = ctx.input;
  if (!sandbox.openSession) return null;
  let s = sessions.get(program);
  if (!s) {
    const opened = sandbox.openSession(spec);
    sessions.set(program, opened);
    ctx.onCleanup(() => opened.close());
    s = opened;
  }
  return s;
}

/** Runs the program on one test case and validates what it wrote (`kept`: the caller's feedback directory). */
export async function gradeStandard(ctx: GradeContext, program: Program, test: TestCase, kept?: string): Promise<TestRun> {
  const { sandbox, problem } = ctx.input;
  const out = path.join(ctx.scratch, 'stdout');
  const err = path.join(ctx.scratch, 'stderr');
  const cmd = runCommand(program.lang, { memoryBytes: ctx.limits.run.memoryBytes, entry: program.entry, ...(program.source ? { source: program.source } : {}) });
  const spec: SessionSpec = {
    argv: cmd.argv,
    workDir: program.box.path,
    writable: problem.allowFileWriting,
    mounts: cmd.mounts,
    limits: ctx.limits.run,
    env: cmd.env,
    addressSpaceLimit: cmd.addressSpaceLimit,
    openFiles: cmd.openFiles,
    outOfMemory: cmd.outOfMemory,
  };
  const io = { argv: [...cmd.argv, ...test.args], stdin: { path: test.input }, stdout: { path: out }, stderr: { path: err } };
  const session = sessionOf(ctx, program, spec);
  const run = await withTestFiles(program.box, test, () => (session ? session.run(io) : sandbox.run({ ...spec, ...io })));
  const output = test.fullFeedback ? await outputPrefix(out) : undefined;
  if (run.status !== 'ok') return withStderr({ outcome: { verdict: STATUS_VERDICT[run.status] }, run, feedback: runFeedback(run), ...(output !== undefined ? { output } : {}) });
  const checked = await validate(ctx, test, out, kept);
  return withStderr({ ...checked, run, ...(output !== undefined ? { output } : {}) });
}

/** How much of a revealed test's output the details keep: enough to see what went wrong on a sample. */
export const OUTPUT_PREFIX_BYTES = 64 * 1024;

/** The first OUTPUT_PREFIX_BYTES of what the program wrote (none when it wrote no file), as text. */
async function outputPrefix(file: string): Promise<string | undefined> {
  let fd: fs.promises.FileHandle;
  try {
    fd = await fs.promises.open(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const buf = Buffer.alloc(OUTPUT_PREFIX_BYTES);
    const { bytesRead } = await fd.read(buf, 0, OUTPUT_PREFIX_BYTES, 0);
    return new TextDecoder('utf-8', { fatal: false }).decode(buf.subarray(0, bytesRead));
  } finally {
    await fd.close();
  }
}
