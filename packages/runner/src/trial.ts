import { readMaxima, type LimitFigures } from '@judge/problem-package';
import fs from 'node:fs';
import path from 'node:path';
import { graderFor } from './graders/registry.js';
import type { CompileCache } from './compile/cache.js';
import { judgeSubmission } from './judge.js';
import type { JudgeResult, RunnerLimits } from './judging/types.js';
import type { LanguageTable } from './languages.js';
import type { JudgeSandbox } from './problem/programs.js';
import type { ExampleSubmission, ProblemSpec, Verdict } from './problem/types.js';
import { expectation, mustExceedTime } from './trial/expectations.js';
import { whyNotRunnable } from './trial/runnable.js';
import { marginOfGiven, suggestLimit, timeRuleOf, type SuggestedLimit, type TimeRule } from './trial/time-rule.js';

/**
 * Trial judging, the `verifyproblem` of this judge: every example submission of the package
 * (submissions/<expected>/) runs through the package's grader on every test case and is checked
 * against what its directory promises. The accepted ones run first: their slowest test gives the
 * time limit problemtools would set (trial/time-rule.ts), which is the limit the others are judged
 * at when the package names none (the accepted ones then run under a generous calibration limit).
 * Time-limit-exceeded examples run at the margin limit, to tell whether they exceed it too.
 * Examples this runner cannot run (language not installed, none recognised) are listed, with why.
 */

export interface TrialInput {
  sandbox: JudgeSandbox;
  languages: LanguageTable;
  problem: ProblemSpec;
  problemType?: string;
  limits?: RunnerLimits;
  /** The instance's maxima (the server's, with the trial). */
  maxima?: Partial<LimitFigures>;
  buildDir?: string;
  /** Compiled examples kept between trials and jobs (judging/types.ts). */
  compileCache?: CompileCache;
  /** The time limit accepted examples run under while the limit is being computed; default 60 s. */
  calibrationTimeLimitSeconds?: number;
  /** Called after each example submission. */
  onProgress?: (done: number, total: number) => void;
}

export interface TrialSubmission {
  path: string;
  expected: string;
  language?: string;
  verdict: Verdict;
  score: number;
  maxScore?: number;
  /** Whether the result meets what its directory (and submissions.yaml) expect; null when nothing is expected. */
  ok: boolean | null;
  why?: string;
  /** Per-test verdict counts. */
  verdicts: Partial<Record<Verdict, number>>;
  slowestTest?: string;
  /** The largest CPU time of any of its tests. */
  slowestMs?: number;
  /** The time limit its verdict is at; absent when the runner's default applied. */
  timeLimitSeconds?: number;
  /** Time-limit-exceeded examples: whether it still runs out at the margin limit. */
  beyondMargin?: boolean;
  infrastructureFailure?: string;
}

export interface TrialNotRun {
  path: string;
  expected: string;
  language?: string;
  reason: string;
}

export interface TrialResult {
  /** The `measurement` JSON text of decisions §8. */
  measurement: string;
  ok: boolean;
  submissions: TrialSubmission[];
  notRun: TrialNotRun[];
}

const DEFAULT_CALIBRATION_SECONDS = 60;

/** Runs every example submission of the package and measures the package's timing. */
export async function runTrial(input: TrialInput): Promise<TrialResult> {
  const { problem } = input;
  const grader = graderFor(problem, input.problemType);
  const notRun: TrialNotRun[] = [];
  const runnable: ExampleSubmission[] = [];
  for (const sub of problem.submissions) {
    const not = whyNotRunnable(sub, problem, input.languages, grader.exampleFileNames !== 'path');
    if (not) notRun.push({ path: sub.path, expected: sub.expected, ...(not.language ? { language: not.language } : {}), reason: not.reason });
    else runnable.push(sub);
  }
  const total = problem.submissions.length;
  let done = notRun.length;
  const progress = () => input.onProgress?.(++done, total);
  const rule = timeRuleOf(problem);
  // the instance's maximum caps a named limit and the calibration alike, as it caps judging
  const maxTime = readMaxima(input.maxima).timeLimitSeconds;
  const named = problem.limits.timeLimitSeconds;
  const given = named === undefined ? undefined : Math.min(named, maxTime);
  const calibration = given === undefined ? Math.min(input.calibrationTimeLimitSeconds ?? DEFAULT_CALIBRATION_SECONDS, maxTime) : undefined;

  const accepted: TrialSubmission[] = [];
  for (const sub of runnable.filter((s) => s.expected === 'accepted')) {
    accepted.push(await trySubmission(input, sub, given ?? calibration));
    progress();
  }
  const first = slowestOf(accepted);
  const slowest = given === undefined && first ? await remeasured(input, runnable, first, calibration) : first;
  const suggested = slowest ? suggestLimit(slowest.ms / 1000, rule) : undefined;
  const limit = given ?? suggested?.timeLimitSeconds;
  const margin = given !== undefined ? marginOfGiven(given, rule) : suggested?.tleMarginSeconds;
  if (given === undefined && suggested) {
    for (const r of accepted) {
      if (r.ok !== false && r.slowestMs !== undefined && r.slowestMs > suggested.timeLimitSeconds * 1000) {
        Object.assign(r, { ok: false, why: `its slowest test takes ${r.slowestMs} ms, over the computed time limit of ${suggested.timeLimitSeconds} s` });
      }
    }
  }
  const others: TrialSubmission[] = [];
  for (const sub of runnable.filter((s) => s.expected !== 'accepted')) {
    others.push(await trySubmission(input, sub, limit, mustExceedTime(sub.expected, sub.required) ? margin : undefined));
    progress();
  }
  const results = [...accepted, ...others];
  const errors: string[] = [];
  if (given === undefined && !slowest && grader.exampleFileNames !== 'path') errors.push('the package names no time limit and no accepted example submission ran, so none can be computed');
  const { timing, warnings: timingWarnings } = timingOf(problem, rule, { given, calibration, suggested, slowest, limit, margin, results });
  const warnings = [...timingWarnings, ...problem.warnings].slice(0, 50);
  const ok = errors.length === 0 && results.every((r) => r.ok !== false);
  const measurement = {
    problem: { name: problem.name, format: problem.formatVersion, type: problem.scoring ? 'scoring' : 'pass-fail', interactive: problem.interactive },
    ok,
    timing,
    submissions: results,
    notRun,
    ...(errors.length ? { errors } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
  let text = JSON.stringify(measurement);
  if (text.length > 250 * 1024) {
    const brief = results.map(({ path: p, expected, language, verdict, score, ok: o, slowestMs }) => ({ path: p, expected, language, verdict, score, ok: o, slowestMs }));
    text = JSON.stringify({ ...measurement, submissions: brief, notRun: notRun.slice(0, 200), warnings: warnings.slice(0, 10) });
  }
  return { measurement: text, ok, submissions: results, notRun };
}

/** Runs of the slowest accepted example a computed limit is taken from (the first included). */
export const CALIBRATION_RUNS = 3;

/**
 * The slowest accepted example measured again, CALIBRATION_RUNS runs in all, its figure the least
 * CPU time its slowest test took in any run: CPU time, not wall time, and the least of several
 * runs, because a loaded machine only ever adds time (other processes' cache and memory traffic,
 * a slower clock), so the fastest run is the one closest to the program's own cost. A run that
 * fails (an infrastructure failure, a verdict other than AC) does not count.
 */
async function remeasured(input: TrialInput, runnable: ExampleSubmission[], first: SlowestAccepted, limitSeconds: number | undefined): Promise<SlowestAccepted> {
  const sub = runnable.find((s) => s.path === first.path);
  if (!sub) return first;
  const runs = [first.ms];
  for (let i = 1; i < CALIBRATION_RUNS; i++) {
    const r = await trySubmission(input, sub, limitSeconds);
    if (r.slowestMs !== undefined && !r.infrastructureFailure && r.verdict === 'AC') runs.push(r.slowestMs);
  }
  return { ms: Math.min(...runs), path: first.path, runs };
}

interface SlowestAccepted {
  ms: number;
  path: string;
  /** The slowest test's CPU time in each run, when it was measured more than once. */
  runs?: number[];
}

/** The slowest accepted example that ran (compiled and judged), by its slowest test. */
function slowestOf(accepted: TrialSubmission[]): SlowestAccepted | undefined {
  let best: SlowestAccepted | undefined;
  for (const r of accepted) {
    if (r.slowestMs === undefined || r.infrastructureFailure || r.verdict === 'CE' || r.verdict === 'JE') continue;
    if (!best || r.slowestMs > best.ms) best = { ms: r.slowestMs, path: r.path };
  }
  return best;
}

/** Judges one example submission at `limitSeconds` (undefined: the runner's default) and checks it against its expectations. */
async function trySubmission(input: TrialInput, sub: ExampleSubmission, limitSeconds: number | undefined, marginSeconds?: number): Promise<TrialSubmission> {
  const { problem } = input;
  const keepPaths = graderFor(problem, input.problemType).exampleFileNames === 'path';
  const files = await Promise.all(
    sub.files.map(async (name) => ({ name: keepPaths ? name : name.slice(name.lastIndexOf('/') + 1), bytes: await fs.promises.readFile(path.join(sub.dir, name)) })),
  );
  const judge = (seconds: number | undefined) =>
    judgeSubmission({
      sandbox: input.sandbox,
      languages: input.languages,
      problem,
      problemType: input.problemType,
      files,
      props: sub.language ? { language: sub.language } : null,
      config: seconds !== undefined ? { timeLimitSeconds: seconds } : null,
      limits: input.limits,
      maxima: input.maxima,
      buildDir: input.buildDir,
      ...(input.compileCache ? { compileCache: input.compileCache } : {}),
      runAll: true,
    });
  let judged: JudgeResult;
  let beyondMargin: boolean | undefined;
  if (marginSeconds !== undefined && limitSeconds !== undefined && marginSeconds > limitSeconds) {
    // one run at the margin tells both: a pass-fail TLE there is a TLE at the limit, its slower tests TLE too
    const high = await judge(marginSeconds);
    beyondMargin = high.verdict === 'TLE';
    if (beyondMargin && !problem.scoring) judged = atLimit(high, limitSeconds);
    else if ((high.slowest?.cpuMs ?? 0) > limitSeconds * 1000 || problem.scoring) judged = await judge(limitSeconds);
    else judged = high;
  } else judged = await judge(limitSeconds);
  const verdicts: Partial<Record<Verdict, number>> = {};
  for (const t of judged.details.tests) verdicts[t.verdict] = (verdicts[t.verdict] ?? 0) + 1;
  const language = judged.details.language ?? sub.language;
  const r: TrialSubmission = {
    path: sub.path,
    expected: sub.expected,
    ...(language ? { language } : {}),
    verdict: judged.verdict,
    score: judged.score,
    ...(judged.maxScore !== undefined ? { maxScore: judged.maxScore } : {}),
    ok: null,
    verdicts,
    ...(judged.slowest ? { slowestTest: judged.slowest.test, slowestMs: judged.slowest.cpuMs } : {}),
    ...(limitSeconds !== undefined ? { timeLimitSeconds: limitSeconds } : {}),
    ...(beyondMargin !== undefined ? { beyondMargin } : {}),
    ...(judged.infrastructureFailure ? { infrastructureFailure: judged.infrastructureFailure } : {}),
  };
  const check = expectation(sub.expected, sub.permitted, sub.required, sub.score, judged, problem.scoring);
  r.ok = check.ok;
  if (check.why) r.why = check.why;
  return r;
}

/** A pass-fail result judged at a higher limit, as it stands at `seconds`: every test over it ran out of time. */
function atLimit(high: JudgeResult, seconds: number): JudgeResult {
  const cpuMs = seconds * 1000;
  const wallMs = cpuMs * 2 + 1000;
  const tests = high.details.tests.map((t) => ((t.cpuMs ?? 0) > cpuMs || (t.wallMs ?? 0) > wallMs ? { ...t, verdict: 'TLE' as Verdict } : t));
  return { ...high, details: { ...high.details, tests } };
}

interface TimingFacts {
  given: number | undefined;
  calibration: number | undefined;
  suggested: SuggestedLimit | undefined;
  slowest: SlowestAccepted | undefined;
  limit: number | undefined;
  margin: number | undefined;
  results: TrialSubmission[];
}

/** The time limit in force and where it came from, problemtools' suggestion, and how the examples sit against both. */
function timingOf(problem: ProblemSpec, rule: TimeRule, f: TimingFacts): { timing: Record<string, unknown>; warnings: string[] } {
  const warnings: string[] = [];
  const tle = f.results.filter((r) => r.verdicts.TLE && r.slowestMs !== undefined);
  const timing: Record<string, unknown> = {
    ...(f.limit !== undefined ? { timeLimitSeconds: f.limit } : {}),
    timeLimitSource: f.given !== undefined ? (problem.limits.timeLimitSource ?? 'package') : f.suggested ? 'computed by this trial' : 'runner default',
    calibrated: f.given === undefined,
    ...(f.calibration !== undefined ? { calibrationTimeLimitSeconds: f.calibration } : {}),
    multiplier: rule.multiplier,
    multiplierKey: rule.multiplierKey,
    safetyMargin: rule.safetyMargin,
    safetyMarginKey: rule.safetyMarginKey,
  };
  if (f.slowest) Object.assign(timing, { slowestAcceptedMs: f.slowest.ms, slowestAccepted: f.slowest.path, ...(f.slowest.runs ? { slowestAcceptedRunsMs: f.slowest.runs } : {}) });
  if (f.suggested) timing.suggestedTimeLimitSeconds = f.suggested.timeLimitSeconds;
  if (f.margin !== undefined) timing.tleMarginSeconds = f.margin;
  if (f.given !== undefined && f.slowest) {
    timing.acceptedWithinMargin = (f.slowest.ms / 1000) * rule.multiplier <= f.given + 1e-9;
    if (!timing.acceptedWithinMargin) {
      warnings.push(`the slowest accepted example (${f.slowest.path}, ${f.slowest.ms} ms) × ${rule.multiplier} exceeds the time limit of ${f.given} s`);
    }
  }
  if (tle.length) timing.fastestTimeLimitExceededMs = Math.min(...tle.map((r) => r.slowestMs!));
  for (const r of f.results) {
    if (r.beyondMargin === false && r.verdict === 'TLE') {
      warnings.push(`${r.path} runs out of time at ${f.limit} s but not at the margin limit of ${f.margin} s (${rule.safetyMarginKey}): it is sensitive to the time limit`);
    }
  }
  return { timing, warnings };
}
