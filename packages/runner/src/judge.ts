import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pickLanguage, runCommand, type Language, type LanguageTable } from './languages.js';
import { compareOutput, parseDefaultValidatorFlags, type DefaultValidatorOptions } from './problem/default-validator.js';
import { extractZip } from './problem/cache.js';
import { buildValidator, compileFiles, safeRelative, ValidatorBuildError, type BuiltValidator, type JudgeSandbox, type ProgramFile } from './problem/programs.js';
import { evaluate, maxScoreOf, type Evaluation, type GroupResult, type TestOutcome } from './problem/scoring.js';
import { PackageError, testsOf, type ProblemSpec, type TestCase, type TestGroup, type Verdict } from './problem/types.js';
import type { Box } from './sandbox/sandbox.js';
import type { Limits, RunResult, RunStatus, RunningProgram } from './sandbox/types.js';

/**
 * Judging one submission against a loaded ICPC problem package, in the sandbox:
 *
 * 1. the language (`props.language`, else the file extension) must be one the assignment allows
 *    (`config.languages`, else the package's `languages`) — otherwise CE;
 * 2. the files plus `include/default/` and `include/<language>/` are compiled in a fresh box
 *    (CE with the compiler's output);
 * 3. every test case the format needs runs with stdin from its `.in` and stdout to a file under the
 *    output limit, CPU time from the package, memory from the package (2048 MiB when it names
 *    none) capped by the runner;
 * 4. the output goes to the default validator (in process) or the package's own, built once per
 *    package and run in the sandbox as `validator input answer feedback_dir/ [args] < output`
 *    (42 accepted, 43 wrong answer, anything else JE); interactive problems pipe the submission and
 *    the validator together;
 * 5. problem/scoring.ts turns the verdicts into the verdict and score.
 *
 * `output-only@1` (and 2023-07 `submit-answer`) problems take the submitted files as the answers
 * of the secret test cases. A package or sandbox fault is `infrastructureFailure`, never a verdict.
 */

export interface SubmissionFileInput {
  name: string;
  bytes: Uint8Array;
}

/** The runner's own limits and defaults (its configuration). */
export interface RunnerLimits {
  /** Memory when neither the package nor the assignment names any; default 2048 MiB. */
  defaultMemoryMiB?: number;
  /** The most memory any program gets here; default: no cap beyond the package's. */
  maxMemoryMiB?: number;
  /** Time limit when the package has none; default 2 s. */
  defaultTimeLimitSeconds?: number;
  /** Output limit when the package has none; default 8 MiB. */
  defaultOutputMiB?: number;
  /** Processes and threads per run; default 64. */
  pids?: number;
}

export interface JudgeInput {
  sandbox: JudgeSandbox;
  languages: LanguageTable;
  problem: ProblemSpec;
  /** `standard-io@1` (default) or `output-only@1`. */
  problemType?: string;
  files: SubmissionFileInput[];
  /** The submission's props (`language`). */
  props?: Record<string, unknown> | null;
  /**
   * The assignment's config, laid over the package: `languages` (allowed ids), `timeLimitSeconds`,
   * `memoryMiB`, `outputMiB`, `runAllTests` (run every test even after the verdict is known).
   */
  config?: Record<string, unknown> | null;
  limits?: RunnerLimits;
  /** Where the built validator is kept; default `<package dir>.build` (what PackageCache hands out). */
  buildDir?: string;
  /** Run every test (trials); the verdict stays the lazy one. */
  runAll?: boolean;
  /** Called after each test case (for lease progress reports). */
  onProgress?: (done: number, total: number) => void;
}

export interface TestDetail {
  test: string;
  group: string;
  verdict: Verdict;
  cpuMs?: number;
  wallMs?: number;
  memoryBytes?: number | null;
  score?: number;
  maxScore?: number | null;
  /** Validator or runtime feedback, trimmed. */
  feedback?: string;
  /** The format reveals this test's data after a failure (samples by default). */
  fullFeedback?: boolean;
  /** False when the test ran only because every test was asked for (it does not count). */
  counted?: false;
}

/** The `details` attachment: JSON-able. */
export interface JudgeDetails {
  verdict: Verdict;
  score: number;
  maxScore?: number;
  language?: string;
  limits?: { timeMs: number; memoryBytes: number; outputBytes: number };
  tests: TestDetail[];
  groups: GroupResult[];
}

export interface JudgeResult {
  verdict: Verdict;
  score: number;
  maxScore?: number;
  details: JudgeDetails;
  /** Compiler output, validator feedback, notes; at most 64 KiB. */
  log: string;
  /** Set when the job could not be judged (broken package, sandbox fault): report it as such. */
  infrastructureFailure?: string;
  /** The test that took the most CPU time. */
  slowest?: { test: string; cpuMs: number; wallMs: number };
}

const MiB = 1024 * 1024;
const LOG_LIMIT = 64 * 1024;
const FEEDBACK_DETAIL = 500;
const FEEDBACK_LOG = 2000;
/** After an interactor decides, the submission gets this long to exit by itself. */
const INTERACTIVE_GRACE_MS = 1000;

/** The `log` attachment: at most LOG_LIMIT characters, the closing lines always kept. */
class Log {
  private parts: string[] = [];
  private size = 0;
  private trimmed = false;
  /** Room kept for the closing lines (verdict, judge error). */
  private static readonly RESERVE = 2048;
  add(text: string, closing = false): void {
    if (!text) return;
    let t = text.endsWith('\n') ? text : `${text}\n`;
    if (closing) t = trim(t, Log.RESERVE);
    const budget = closing ? LOG_LIMIT : LOG_LIMIT - Log.RESERVE;
    if (this.size + t.length > budget) {
      if (this.trimmed && !closing) return;
      const room = Math.max(0, budget - this.size - 20);
      this.parts.push(t.slice(0, room), '… (log trimmed)\n');
      this.trimmed = true;
      this.size = budget;
      return;
    }
    this.parts.push(t);
    this.size += t.length;
  }
  toString(): string {
    return this.parts.join('');
  }
}

const trim = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

interface ResolvedLimits {
  run: Limits;
  validation: Limits;
  compile?: Partial<Limits>;
  notes: string[];
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

function resolveLimits(problem: ProblemSpec, config: Record<string, unknown>, runner: RunnerLimits): ResolvedLimits {
  const notes: string[] = [];
  const cap = runner.maxMemoryMiB ?? Infinity;
  let seconds = num(config.timeLimitSeconds);
  if (seconds !== undefined) notes.push(`time limit ${seconds} s (assignment)`);
  else if (problem.limits.timeLimitSeconds !== undefined) {
    seconds = problem.limits.timeLimitSeconds;
    notes.push(`time limit ${seconds} s (${problem.limits.timeLimitSource})`);
  } else {
    seconds = runner.defaultTimeLimitSeconds ?? 2;
    notes.push(`time limit ${seconds} s (the package names none: runner default)`);
  }
  let memoryMiB = num(config.memoryMiB) ?? problem.limits.memoryMiB ?? runner.defaultMemoryMiB ?? 2048;
  if (memoryMiB > cap) {
    notes.push(`memory ${memoryMiB} MiB capped to this runner's ${cap} MiB`);
    memoryMiB = cap;
  } else notes.push(`memory ${memoryMiB} MiB`);
  const outputMiB = num(config.outputMiB) ?? problem.limits.outputMiB ?? runner.defaultOutputMiB ?? 8;
  notes.push(`output ${outputMiB} MiB`);
  const pids = runner.pids ?? 64;
  const cpuMs = Math.round(seconds * 1000);
  const run: Limits = { cpuMs, wallMs: cpuMs * 2 + 1000, memoryBytes: Math.floor(memoryMiB * MiB), pids, outputBytes: Math.floor(outputMiB * MiB) };
  const vCpu = Math.round((problem.limits.validationTimeSeconds ?? 60) * 1000);
  const validation: Limits = {
    cpuMs: vCpu,
    wallMs: vCpu * 2,
    memoryBytes: Math.floor(Math.min(problem.limits.validationMemoryMiB ?? 2048, cap) * MiB),
    pids,
    outputBytes: Math.floor((problem.limits.validationOutputMiB ?? 8) * MiB),
  };
  const compile: Partial<Limits> = {};
  if (problem.limits.compilationTimeSeconds) {
    compile.cpuMs = problem.limits.compilationTimeSeconds * 1000;
    compile.wallMs = compile.cpuMs * 2;
  }
  if (problem.limits.compilationMemoryMiB) compile.memoryBytes = Math.min(problem.limits.compilationMemoryMiB, cap) * MiB;
  return { run, validation, compile: Object.keys(compile).length ? compile : undefined, notes };
}

const STATUS_VERDICT: Record<Exclude<RunStatus, 'ok'>, TestOutcome['verdict']> = { tle: 'TLE', wall: 'TLE', mle: 'MLE', ole: 'OLE', re: 'RTE' };

/** What running one test produced beyond its outcome. */
interface TestRun {
  outcome: TestOutcome;
  run?: RunResult;
  feedback?: string;
  /** Longer text for the log (validator stderr, judge message). */
  logText?: string;
}

/** Judges one submission; never throws for the submission's or the package's faults. */
export async function judgeSubmission(input: JudgeInput): Promise<JudgeResult> {
  const { problem, sandbox } = input;
  const config = input.config ?? {};
  const log = new Log();
  const cleanup: Array<() => Promise<unknown>> = [];
  const outputOnly = input.problemType === 'output-only@1' || problem.submitAnswer;
  const maxScore = problem.scoring ? maxScoreOf(problem.data, problem.format) : 1;
  const early = (verdict: Verdict, message: string, extra: Partial<JudgeDetails> = {}): JudgeResult => {
    log.add(message, true);
    return { verdict, score: 0, maxScore, details: { verdict, score: 0, maxScore, tests: [], groups: [], ...extra }, log: log.toString() };
  };
  const infrastructure = (reason: string): JudgeResult => {
    log.add(`infrastructure failure: ${reason}`, true);
    return {
      verdict: 'JE',
      score: 0,
      maxScore,
      details: { verdict: 'JE', score: 0, maxScore, tests: [], groups: [] },
      log: log.toString(),
      infrastructureFailure: trim(reason, 2000),
    };
  };
  try {
    if (input.problemType && input.problemType !== 'standard-io@1' && input.problemType !== 'output-only@1') {
      throw new PackageError(`this runner judges standard-io@1 and output-only@1, not ${input.problemType}`);
    }
    if (outputOnly && problem.interactive) throw new PackageError('an interactive problem cannot be judged as output-only');
    const limits = resolveLimits(problem, config, input.limits ?? {});
    const detailLimits = { timeMs: limits.run.cpuMs, memoryBytes: limits.run.memoryBytes, outputBytes: limits.run.outputBytes };
    const runAll = input.runAll || config.runAllTests === true;

    const scratch = path.join(sandbox.workRoot, `judge-${process.pid}-${randomBytes(6).toString('hex')}`);
    await fs.promises.mkdir(scratch, { mode: 0o711 });
    await fs.promises.chmod(scratch, 0o711);
    cleanup.push(() => fs.promises.rm(scratch, { recursive: true, force: true }));

    // the package's validator first: a package that cannot judge should not cost a compile
    let validator: BuiltValidator | undefined;
    if (problem.customValidator) {
      try {
        validator = await buildValidator(sandbox, input.languages, problem.customValidator, input.buildDir ?? `${problem.dir}.build`);
      } catch (e) {
        if (e instanceof ValidatorBuildError && e.infrastructure) return infrastructure(e.message);
        if (e instanceof ValidatorBuildError) return early('JE', `judge error: ${e.message}`, { limits: detailLimits });
        throw e;
      }
    }

    const ctx: RunCtx = { input, limits, scratch, validator, log, seq: 0, flags: new Map() };
    let runTest: (test: TestCase) => Promise<TestRun>;
    let language: string | undefined;
    let data = problem.data;
    if (outputOnly) {
      const answers = await answerFiles(input.files, scratch);
      if ('error' in answers) return early('CE', answers.error, { limits: detailLimits });
      data = secretOnly(problem.data);
      runTest = (test) => runOutputOnly(ctx, test, answers);
    } else {
      const chosen = chooseLanguage(input);
      if ('error' in chosen) {
        if (chosen.infrastructure) return infrastructure(chosen.error);
        return early('CE', chosen.error, { limits: detailLimits });
      }
      const lang = chosen.lang;
      language = lang.id;
      log.add(`language: ${lang.name} (${lang.id}); ${limits.notes.join(', ')}`);
      const code = input.files.reduce((n, f) => n + f.bytes.byteLength, 0);
      if (problem.limits.codeKiB !== undefined && code > problem.limits.codeKiB * 1024) {
        return early('CE', `the submission is ${Math.ceil(code / 1024)} KiB; this problem takes at most ${problem.limits.codeKiB} KiB of code`, { language, limits: detailLimits });
      }
      const files = await programFiles(input.files, chosen.main, problem, lang);
      if ('error' in files) return early('CE', files.error, { language, limits: detailLimits });
      const compiled = await compileFiles(sandbox, lang, files.files, files.main, { limits: limits.compile });
      cleanup.push(() => compiled.box.dispose());
      if (compiled.log.trim()) log.add(`compiler output:\n${trim(compiled.log.trimEnd(), 48 * 1024)}`);
      if (!compiled.ok) return early('CE', 'compilation failed', { language, limits: detailLimits });
      const program: Program = { lang, entry: compiled.entry, box: compiled.box };
      runTest = problem.interactive ? (test) => runInteractive(ctx, program, test) : (test) => runStandard(ctx, program, test);
    }
    if (outputOnly) log.add(`output-only: ${limits.notes.join(', ')}`);

    const total = testsOf(data).length;
    const runs = new Map<string, TestRun>();
    let done = 0;
    const evaluation = await evaluate(
      data,
      async (test) => {
        const r = await runTest(test);
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
    return finish(evaluation, runs, log, language, detailLimits);
  } catch (e) {
    return infrastructure(e instanceof PackageError ? `the problem package cannot be judged: ${e.message}` : `${(e as Error).name ?? 'Error'}: ${(e as Error).message}`);
  } finally {
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
  }
}

function finish(evaluation: Evaluation, runs: Map<string, TestRun>, log: Log, language: string | undefined, limits: JudgeDetails['limits']): JudgeResult {
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

// ---- the submission ----

type Chosen = { lang: Language; main: SubmissionFileInput } | { error: string; infrastructure?: boolean };

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}

function chooseLanguage(input: JudgeInput): Chosen {
  const { files, languages, props } = input;
  if (files.length === 0) return { error: 'the submission holds no files' };
  const named = typeof props?.language === 'string' && props.language ? props.language : undefined;
  let main = files[0]!;
  let lang = pickLanguage(languages, main.name, props);
  if (!named) {
    // several files: the first whose extension names a language
    for (const f of files) {
      const l = pickLanguage(languages, f.name, null);
      if (l) {
        main = f;
        lang = l;
        break;
      }
    }
  } else if (lang) {
    main = files.find((f) => lang!.extensions.includes(/\.([^./]+)$/.exec(f.name)?.[1]?.toLowerCase() ?? '')) ?? main;
  }
  if (!lang) {
    return {
      error: named
        ? `the language "${named}" is not one this judge knows`
        : `cannot tell the language of ${files.map((f) => f.name).join(', ')}: name it (props.language) or use a known file extension`,
    };
  }
  const allowed = stringList(input.config?.languages) ?? input.problem.languages;
  if (allowed && !allowed.includes(lang.id)) {
    return { error: `${lang.name} (${lang.id}) is not allowed for this problem; allowed: ${allowed.join(', ')}` };
  }
  if (!lang.present) return { error: `${lang.name} is not installed on this runner (${lang.requires.join(', ')})`, infrastructure: true };
  return { lang, main };
}

/** A submitted file's name as written into the box: its base name, odd characters replaced. */
function boxName(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1).slice(-200);
  const clean = base.replace(/[^A-Za-z0-9_.+-]/g, '_').replace(/^[.-]+/, '_');
  return clean || 'source';
}

/** The submission's files and the package's include/ files (which win on a name collision). */
async function programFiles(
  files: SubmissionFileInput[],
  main: SubmissionFileInput,
  problem: ProblemSpec,
  lang: Language,
): Promise<{ files: ProgramFile[]; main: string } | { error: string }> {
  const out = new Map<string, ProgramFile>();
  for (const f of files) {
    const name = boxName(f.name);
    if (out.has(name)) return { error: `two files are named ${name}` };
    out.set(name, { name, bytes: f.bytes });
  }
  for (const dir of [problem.include.default, problem.include.byLanguage[lang.id]]) {
    if (!dir) continue;
    for (const rel of await listFiles(dir)) out.set(rel, { name: rel, bytes: await fs.promises.readFile(path.join(dir, rel)) });
  }
  return { files: [...out.values()], main: boxName(main.name) };
}

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.promises.readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

interface Program {
  lang: Language;
  entry: string;
  box: Box;
}

interface RunCtx {
  input: JudgeInput;
  limits: ResolvedLimits;
  scratch: string;
  validator: BuiltValidator | undefined;
  log: Log;
  seq: number;
  flags: Map<string, DefaultValidatorOptions>;
}

/** `<name>.files/` goes into the working directory for one test and away after it. */
async function withTestFiles<T>(box: Box, test: TestCase, body: () => Promise<T>): Promise<T> {
  if (!test.filesDir) return body();
  const names = await listFiles(test.filesDir);
  for (const rel of names) {
    const target = path.join(box.path, rel);
    await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
    await fs.promises.copyFile(path.join(test.filesDir, rel), target);
    await fs.promises.chmod(target, 0o644);
  }
  try {
    return await body();
  } finally {
    for (const rel of names) await fs.promises.rm(path.join(box.path, rel), { force: true });
  }
}

async function runStandard(ctx: RunCtx, program: Program, test: TestCase): Promise<TestRun> {
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
  if (run.status !== 'ok') return { outcome: { verdict: STATUS_VERDICT[run.status] }, run, feedback: runFeedback(run) };
  const checked = await validate(ctx, test, out);
  return { ...checked, run };
}

function runFeedback(run: RunResult): string {
  const parts = [run.reason ?? run.status];
  const tail = run.stderrTail?.trim();
  if (tail) parts.push(`stderr: ${tail.split('\n').slice(-5).join('\n')}`);
  return parts.join('; ');
}

/** Judges an output file with the default or the package's validator. */
async function validate(ctx: RunCtx, test: TestCase, output: string): Promise<TestRun> {
  if (!ctx.validator) {
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
  const fb = await feedbackDir(ctx);
  const v = ctx.validator;
  const cmd = v.command(ctx.limits.validation.memoryBytes);
  const vErr = path.join(ctx.scratch, 'validator-stderr');
  const run = await ctx.input.sandbox.run({
    argv: [...cmd.argv, ...validatorArgs(test)],
    workDir: v.dir,
    mounts: [...cmd.mounts, ...validatorMounts(test, fb)],
    stdin: { path: output },
    stdout: 'ignore',
    stderr: { path: vErr },
    limits: ctx.limits.validation,
    env: cmd.env,
    addressSpaceLimit: cmd.addressSpaceLimit,
  });
  try {
    return await interpretValidator(run, fb, undefined);
  } finally {
    await fs.promises.rm(fb, { recursive: true, force: true });
  }
}

function validatorArgs(test: TestCase): string[] {
  return [`/judge/data/${path.basename(test.input)}`, `/judge/data/${path.basename(test.answer)}`, '/judge/feedback/', ...test.validatorArgs];
}

function validatorMounts(test: TestCase, fb: string) {
  return [
    { host: path.dirname(test.input), box: '/judge/data' },
    { host: fb, box: '/judge/feedback', writable: true },
  ];
}

/** A fresh feedback directory the validator (whatever its sandbox uid) may write. */
async function feedbackDir(ctx: RunCtx): Promise<string> {
  const dir = path.join(ctx.scratch, `feedback-${++ctx.seq}`);
  await fs.promises.mkdir(dir, { mode: 0o777 });
  await fs.promises.chmod(dir, 0o777);
  return dir;
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

/**
 * The validator's verdict from its exit code (42, 43, else JE), with its feedback files. For
 * interactive runs `submission` is the submission's own result, which wins when it failed first.
 */
async function interpretValidator(run: RunResult, fb: string, submission: { result: RunResult; first: boolean; killed: boolean } | undefined): Promise<TestRun> {
  const judgeMessage = (await readSmall(path.join(fb, 'judgemessage.txt')))?.trim();
  const teamMessage = (await readSmall(path.join(fb, 'teammessage.txt')))?.trim();
  const scoreText = await readSmall(path.join(fb, 'score.txt'), 256);
  const multiplierText = await readSmall(path.join(fb, 'score_multiplier.txt'), 256);
  const message = teamMessage || judgeMessage || '';
  const sub = submission?.result;
  const subVerdict = sub && sub.status !== 'ok' && !(submission!.killed && sub.status === 're') ? STATUS_VERDICT[sub.status] : undefined;
  const submissionFailed = (): TestRun => ({ outcome: { verdict: subVerdict! }, run: sub, feedback: runFeedback(sub!) });
  // the submission used more CPU than allowed: TLE, whoever ended first
  if (sub?.status === 'tle') return submissionFailed();
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

// ---- interactive ----

async function runInteractive(ctx: RunCtx, program: Program, test: TestCase): Promise<TestRun> {
  const { sandbox, problem } = ctx.input;
  const v = ctx.validator!;
  const fb = await feedbackDir(ctx);
  const vErr = path.join(ctx.scratch, 'validator-stderr');
  const err = path.join(ctx.scratch, 'stderr');
  const vcmd = v.command(ctx.limits.validation.memoryBytes);
  const scmd = runCommand(program.lang, { memoryBytes: ctx.limits.run.memoryBytes, entry: program.entry });
  try {
    return await withTestFiles(program.box, test, async () => {
      const val = sandbox.start({
        argv: [...vcmd.argv, ...validatorArgs(test)],
        workDir: v.dir,
        mounts: [...vcmd.mounts, ...validatorMounts(test, fb)],
        stdin: 'pipe',
        stdout: 'pipe',
        stderr: { path: vErr },
        // the interactor waits for the submission: it must outlast it
        limits: { ...ctx.limits.validation, wallMs: Math.max(ctx.limits.validation.wallMs, ctx.limits.run.wallMs + 10_000) },
        env: vcmd.env,
        addressSpaceLimit: vcmd.addressSpaceLimit,
      });
      let sub: RunningProgram;
      try {
        sub = sandbox.start({
          argv: [...scmd.argv, ...test.args],
          workDir: program.box.path,
          writable: problem.allowFileWriting,
          mounts: scmd.mounts,
          stdin: 'pipe',
          stdout: 'pipe',
          stderr: { path: err },
          limits: ctx.limits.run,
          env: scmd.env,
          addressSpaceLimit: scmd.addressSpaceLimit,
          outOfMemory: scmd.outOfMemory,
        });
      } catch (e) {
        val.kill();
        await val.result.catch(() => undefined);
        throw e;
      }
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
      let valRun: RunResult;
      try {
        valRun = await valResult;
      } catch (e) {
        sub.kill();
        await subResult.catch(() => undefined);
        throw e;
      }
      // the interactor has decided: the submission may finish on its own for a moment, then it stops
      let killed = false;
      const timer = setTimeout(() => {
        killed = subEnded === Infinity;
        sub.kill();
      }, INTERACTIVE_GRACE_MS);
      let subRun: RunResult;
      try {
        subRun = await subResult;
      } finally {
        clearTimeout(timer);
      }
      const outcome = await interpretValidator(valRun, fb, { result: subRun, first: subEnded < valEnded, killed });
      return { ...outcome, run: subRun };
    });
  } finally {
    await fs.promises.rm(fb, { recursive: true, force: true });
  }
}

// ---- output-only ----

/** data/ with only the secret test cases: output-only submissions answer those. */
function secretOnly(data: TestGroup): TestGroup {
  return { ...data, items: data.items.filter((i) => i.kind === 'group' && i.group.name === 'secret') };
}

interface AnswerSet {
  /** Relative file name → host path. */
  files: Map<string, string>;
}

/** The submitted answers, a zip of them unpacked. */
async function answerFiles(files: SubmissionFileInput[], scratch: string): Promise<AnswerSet | { error: string }> {
  const dir = path.join(scratch, 'answers');
  await fs.promises.mkdir(dir, { mode: 0o755 });
  const out = new Map<string, string>();
  for (const f of files) {
    if (/\.zip$/i.test(f.name)) {
      const target = path.join(scratch, `zip-${randomBytes(4).toString('hex')}`);
      try {
        await extractZip(f.bytes, target, { maxEntries: 10_000, maxExtractedBytes: 1024 * MiB });
      } catch (e) {
        return { error: `${f.name}: ${(e as Error).message}` };
      }
      for (const rel of await listFiles(target)) out.set(rel, path.join(target, rel));
      continue;
    }
    const name = f.name.replace(/^\/+/, '');
    if (!safeRelative(name)) return { error: `the file name ${JSON.stringify(f.name)} is not accepted` };
    const target = path.join(dir, name);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.writeFile(target, f.bytes);
    out.set(name, target);
  }
  return { files: out };
}

/**
 * The submitted file answering a test: `secret/group1/03` is answered by `secret/group1/03.out`,
 * `group1/03.out` or `03.out` (also `.ans`, `.txt` or no extension), the longest path first.
 */
export function answerFor(test: TestCase, files: ReadonlyMap<string, string>): string | undefined {
  const parts = test.name.split('/');
  for (let i = 0; i < parts.length; i++) {
    const base = parts.slice(i).join('/');
    for (const ext of ['.out', '.ans', '.txt', '']) {
      const hit = files.get(`${base}${ext}`);
      if (hit) return hit;
    }
  }
  return undefined;
}

async function runOutputOnly(ctx: RunCtx, test: TestCase, answers: AnswerSet): Promise<TestRun> {
  const file = answerFor(test, answers.files);
  const base = test.name.slice(test.name.lastIndexOf('/') + 1);
  if (!file) return { outcome: { verdict: 'WA' }, feedback: `no answer for ${test.name} (submit a file named ${base}.out)` };
  const size = (await fs.promises.stat(file)).size;
  if (size > ctx.limits.run.outputBytes) return { outcome: { verdict: 'OLE' }, feedback: `the answer is ${size} bytes; at most ${ctx.limits.run.outputBytes} are allowed` };
  return validate(ctx, test, file);
}

// ---- trials ----

export interface TrialInput {
  sandbox: JudgeSandbox;
  languages: LanguageTable;
  problem: ProblemSpec;
  problemType?: string;
  limits?: RunnerLimits;
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

/**
 * Runs a package's example submissions (submissions/<expected>/) on every test case and checks
 * each against what its directory promises; the measurement says, per submission, the expected
 * and actual verdict and its slowest test, and for the problem the slowest accepted and fastest
 * time-limit-exceeded times with the time limit they suggest.
 */
export async function runTrial(input: TrialInput): Promise<TrialResult> {
  const { problem } = input;
  const results: TrialSubmission[] = [];
  const outputOnly = input.problemType === 'output-only@1' || problem.submitAnswer;
  let done = 0;
  for (const sub of problem.submissions) {
    const files = await Promise.all(
      sub.files.map(async (name) => ({ name: name.slice(name.lastIndexOf('/') + 1), bytes: await fs.promises.readFile(path.join(sub.dir, name)) })),
    );
    const judged = await judgeSubmission({
      sandbox: input.sandbox,
      languages: input.languages,
      problem,
      problemType: input.problemType,
      files: outputOnly ? sub.files.map((name, i) => ({ name, bytes: files[i]!.bytes })) : files,
      props: sub.language ? { language: sub.language } : null,
      limits: input.limits,
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
    results.push(r);
    input.onProgress?.(++done, problem.submissions.length);
  }
  const accepted = results.filter((r) => r.expected === 'accepted' && r.verdict === 'AC' && r.slowestMs !== undefined);
  const tle = results.filter((r) => r.verdicts.TLE && r.slowestMs !== undefined);
  const slowestAcceptedMs = accepted.length ? Math.max(...accepted.map((r) => r.slowestMs!)) : undefined;
  const fastestTleMs = tle.length ? Math.min(...tle.map((r) => r.slowestMs!)) : undefined;
  const timeLimitSeconds = problem.limits.timeLimitSeconds ?? input.limits?.defaultTimeLimitSeconds ?? 2;
  const multiplier = problem.format === 'legacy' ? problem.limits.timeMultiplier : problem.limits.acToTimeLimit;
  const timing: Record<string, unknown> = { timeLimitSeconds, timeLimitSource: problem.limits.timeLimitSource ?? 'runner default' };
  if (slowestAcceptedMs !== undefined) {
    timing.slowestAcceptedMs = slowestAcceptedMs;
    const res = problem.limits.timeResolution;
    timing.suggestedTimeLimitSeconds = Math.max(res, Math.ceil(((slowestAcceptedMs / 1000) * multiplier) / res - 1e-9) * res);
    timing.acceptedWithinMargin = (slowestAcceptedMs / 1000) * (problem.format === 'legacy' ? problem.limits.timeSafetyMargin : problem.limits.acToTimeLimit) <= timeLimitSeconds;
  }
  if (fastestTleMs !== undefined) timing.fastestTimeLimitExceededMs = fastestTleMs;
  const ok = results.every((r) => r.ok !== false);
  const measurement = {
    problem: { name: problem.name, format: problem.formatVersion, type: problem.scoring ? 'scoring' : 'pass-fail', interactive: problem.interactive },
    ok,
    timing,
    submissions: results,
    ...(problem.warnings.length ? { warnings: problem.warnings.slice(0, 50) } : {}),
  };
  let text = JSON.stringify(measurement);
  if (text.length > 250 * 1024) {
    text = JSON.stringify({ ...measurement, submissions: results.map(({ path: p, expected, verdict, ok: o, slowestMs }) => ({ path: p, expected, verdict, ok: o, slowestMs })) });
  }
  return { measurement: text, ok, submissions: results };
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
