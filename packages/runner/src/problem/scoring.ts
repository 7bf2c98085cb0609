import { PackageError, type LegacyGrading, type ModernScoring, type ProblemFormat, type TestCase, type TestGroup, type Verdict } from './types.js';

/**
 * From verdicts per test case to the verdict and score of a submission, as the ICPC problem
 * package format defines them:
 *
 * - legacy (`testdata.yaml`): every group applies the default grader to its sub-results (verdict
 *   modes worst_error/first_error/always_accept, score modes sum/avg/min/max, ignore_sample,
 *   accept_if_any_accepted), test cases score accept_score/reject_score unless the validator wrote
 *   score.txt, on_reject break stops a group at its first rejection, and a score outside `range`
 *   is a judge error. Pass-fail problems score 1 of 1 when the root verdict is AC; scoring problems
 *   score the root's score when its verdict is AC, else 0 (the grader's score of a rejected
 *   result is ignored).
 * - 2023-07 (`test_group.yaml`): pass-fail problems are accepted iff every test case is; the first
 *   failure stops the run and is the verdict. Scoring problems score `secret` with `sum`/`min`/
 *   `pass-fail` aggregation, `max_score` (inferred for test cases and groups that give none),
 *   `require_pass`, `score.txt`/`score_multiplier.txt`; every group runs, the score is that of
 *   `secret`; a submission with points is AC (the format gives scoring submissions a score, not a
 *   verdict), one without keeps its first rejected test case's verdict. A group's verdict is its
 *   own first rejection (a group kept from running by require_pass: the one that kept it).
 *
 * A judge error (JE) anywhere ends the run at once: the verdict is JE and the score 0.
 */

/** What judging one test case produced. */
export interface TestOutcome {
  verdict: Exclude<Verdict, 'CE'>;
  /** `score.txt` from a custom validator. */
  score?: number;
  /** `score_multiplier.txt` from a custom validator. */
  scoreMultiplier?: number;
  /** Why it is JE (the judge builds its own messages for the rest). */
  reason?: string;
}

export type RunTest = (test: TestCase) => Promise<TestOutcome>;

export interface ScoredTest {
  test: TestCase;
  outcome: TestOutcome;
  /** The test's score where the format gives tests one (scoring problems), else undefined. */
  score?: number;
  maxScore?: number | null;
  /** False when the test ran only because `runAll` asked (its group had already stopped). */
  counted: boolean;
}

export interface GroupResult {
  name: string;
  verdict: Verdict;
  score: number;
  maxScore?: number | null;
  /** Not run: a `require_pass` group was not accepted. */
  skipped?: boolean;
}

export interface Evaluation {
  verdict: Verdict;
  score: number;
  /** Undefined when unbounded (2023-07 `max_score: unbounded`). */
  maxScore?: number;
  /** Test cases that ran, in the order they ran. */
  tests: ScoredTest[];
  /** Groups, each after its content (so data/ itself comes last). */
  groups: GroupResult[];
  /** Set when the verdict is JE. */
  judgeError?: string;
}

export interface EvaluateOptions {
  format: ProblemFormat;
  scoring: boolean;
  /**
   * Run every test case even after the result is decided (trials, or courses that show every
   * test). The verdict and score stay those of the lazy run.
   */
  runAll?: boolean;
}

class JudgeErrorStop extends Error {}

/** Scores close to a bound count as on it: floating-point sums of fractions drift. */
const EPS = 1e-9;

/**
 * Judges a test tree: calls `runTest` for each test case the format needs, in order, and
 * combines the outcomes.
 */
export async function evaluate(data: TestGroup, runTest: RunTest, options: EvaluateOptions): Promise<Evaluation> {
  const tests: ScoredTest[] = [];
  const groups: GroupResult[] = [];
  const ctx: Ctx = { runTest, tests, groups, runAll: !!options.runAll, scoring: options.scoring };
  try {
    if (options.format === 'legacy') return { ...(await legacyRoot(data, ctx)), tests, groups };
    return { ...(await modernRoot(data, ctx)), tests, groups };
  } catch (e) {
    if (!(e instanceof JudgeErrorStop)) throw e;
    return { verdict: 'JE', score: 0, maxScore: options.scoring ? maxScoreOf(data, options.format) : 1, tests, groups, judgeError: e.message };
  }
}

interface Ctx {
  runTest: RunTest;
  tests: ScoredTest[];
  groups: GroupResult[];
  runAll: boolean;
  scoring: boolean;
}

async function run(ctx: Ctx, test: TestCase, counted: boolean): Promise<TestOutcome> {
  const outcome = await ctx.runTest(test);
  const scored: ScoredTest = { test, outcome, counted };
  ctx.tests.push(scored);
  if (outcome.verdict === 'JE') throw new JudgeErrorStop(`${test.name}: ${outcome.reason ?? 'judge error'}`);
  return outcome;
}

/** Runs every test of a group without grading them (runAll after a group stopped). */
async function runUncounted(ctx: Ctx, group: TestGroup): Promise<void> {
  for (const item of group.items) {
    if (item.kind === 'test') await run(ctx, item.test, false);
    else await runUncounted(ctx, item.group);
  }
}

// ---- legacy ----

interface SubResult {
  name: string;
  verdict: Verdict;
  score: number;
}

/** The default grader's order for worst_error: the first of these present wins. */
const WORST_FIRST: Verdict[] = ['JE', 'RTE', 'MLE', 'TLE', 'OLE', 'WA'];

async function legacyRoot(data: TestGroup, ctx: Ctx): Promise<Omit<Evaluation, 'tests' | 'groups'>> {
  const root = await legacyGroup(data, ctx);
  if (!ctx.scoring) return { verdict: root.verdict, score: root.verdict === 'AC' ? 1 : 0, maxScore: 1 };
  return { verdict: root.verdict, score: root.verdict === 'AC' ? root.score : 0, maxScore: maxScoreOf(data, 'legacy') };
}

async function legacyGroup(group: TestGroup, ctx: Ctx): Promise<SubResult> {
  const grading = group.grading as LegacyGrading;
  const subs: SubResult[] = [];
  let stopped = false;
  for (const item of group.items) {
    if (stopped) {
      if (ctx.runAll) {
        if (item.kind === 'test') await run(ctx, item.test, false);
        else await runUncounted(ctx, item.group);
      }
      continue;
    }
    let sub: SubResult;
    if (item.kind === 'test') {
      const outcome = await run(ctx, item.test, true);
      const score = outcome.verdict === 'AC' ? (outcome.score ?? grading.acceptScore) : grading.rejectScore;
      const scored = ctx.tests[ctx.tests.length - 1]!;
      if (ctx.scoring) scored.score = score;
      sub = { name: baseName(item.test.name), verdict: outcome.verdict, score };
    } else {
      sub = await legacyGroup(item.group, ctx);
      sub = { ...sub, name: baseName(item.group.name) };
    }
    subs.push(sub);
    if (sub.verdict !== 'AC' && grading.onReject === 'break') stopped = true;
  }
  let result = gradeLegacy(subs, grading);
  // ignore_sample with on_reject break: a failing sample stopped the group before anything counted
  if (stopped && grading.ignoreSample && subs.length === 1 && subs[0]!.name === 'sample') result = { verdict: subs[0]!.verdict, score: 0 };
  if (ctx.scoring && result.verdict === 'AC' && (result.score < grading.range[0] - EPS || result.score > grading.range[1] + EPS)) {
    throw new JudgeErrorStop(`the score ${result.score} of ${group.name || 'data'} is outside its range ${grading.range[0]} ${grading.range[1]}`);
  }
  ctx.groups.push({ name: group.name, verdict: result.verdict, score: ctx.scoring ? result.score : result.verdict === 'AC' ? 1 : 0 });
  return { name: group.name, ...result };
}

/** The legacy default grader on a list of sub-results. */
export function gradeLegacy(subs: SubResult[], grading: LegacyGrading): { verdict: Verdict; score: number } {
  const used = grading.ignoreSample && subs[0]?.name === 'sample' ? subs.slice(1) : subs;
  if (used.length === 0) return { verdict: 'AC', score: 0 };
  let verdict: Verdict = 'AC';
  if (grading.verdictMode === 'first_error') verdict = used.find((s) => s.verdict !== 'AC')?.verdict ?? 'AC';
  else if (grading.verdictMode === 'worst_error') verdict = WORST_FIRST.find((v) => used.some((s) => s.verdict === v)) ?? 'AC';
  if (grading.acceptIfAnyAccepted && used.some((s) => s.verdict === 'AC')) verdict = 'AC';
  const scores = used.map((s) => s.score);
  let score: number;
  switch (grading.scoreMode) {
    case 'sum':
      score = scores.reduce((a, b) => a + b, 0);
      break;
    case 'avg':
      score = scores.reduce((a, b) => a + b, 0) / scores.length;
      break;
    case 'min':
      score = Math.min(...scores);
      break;
    case 'max':
      score = Math.max(...scores);
      break;
  }
  return { verdict, score };
}

/** What a legacy submission accepted everywhere with default scores would get. */
function legacyIdeal(group: TestGroup): number {
  const grading = group.grading as LegacyGrading;
  const subs = group.items.map((item) =>
    item.kind === 'test'
      ? { name: baseName(item.test.name), verdict: 'AC' as Verdict, score: grading.acceptScore }
      : { name: baseName(item.group.name), verdict: 'AC' as Verdict, score: legacyIdeal(item.group) },
  );
  return gradeLegacy(subs, grading).score;
}

/** The maximum score a problem reports: 1 for pass-fail; legacy: the root range's upper end, else the ideal score; 2023-07: secret's max_score. */
export function maxScoreOf(data: TestGroup, format: ProblemFormat): number | undefined {
  if (format === 'legacy') {
    const grading = data.grading as LegacyGrading;
    return Number.isFinite(grading.range[1]) ? grading.range[1] : legacyIdeal(data);
  }
  const secret = data.items.find((i) => i.kind === 'group' && i.group.name === 'secret');
  const max = secret?.kind === 'group' ? (secret.group.grading as ModernScoring).maxScore : 0;
  return max === null ? undefined : max;
}

// ---- 2023-07 ----

async function modernRoot(data: TestGroup, ctx: Ctx): Promise<Omit<Evaluation, 'tests' | 'groups'>> {
  if (!ctx.scoring) {
    // pass-fail: every test case in order; the first failure decides
    let first: Verdict | undefined;
    /** Answers the group's own first failure. */
    const walk = async (group: TestGroup): Promise<Verdict | undefined> => {
      let own: Verdict | undefined;
      for (const item of group.items) {
        if (first && !ctx.runAll) break;
        if (item.kind === 'test') {
          const outcome = await run(ctx, item.test, !first);
          if (outcome.verdict !== 'AC') {
            first ??= outcome.verdict;
            own ??= outcome.verdict;
          }
        } else {
          const sub = await walk(item.group);
          own ??= sub;
          ctx.groups.push({ name: item.group.name, verdict: sub ?? 'AC', score: 0 });
        }
      }
      return own;
    };
    await walk(data);
    const verdict = first ?? 'AC';
    ctx.groups.push({ name: '', verdict, score: verdict === 'AC' ? 1 : 0 });
    return { verdict, score: verdict === 'AC' ? 1 : 0, maxScore: 1 };
  }
  const state: ModernState = { verdicts: new Map(), firstFailure: undefined };
  let score = 0;
  for (const item of data.items) {
    if (item.kind === 'test') throw new PackageError(`the test case ${item.test.name} lies directly in data/; test cases belong in data/sample or data/secret`);
    const result = await modernGroup(item.group, ctx, state, item.group.name === 'sample');
    if (item.group.name === 'secret') score = result.score;
  }
  // a scoring submission is given a score instead of a verdict: any points make it accepted with
  // them; without points it keeps the first rejection it met
  const verdict = score > EPS ? 'AC' : (state.firstFailure ?? 'AC');
  const maxScore = maxScoreOf(data, '2023-07');
  ctx.groups.push({ name: '', verdict, score, maxScore: maxScore ?? null });
  return { verdict, score, maxScore };
}

interface ModernState {
  /** Group name → AC when every test case in it (and below) was accepted, else the first rejection in it. */
  verdicts: Map<string, Verdict>;
  firstFailure: Verdict | undefined;
}

async function modernGroup(group: TestGroup, ctx: Ctx, state: ModernState, sample: boolean): Promise<{ score: number; verdict: Verdict }> {
  const scoring = group.grading as ModernScoring;
  const missing = scoring.requirePass.filter((name) => state.verdicts.get(name) !== 'AC');
  if (missing.length > 0) {
    // not run: its test cases count as rejected, with the rejection that kept it from running
    const verdict = state.verdicts.get(missing[0]!) ?? 'WA';
    state.verdicts.set(group.name, verdict);
    for (const sub of subgroups(group)) state.verdicts.set(sub, verdict);
    ctx.groups.push({ name: group.name, verdict, score: 0, maxScore: scoring.maxScore, skipped: true });
    if (ctx.runAll) await runUncounted(ctx, group);
    return { score: 0, verdict };
  }
  let accepted = true;
  let firstVerdict: Verdict | undefined;
  const scores: number[] = [];
  // a pass-fail group is decided by its first failure; a min group once a failure brought its minimum to 0
  const decided = () =>
    !accepted && (scoring.aggregation === 'pass-fail' || (scoring.aggregation === 'min' && !sample && Math.min(...scores) <= 0));
  for (const item of group.items) {
    if (decided()) {
      if (ctx.runAll) {
        if (item.kind === 'test') await run(ctx, item.test, false);
        else await runUncounted(ctx, item.group);
      }
      continue;
    }
    if (item.kind === 'test') {
      const outcome = await run(ctx, item.test, true);
      const scored = ctx.tests[ctx.tests.length - 1]!;
      if (outcome.verdict !== 'AC') {
        accepted = false;
        firstVerdict ??= outcome.verdict;
        state.firstFailure ??= outcome.verdict;
      }
      if (!sample) {
        const score = testScore(item.test, outcome, scoring);
        if (scoring.aggregation !== 'pass-fail') {
          scored.score = score;
          scored.maxScore = item.test.maxScore ?? null;
        }
        scores.push(score);
      }
    } else {
      const sub = await modernGroup(item.group, ctx, state, sample);
      if (sub.verdict !== 'AC') {
        accepted = false;
        firstVerdict ??= sub.verdict;
      }
      scores.push(sub.score);
    }
  }
  let score = 0;
  if (!sample) {
    if (scoring.aggregation === 'pass-fail') score = accepted ? (scoring.maxScore ?? 0) : 0;
    else if (scoring.aggregation === 'sum') score = scores.reduce((a, b) => a + b, 0);
    else score = scores.length === 0 ? 0 : Math.min(...scores);
    if (scoring.maxScore !== null && score > scoring.maxScore + EPS) {
      throw new JudgeErrorStop(`the score ${score} of ${group.name} exceeds its max_score ${scoring.maxScore}`);
    }
  }
  const verdict: Verdict = accepted ? 'AC' : (firstVerdict ?? 'WA');
  state.verdicts.set(group.name, verdict);
  ctx.groups.push({ name: group.name, verdict, score, maxScore: sample ? undefined : scoring.maxScore });
  return { score, verdict };
}

function subgroups(group: TestGroup): string[] {
  return group.items.flatMap((i) => (i.kind === 'group' ? [i.group.name, ...subgroups(i.group)] : []));
}

/** A test case's score in a 2023-07 scoring group, with the format's judge-error rules. */
function testScore(test: TestCase, outcome: TestOutcome, scoring: ModernScoring): number {
  const hasScore = outcome.score !== undefined;
  const hasMultiplier = outcome.scoreMultiplier !== undefined;
  const fail = (why: string) => new JudgeErrorStop(`${test.name}: ${why}`);
  if (hasScore && hasMultiplier) throw fail('the validator wrote both score.txt and score_multiplier.txt');
  if (scoring.aggregation === 'pass-fail') {
    if (hasScore || hasMultiplier) throw fail('the validator wrote a score for a test case in a pass-fail group');
    return 0;
  }
  if (outcome.verdict !== 'AC') {
    if (hasScore || hasMultiplier) throw fail('the validator wrote a score for a rejected test case');
    return 0;
  }
  const max = test.maxScore ?? null;
  if (max === null) {
    if (hasMultiplier) throw fail('score_multiplier.txt for a test case with unbounded maximum score');
    if (!hasScore) throw fail('the test case has an unbounded maximum score but the validator wrote no score.txt');
    if (outcome.score! < 0) throw fail(`score.txt holds a negative score ${outcome.score}`);
    return outcome.score!;
  }
  if (hasMultiplier) {
    const m = outcome.scoreMultiplier!;
    if (!(m >= 0 && m <= 1)) throw fail(`score_multiplier.txt holds ${m}, outside [0, 1]`);
    return m * max;
  }
  if (hasScore) {
    const s = outcome.score!;
    if (!(s >= 0) || s > max + EPS) throw fail(`score.txt holds ${s}, outside [0, ${max}]`);
    return s;
  }
  return max;
}

/**
 * Fills in the maximum scores of 2023-07 groups and test cases that give none: `secret` 100 unless
 * declared; in a bounded `sum` group of maximum M, test cases and undeclared subgroups share what
 * the declared subgroups leave, (M − S)/(A + T); in a `min` group they get M; below an unbounded
 * group they are unbounded. Throws PackageError for what the format forbids.
 */
export function resolveModernMaxScores(secret: TestGroup, declared: ReadonlyMap<string, number | null>): void {
  const resolve = (group: TestGroup, max: number | null) => {
    const scoring = group.grading as ModernScoring;
    scoring.maxScore = max;
    const subs = group.items.flatMap((i) => (i.kind === 'group' ? [i.group] : []));
    const tests = group.items.flatMap((i) => (i.kind === 'test' ? [i.test] : []));
    if (scoring.aggregation === 'pass-fail') {
      if (max === null) throw new PackageError(`${group.name} uses pass-fail aggregation and so needs a bounded max_score`);
      for (const sub of subs) {
        if ((sub.grading as ModernScoring).aggregation !== 'pass-fail') {
          throw new PackageError(`${sub.name} must use pass-fail aggregation like the group ${group.name} that holds it`);
        }
        resolve(sub, declared.get(sub.name) ?? max);
      }
      return;
    }
    let childDefault: number | null;
    if (max === null) childDefault = null;
    else if (scoring.aggregation === 'min') childDefault = max;
    else {
      let sum = 0;
      let undeclared = tests.length;
      for (const sub of subs) {
        const d = declared.get(sub.name);
        if (d === undefined) undeclared++;
        else if (d === null) throw new PackageError(`${sub.name} has an unbounded max_score inside the bounded ${group.name}`);
        else sum += d;
      }
      if (sum > max + EPS) throw new PackageError(`the max_score of the groups in ${group.name} add up to ${sum}, more than its ${max}`);
      childDefault = undeclared > 0 ? (max - sum) / undeclared : 0;
    }
    for (const test of tests) test.maxScore = childDefault;
    for (const sub of subs) {
      const d = declared.get(sub.name);
      if (d === null && max !== null) throw new PackageError(`${sub.name} has an unbounded max_score inside the bounded ${group.name}`);
      resolve(sub, d === undefined ? childDefault : d);
    }
  };
  const own = declared.get(secret.name);
  resolve(secret, own === undefined ? 100 : own);
}

const baseName = (name: string) => name.slice(name.lastIndexOf('/') + 1);
