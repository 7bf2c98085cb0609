import { effectiveLimits, readMaxima, type LimitFigures } from '@judge/problem-package';
import fs from 'node:fs';
import path from 'node:path';
import { graderFor } from './graders/registry.js';
import { judgeSubmission } from './judge.js';
import type { JudgeResult, RunnerLimits } from './judging/types.js';
import type { LanguageTable } from './languages.js';
import type { JudgeSandbox } from './problem/programs.js';
import type { ExampleSubmission, ProblemSpec, Verdict } from './problem/types.js';

/**
 * Trial judging: a package's example submissions (submissions/<expected>/) run through the
 * package's grader on every test case, each checked against what its directory promises; the
 * measurement says, per submission, the expected and actual verdict and its slowest test, and for
 * the problem the slowest accepted and fastest time-limit-exceeded times with the time limit they suggest.
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
  slowestMs?: number;
  infrastructureFailure?: string;
}

export interface TrialResult {
  /** The `measurement` JSON text of CONTRACT §8. */
  measurement: string;
  ok: boolean;
  submissions: TrialSubmission[];
}

/** The 2025-09 default expectations of submissions/<directory>/ (legacy directories included). */
const EXPECTATIONS: Record<string, { permitted?: Verdict[]; required?: Verdict[] }> = {
  accepted: { permitted: ['AC'] },
  rejected: { required: ['WA', 'TLE', 'RTE'] },
  wrong_answer: { permitted: ['AC', 'WA'], required: ['WA'] },
  time_limit_exceeded: { permitted: ['AC', 'WA', 'TLE'], required: ['TLE'] },
  run_time_error: { permitted: ['AC', 'RTE'], required: ['RTE'] },
  brute_force: { permitted: ['AC', 'RTE', 'TLE'], required: ['RTE', 'TLE'] },
};

/** The format knows AC, WA, TLE, RTE for expectations: memory counts as a crash, output as a wrong answer. */
const CLASS: Record<Verdict, Verdict> = { AC: 'AC', WA: 'WA', TLE: 'TLE', RTE: 'RTE', MLE: 'RTE', OLE: 'WA', CE: 'CE', JE: 'JE' };

/** Runs every example submission of the package and measures the package's timing. */
export async function runTrial(input: TrialInput): Promise<TrialResult> {
  const { problem } = input;
  const results: TrialSubmission[] = [];
  let done = 0;
  for (const sub of problem.submissions) {
    results.push(await trySubmission(input, sub));
    input.onProgress?.(++done, problem.submissions.length);
  }
  const ok = results.every((r) => r.ok !== false);
  const measurement = {
    problem: { name: problem.name, format: problem.formatVersion, type: problem.scoring ? 'scoring' : 'pass-fail', interactive: problem.interactive },
    ok,
    timing: timingOf(input, results),
    submissions: results,
    ...(problem.warnings.length ? { warnings: problem.warnings.slice(0, 50) } : {}),
  };
  let text = JSON.stringify(measurement);
  if (text.length > 250 * 1024) {
    text = JSON.stringify({ ...measurement, submissions: results.map(({ path: p, expected, verdict, ok: o, slowestMs }) => ({ path: p, expected, verdict, ok: o, slowestMs })) });
  }
  return { measurement: text, ok, submissions: results };
}

/** Judges one example submission on every test case and checks it against its expectations. */
async function trySubmission(input: TrialInput, sub: ExampleSubmission): Promise<TrialSubmission> {
  const { problem } = input;
  const keepPaths = graderFor(problem, input.problemType).exampleFileNames === 'path';
  const files = await Promise.all(
    sub.files.map(async (name) => ({ name: keepPaths ? name : name.slice(name.lastIndexOf('/') + 1), bytes: await fs.promises.readFile(path.join(sub.dir, name)) })),
  );
  const judged = await judgeSubmission({
    sandbox: input.sandbox,
    languages: input.languages,
    problem,
    problemType: input.problemType,
    files,
    props: sub.language ? { language: sub.language } : null,
    limits: input.limits,
    maxima: input.maxima,
    buildDir: input.buildDir,
    runAll: true,
  });
  const verdicts: Partial<Record<Verdict, number>> = {};
  for (const t of judged.details.tests) verdicts[t.verdict] = (verdicts[t.verdict] ?? 0) + 1;
  const r: TrialSubmission = {
    path: sub.path,
    expected: sub.expected,
    ...(judged.details.language ? { language: judged.details.language } : sub.language ? { language: sub.language } : {}),
    verdict: judged.verdict,
    score: judged.score,
    ...(judged.maxScore !== undefined ? { maxScore: judged.maxScore } : {}),
    ok: null,
    verdicts,
    ...(judged.slowest ? { slowestTest: judged.slowest.test, slowestMs: judged.slowest.cpuMs } : {}),
    ...(judged.infrastructureFailure ? { infrastructureFailure: judged.infrastructureFailure } : {}),
  };
  const check = expectation(sub.expected, sub.permitted, sub.required, sub.score, judged, problem.scoring);
  r.ok = check.ok;
  if (check.why) r.why = check.why;
  return r;
}

/** The time limit in force, the slowest accepted and fastest TLE times, and the limit they suggest. */
function timingOf(input: TrialInput, results: TrialSubmission[]): Record<string, unknown> {
  const { problem } = input;
  const accepted = results.filter((r) => r.expected === 'accepted' && r.verdict === 'AC' && r.slowestMs !== undefined);
  const tle = results.filter((r) => r.verdicts.TLE && r.slowestMs !== undefined);
  const slowestAcceptedMs = accepted.length ? Math.max(...accepted.map((r) => r.slowestMs!)) : undefined;
  const fastestTleMs = tle.length ? Math.min(...tle.map((r) => r.slowestMs!)) : undefined;
  // the limit the examples ran under: the package's, else the runner's default, within the instance's maxima
  const effective = effectiveLimits(problem.limits, null, {
    maxima: readMaxima(input.maxima),
    ...(input.limits?.defaultTimeLimitSeconds ? { defaults: { timeLimitSeconds: input.limits.defaultTimeLimitSeconds } } : {}),
  });
  const timeLimitSeconds = effective.time.value;
  const multiplier = problem.format === 'legacy' ? problem.limits.timeMultiplier : problem.limits.acToTimeLimit;
  const timing: Record<string, unknown> = { timeLimitSeconds, timeLimitSource: problem.limits.timeLimitSource ?? 'runner default' };
  if (slowestAcceptedMs !== undefined) {
    timing.slowestAcceptedMs = slowestAcceptedMs;
    const res = problem.limits.timeResolution;
    timing.suggestedTimeLimitSeconds = Math.max(res, Math.ceil(((slowestAcceptedMs / 1000) * multiplier) / res - 1e-9) * res);
    timing.acceptedWithinMargin = (slowestAcceptedMs / 1000) * (problem.format === 'legacy' ? problem.limits.timeSafetyMargin : problem.limits.acToTimeLimit) <= timeLimitSeconds;
  }
  if (fastestTleMs !== undefined) timing.fastestTimeLimitExceededMs = fastestTleMs;
  return timing;
}

function expectation(
  expected: string,
  permitted: Verdict[] | undefined,
  required: Verdict[] | undefined,
  score: [number, number] | undefined,
  judged: JudgeResult,
  scoring: boolean,
): { ok: boolean | null; why?: string } {
  if (judged.infrastructureFailure) return { ok: false, why: judged.infrastructureFailure };
  if (judged.verdict === 'JE') return { ok: false, why: 'judge error' };
  if (expected === 'compile_error') return judged.verdict === 'CE' ? { ok: true } : { ok: false, why: `expected CE, got ${judged.verdict}` };
  if (judged.verdict === 'CE') return { ok: false, why: 'it does not compile' };
  const tests = judged.details.tests.map((t) => t.verdict);
  const classes = new Set(tests.map((v) => CLASS[v]));
  const defaults = EXPECTATIONS[expected];
  const why: string[] = [];
  let checked = false;
  if (expected === 'partially_accepted') {
    checked = true;
    if (judged.verdict !== 'AC') why.push(`expected an accepted verdict with a partial score, got ${judged.verdict}`);
    else if (judged.maxScore !== undefined && judged.score >= judged.maxScore) why.push('expected a partial score, got full marks');
  }
  if (expected === 'memory_limit_exceeded' || expected === 'output_limit_exceeded') {
    checked = true;
    const v: Verdict = expected === 'memory_limit_exceeded' ? 'MLE' : 'OLE';
    if (!tests.includes(v)) why.push(`expected ${v} on some test case, got ${[...new Set(tests)].join(', ') || 'no test run'}`);
  }
  const allowed = permitted ?? defaults?.permitted;
  const needed = required ?? defaults?.required;
  if (allowed) {
    checked = true;
    const bad = [...classes].filter((c) => !allowed.includes(c));
    if (bad.length) why.push(`test verdicts ${bad.join(', ')} are not permitted (${allowed.join(', ')})`);
  }
  if (needed) {
    checked = true;
    if (![...classes].some((c) => needed.includes(c))) why.push(`no test case got one of ${needed.join(', ')}`);
  }
  if (score && scoring) {
    checked = true;
    if (judged.score < score[0] - 1e-9 || judged.score > score[1] + 1e-9) why.push(`score ${judged.score} is outside ${score[0]}..${score[1]}`);
  }
  if (!checked) return { ok: null };
  return why.length ? { ok: false, why: why.join('; ') } : { ok: true };
}
