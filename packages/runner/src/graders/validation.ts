import fs from 'node:fs';
import path from 'node:path';
import { trim } from '../judging/log.js';
import { compareOutput, parseDefaultValidatorFlags } from '../problem/default-validator.js';
import type { TestOutcome } from '../problem/scoring.js';
import type { TestCase } from '../problem/types.js';
import type { RunResult } from '../sandbox/types.js';
import { runFeedback, STATUS_VERDICT, type GradeContext, type TestRun } from './grader.js';
import { feedbackView, testDataView, validatorView } from './validator-view.js';

/**
 * Output validation, shared by the graders: the default validator (in process) or the package's
 * own, run in the sandbox as `validator input answer feedback_dir/ [args] < output` (42 accepted,
 * 43 wrong answer, anything else JE). An interactor is the same program, so its verdict is read here too.
 */

/**
 * Judges an output file with the default or the package's validator. `kept` is a feedback
 * directory the caller owns (multi-pass keeps one across passes); without it a fresh one is used and removed.
 */
export async function validate(ctx: GradeContext, test: TestCase, output: string, kept?: string): Promise<TestRun> {
  if (!ctx.validator) return defaultValidate(ctx, test, output);
  const fb = kept ?? (await feedbackDir(ctx));
  const v = ctx.validator;
  const cmd = v.command(ctx.limits.validation.memoryBytes);
  const vErr = path.join(ctx.scratch, 'validator-stderr');
  const data = await testDataView(ctx, test);
  try {
    const run = await ctx.input.sandbox.run({
      argv: [...cmd.argv, ...validatorArgs(test)],
      workDir: (await validatorView(ctx)).dir,
      mounts: [...cmd.mounts, ...validatorMounts(data, fb)],
      stdin: { path: output },
      stdout: 'ignore',
      stderr: { path: vErr },
      limits: ctx.limits.validation,
      env: cmd.env,
      addressSpaceLimit: cmd.addressSpaceLimit,
      openFiles: cmd.openFiles,
    });
    return await interpretValidator(run, fb, undefined);
  } finally {
    await fs.promises.rm(data, { recursive: true, force: true });
    if (!kept) await fs.promises.rm(fb, { recursive: true, force: true });
  }
}

async function defaultValidate(ctx: GradeContext, test: TestCase, output: string): Promise<TestRun> {
  const key = test.validatorArgs.join('\0');
  let options = ctx.flags.get(key);
  if (!options) {
    try {
      options = parseDefaultValidatorFlags(test.validatorArgs);
    } catch (e) {
      return { outcome: { verdict: 'JE', reason: (e as Error).message } };
    }
    ctx.flags.set(key, options);
  }
  const r = await compareOutput(test.answer, output, options);
  return r.accepted ? { outcome: { verdict: 'AC' } } : { outcome: { verdict: 'WA' }, feedback: r.message };
}

export function validatorArgs(test: TestCase): string[] {
  return [`/judge/data/${path.basename(test.input)}`, `/judge/data/${path.basename(test.answer)}`, '/judge/feedback/', ...test.validatorArgs];
}

/** The test's data (a copy: validator-view.ts) and the feedback directory, where validatorArgs names them. */
export function validatorMounts(data: string, fb: string) {
  return [
    { host: data, box: '/judge/data' },
    { host: fb, box: '/judge/feedback', writable: true },
  ];
}

/** A fresh feedback directory the validator (run as its view's slot uid) may write. */
export function feedbackDir(ctx: GradeContext): Promise<string> {
  return feedbackView(ctx);
}

async function readSmall(file: string, max = 64 * 1024): Promise<string | undefined> {
  try {
    const fh = await fs.promises.open(file, 'r');
    try {
      const buf = Buffer.alloc(max);
      const { bytesRead } = await fh.read(buf, 0, max, 0);
      return buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await fh.close();
    }
  } catch {
    return undefined;
  }
}

const FLOAT = /^[+-]?(?:\d*\.\d+|\d+\.?)(?:[eE][+-]?\d+)?$/;

/** How the submission of an interactive run ended, beside its interactor. */
export interface InteractiveSide {
  result: RunResult;
  /** It ended before the interactor did. */
  first: boolean;
  /** The runner killed it after the interactor's grace period. */
  killed: boolean;
}

/**
 * The validator's verdict from its exit code (42, 43, else JE), with its feedback files. For
 * interactive runs `submission` is the submission's own result, which wins when it failed first.
 */
export async function interpretValidator(run: RunResult, fb: string, submission: InteractiveSide | undefined): Promise<TestRun> {
  const judgeMessage = (await readSmall(path.join(fb, 'judgemessage.txt')))?.trim();
  const teamMessage = (await readSmall(path.join(fb, 'teammessage.txt')))?.trim();
  const scoreText = await readSmall(path.join(fb, 'score.txt'), 256);
  const multiplierText = await readSmall(path.join(fb, 'score_multiplier.txt'), 256);
  const message = teamMessage || judgeMessage || '';
  const sub = submission?.result;
  const subVerdict = sub && sub.status !== 'ok' && !(submission!.killed && sub.status === 're') ? STATUS_VERDICT[sub.status] : undefined;
  const submissionFailed = (): TestRun => ({ outcome: { verdict: subVerdict! }, run: sub, feedback: runFeedback(sub!) });
  // the submission used more CPU than allowed: TLE, whoever ended first, unless the interactor
  // had already rejected it (problemtools and DOMjudge: a wrong answer the interactor gave first
  // stands, even when the submission then runs out of time)
  const rejectedFirst = submission !== undefined && !submission.first && run.exitCode === 43;
  if (sub?.status === 'tle' && !rejectedFirst) return submissionFailed();
  if (subVerdict && submission!.first) return submissionFailed();

  const judgeError = (why: string): TestRun => {
    if (subVerdict) return submissionFailed();
    const stderr = run.stderrTail?.trim();
    const detail = [why, judgeMessage ? `judgemessage: ${trim(judgeMessage, 1000)}` : '', stderr ? `stderr: ${trim(stderr, 1000)}` : ''].filter(Boolean).join('\n');
    return { outcome: { verdict: 'JE', reason: why }, run: sub, feedback: why, logText: detail };
  };
  if (run.status === 'tle' || run.status === 'wall' || run.status === 'mle') return judgeError(`the output validator stopped: ${run.reason ?? run.status}`);
  if (run.exitCode === 42) {
    if (subVerdict) return submissionFailed();
    const outcome: TestOutcome = { verdict: 'AC' };
    for (const [text, key, file] of [[scoreText, 'score', 'score.txt'], [multiplierText, 'scoreMultiplier', 'score_multiplier.txt']] as const) {
      if (text === undefined) continue;
      const t = text.trim();
      if (!FLOAT.test(t)) return judgeError(`the output validator wrote ${file} holding ${JSON.stringify(trim(t, 40))}, not a number`);
      outcome[key] = Number(t);
    }
    return { outcome, run: sub, ...(message ? { feedback: message } : {}) };
  }
  if (run.exitCode === 43) {
    const outcome: TestOutcome = { verdict: 'WA' };
    if (scoreText !== undefined) outcome.score = Number(scoreText.trim());
    if (multiplierText !== undefined) outcome.scoreMultiplier = Number(multiplierText.trim());
    return { outcome, run: sub, feedback: message || 'rejected by the output validator', ...(judgeMessage && judgeMessage !== message ? { logText: `${message}\njudgemessage: ${judgeMessage}` } : {}) };
  }
  return judgeError(`the output validator exited with ${run.signal ? `signal ${run.signal}` : `code ${run.exitCode}`} (42 accepts, 43 rejects)`);
}
