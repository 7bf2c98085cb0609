import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { GradeContext, Ready, TestRun } from './graders/grader.js';
import { graderFor, PROBLEM_TYPES } from './graders/registry.js';
import { resolveLimits } from './judging/limits.js';
import { Log, trim } from './judging/log.js';
import type { JudgeDetails, JudgeInput, JudgeResult, TestDetail } from './judging/types.js';
import { buildValidator, ValidatorBuildError, type BuiltValidator } from './problem/programs.js';
import { evaluate, maxScoreOf, type Evaluation } from './problem/scoring.js';
import { PackageError, testsOf, type TestCase, type Verdict } from './problem/types.js';

export type { JudgeDetails, JudgeInput, JudgeResult, RunnerLimits, SubmissionFileInput, TestDetail } from './judging/types.js';
export { answerFor } from './graders/output-only.js';
export { runTrial, type TrialInput, type TrialNotRun, type TrialResult, type TrialSubmission } from './trial.js';

/**
 * Judging one submission against a loaded ICPC problem package, in the sandbox:
 *
 * 1. the package's own validator (or interactor) is built once per package;
 * 2. the grader of the package's mode (graders/registry.ts) prepares the submission: standard and
 *    interactive compile it (CE with the compiler's output), output-only unpacks the answers;
 * 3. the grader judges every test case the format needs, under the limits of judging/limits.ts;
 * 4. problem/scoring.ts turns the verdicts into the verdict and score.
 *
 * A package or sandbox fault is `infrastructureFailure`, never a verdict.
 */

const FEEDBACK_DETAIL = 500;
const FEEDBACK_LOG = 2000;

/** Judges one submission; never throws for the submission's or the package's faults. */
export async function judgeSubmission(input: JudgeInput): Promise<JudgeResult> {
  const { problem } = input;
  const log = new Log();
  const cleanup: Array<() => Promise<unknown>> = [];
  const end = endings(log, problem.scoring ? maxScoreOf(problem.data, problem.format) : 1);
  try {
    if (input.problemType && !PROBLEM_TYPES.includes(input.problemType)) {
      throw new PackageError(`this runner judges ${PROBLEM_TYPES.join(' and ')}, not ${input.problemType}`);
    }
    const grader = graderFor(problem, input.problemType);
    grader.refuse?.(problem);
    const limits = resolveLimits(problem, input.config ?? {}, input.limits ?? {}, input.maxima, input.computedTimeLimitSeconds);
    const detailLimits = { timeMs: limits.run.cpuMs, memoryBytes: limits.run.memoryBytes, outputBytes: limits.run.outputBytes };
    const scratch = await scratchDir(input, cleanup);
    // the package's validator first: a package that cannot judge should not cost a compile
    const validator = await packageValidator(input);
    if (validator && 'failure' in validator) {
      return validator.infrastructure ? end.infrastructure(validator.failure) : end.early('JE', `judge error: ${validator.failure}`, { limits: detailLimits });
    }
    const ctx: GradeContext = { input, limits, scratch, validator, log, onCleanup: (fn) => cleanup.push(fn), seq: 0, flags: new Map() };
    const prepared = await grader.prepare(ctx);
    if ('infrastructure' in prepared) return end.infrastructure(prepared.infrastructure);
    // what the compile said, or for a submission refused before it why it could not be compiled
    const said = ctx.compileOutput ?? ('rejected' in prepared && prepared.rejected === 'CE' ? prepared.message : undefined);
    const compile = said !== undefined ? { compileOutput: said } : {};
    if ('rejected' in prepared) {
      return { ...end.early(prepared.rejected, prepared.message, { ...(prepared.language ? { language: prepared.language } : {}), limits: detailLimits }), ...compile };
    }
    const runs = new Map<string, TestRun>();
    const evaluation = await runTests(ctx, prepared, runs);
    return { ...finish(evaluation, runs, log, prepared.language, detailLimits, input.revealOutputs === true), ...compile };
  } catch (e) {
    return end.infrastructure(e instanceof PackageError ? `the problem package cannot be judged: ${e.message}` : `${(e as Error).name ?? 'Error'}: ${(e as Error).message}`);
  } finally {
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
  }
}

/** The results of a judging that stopped before any test ran. */
function endings(log: Log, maxScore: number | undefined) {
  return {
    early(verdict: Verdict, message: string, extra: Partial<JudgeDetails> = {}): JudgeResult {
      log.add(message, true);
      return { verdict, score: 0, maxScore, details: { verdict, score: 0, maxScore, tests: [], groups: [], ...extra }, log: log.toString() };
    },
    infrastructure(reason: string): JudgeResult {
      log.add(`infrastructure failure: ${reason}`, true);
      return {
        verdict: 'JE',
        score: 0,
        maxScore,
        details: { verdict: 'JE', score: 0, maxScore, tests: [], groups: [] },
        log: log.toString(),
        infrastructureFailure: trim(reason, 2000),
      };
    },
  };
}

/**
 * A scratch directory of this judging under the sandbox's work root, removed at the end, private to
 * the runner's user: only the launcher (as root, outside the sandbox) opens the files in it for a
 * program's stdio; what a validator reads is copied into its own box (graders/validator-view.ts).
 */
async function scratchDir(input: JudgeInput, cleanup: Array<() => Promise<unknown>>): Promise<string> {
  const scratch = path.join(input.sandbox.workRoot, `judge-${process.pid}-${randomBytes(6).toString('hex')}`);
  await fs.promises.mkdir(scratch, { mode: 0o700 });
  await fs.promises.chmod(scratch, 0o700);
  cleanup.push(() => fs.promises.rm(scratch, { recursive: true, force: true }));
  return scratch;
}

/** The package's own validator, built (or taken from the build cache); a build failure says whose fault it is. */
async function packageValidator(input: JudgeInput): Promise<BuiltValidator | { failure: string; infrastructure: boolean } | undefined> {
  const { problem } = input;
  if (!problem.customValidator) return undefined;
  try {
    return await buildValidator(input.sandbox, input.languages, problem.customValidator, input.buildDir ?? `${problem.dir}.build`);
  } catch (e) {
    if (e instanceof ValidatorBuildError) return { failure: e.message, infrastructure: e.infrastructure };
    throw e;
  }
}

/** Grades the test cases the scoring asks for, logging each that did not pass. */
function runTests(ctx: GradeContext, prepared: Ready, runs: Map<string, TestRun>): Promise<Evaluation> {
  const { input, log } = ctx;
  const { problem } = input;
  const data = prepared.data ?? problem.data;
  const total = testsOf(data).length;
  let done = 0;
  const runAll = input.runAll || input.config?.runAllTests === true;
  return evaluate(
    data,
    async (test: TestCase) => {
      const r = await prepared.grade(test);
      runs.set(test.name, r);
      input.onProgress?.(++done, total);
      if (r.outcome.verdict !== 'AC' || r.logText) {
        const what = [r.outcome.verdict, r.run ? `cpu ${Math.round(r.run.cpuMs)} ms` : ''].filter(Boolean).join(', ');
        // the log may be shown to participants: feedback on a secret test can give its answer
        // away (the default validator names the expected token), so it goes to `details` only,
        // unless the format reveals the test (samples) or the judge itself failed
        const tell = (r.feedback || r.logText) && (test.fullFeedback || r.outcome.verdict === 'JE');
        log.add(`${test.name}: ${what}${tell ? `: ${trim(r.logText ?? r.feedback ?? '', FEEDBACK_LOG)}` : ''}`);
      }
      return r.outcome;
    },
    { format: problem.format, scoring: problem.scoring, runAll },
  );
}

function finish(evaluation: Evaluation, runs: Map<string, TestRun>, log: Log, language: string | undefined, limits: JudgeDetails['limits'], revealAll: boolean): JudgeResult {
  const tests: TestDetail[] = evaluation.tests.map((t) => {
    const r = runs.get(t.test.name);
    const d: TestDetail = { test: t.test.name, group: t.test.group, verdict: t.outcome.verdict };
    if (r?.run) {
      d.cpuMs = Math.round(r.run.cpuMs);
      d.wallMs = Math.round(r.run.wallMs);
      d.memoryBytes = r.run.memoryBytes;
    }
    if (t.score !== undefined) d.score = t.score;
    if (t.maxScore !== undefined) d.maxScore = t.maxScore;
    const feedback = r?.feedback ?? t.outcome.reason;
    if (feedback) d.feedback = trim(feedback, FEEDBACK_DETAIL);
    if (t.test.fullFeedback) d.fullFeedback = true;
    if (t.test.fullFeedback && (revealAll || t.outcome.verdict !== 'AC') && r?.output !== undefined) d.output = r.output;
    if (!t.counted) d.counted = false;
    return d;
  });
  if (evaluation.judgeError) log.add(`judge error: ${evaluation.judgeError}`, true);
  log.add(`verdict ${evaluation.verdict}, score ${round(evaluation.score)}${evaluation.maxScore !== undefined ? ` of ${round(evaluation.maxScore)}` : ''}`, true);
  let slowest: JudgeResult['slowest'];
  for (const t of tests) {
    if (t.cpuMs !== undefined && (!slowest || t.cpuMs > slowest.cpuMs)) slowest = { test: t.test, cpuMs: t.cpuMs, wallMs: t.wallMs ?? 0 };
  }
  const details: JudgeDetails = {
    verdict: evaluation.verdict,
    score: evaluation.score,
    ...(evaluation.maxScore !== undefined ? { maxScore: evaluation.maxScore } : {}),
    ...(language ? { language } : {}),
    ...(limits ? { limits } : {}),
    tests,
    groups: evaluation.groups,
  };
  return {
    verdict: evaluation.verdict,
    score: evaluation.score,
    ...(evaluation.maxScore !== undefined ? { maxScore: evaluation.maxScore } : {}),
    details,
    log: log.toString(),
    ...(slowest ? { slowest } : {}),
  };
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;
