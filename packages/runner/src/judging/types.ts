import type { LimitFigures } from '@judge/problem-package';
import type { CompileCache } from '../compile/cache.js';
import type { LanguageTable } from '../languages.js';
import type { JudgeSandbox } from '../problem/programs.js';
import type { JudgeTestDetail } from '@judge/contract';
import type { ProblemSpec, Verdict } from '../problem/types.js';
import type { GroupResult } from '../problem/scoring.js';

/** What the judge takes and gives back: the runner package's public judging types. */

export interface SubmissionFileInput {
  name: string;
  bytes: Uint8Array;
}

/** The runner's own limits and defaults (its configuration). */
export interface RunnerLimits {
  /** Memory when neither the package nor the assignment names any; default 2048 MiB. */
  defaultMemoryMiB?: number;
  /** The most memory any program gets here; default: the instance's maximum only. */
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
  /** The instance's maxima (the server's, with each job): every limit is capped by them; default DEFAULT_MAXIMA. */
  maxima?: Partial<LimitFigures>;
  /** The time limit the server's calibration trial computed for a package that names none (the claim's timeLimitSeconds). */
  computedTimeLimitSeconds?: number;
  /** Compiled submissions by the SHA-256 of source, language and compiler (a rejudge compiles nothing); none: every judging compiles. */
  compileCache?: CompileCache;
  /** Where the built validator is kept; default `<package dir>.build` (what PackageCache hands out). */
  buildDir?: string;
  /** Run every test (trials); the verdict stays the lazy one. */
  runAll?: boolean;
  /** Keep what the program wrote on every revealed test, passed or not (sample runs); default: on failed ones only. */
  revealOutputs?: boolean;
  /** Called after each test case (for lease progress reports). */
  onProgress?: (done: number, total: number) => void;
}

/** One test of the details attachment, with the runner's own verdicts. */
export type TestDetail = JudgeTestDetail<Verdict>;

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
  /** What the compile said (its output, or why the submission could not be compiled), when there is anything. */
  compileOutput?: string;
  /** Set when the job could not be judged (broken package, sandbox fault): report it as such. */
  infrastructureFailure?: string;
  /** The test that took the most CPU time. */
  slowest?: { test: string; cpuMs: number; wallMs: number };
}
