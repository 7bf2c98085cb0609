import type { JudgeInput } from '../judging/types.js';
import type { ResolvedLimits } from '../judging/limits.js';
import type { Log } from '../judging/log.js';
import type { DefaultValidatorOptions } from '../problem/default-validator.js';
import type { BuiltValidator } from '../problem/programs.js';
import type { TestOutcome } from '../problem/scoring.js';
import type { ProblemSpec, TestCase, TestGroup } from '../problem/types.js';
import type { RunResult, RunStatus } from '../sandbox/types.js';

/**
 * One grader per judging mode, as DMOJ has them: the judge picks the first registered grader that
 * handles the package (graders/registry.ts), asks it to prepare the submission once (compile it,
 * unpack answers), then has it grade each test case the scoring asks for. A new mode is a new
 * grader file and one line in the registry.
 */
export interface Grader {
  /** The mode's name, for messages. */
  readonly mode: string;
  /** The problem types (decisions §13) a runner with this grader may claim jobs of. */
  readonly problemTypes: readonly string[];
  /** Whether this grader judges the package (the registry asks in order; the first yes wins). */
  handles(problem: ProblemSpec, problemType: string | undefined): boolean;
  /** Throws a PackageError when the package asks for something this mode cannot do. */
  refuse?(problem: ProblemSpec): void;
  /**
   * How a trial names the example submission's files: `path` keeps their path below the
   * submission's directory (output-only answers are matched by it), `base` only their base name.
   */
  readonly exampleFileNames: 'path' | 'base';
  /** Compiles or unpacks the submission once; what it returns grades each test case. */
  prepare(ctx: GradeContext): Promise<Prepared>;
}

/** A prepared submission, or why it cannot be run at all. */
export type Prepared = Ready | Refusal;

/** A submission ready to be graded test case by test case. */
export interface Ready {
  /** Judges one test case of `data`. */
  grade(test: TestCase): Promise<TestRun>;
  /** The test data this mode judges (default: the package's). */
  data?: TestGroup;
  language?: string;
}

/** A submission that cannot run (CE), or a runner that cannot run it (an infrastructure failure). */
export type Refusal = { rejected: 'CE'; message: string; language?: string } | { infrastructure: string };

/** What a grader has to work with: the judge's input, limits, scratch space and validator. */
export interface GradeContext {
  input: JudgeInput;
  limits: ResolvedLimits;
  /** A host directory of this judging (removed afterwards), searchable by the sandbox uids. */
  scratch: string;
  /** The package's own output validator or interactor, built; none for the default validator. */
  validator: BuiltValidator | undefined;
  log: Log;
  /** Runs when the judging ends, in reverse order of registration. */
  onCleanup(fn: () => Promise<unknown>): void;
  /** Numbers feedback directories. */
  seq: number;
  /** Parsed default-validator flags, by their argument list. */
  flags: Map<string, DefaultValidatorOptions>;
  /** What the compiler said, for the submission's `compile` attachment (its author sees it by default). */
  compileOutput?: string;
}

/** What running one test produced beyond its outcome. */
export interface TestRun {
  outcome: TestOutcome;
  run?: RunResult;
  feedback?: string;
  /** Longer text for the log (validator stderr, judge message). */
  logText?: string;
  /** The start of what the program wrote, kept for tests the format reveals (samples) only. */
  output?: string;
}

export const STATUS_VERDICT: Record<Exclude<RunStatus, 'ok'>, TestOutcome['verdict']> = { tle: 'TLE', wall: 'TLE', mle: 'MLE', ole: 'OLE', re: 'RTE' };

/** The sandbox's reason with the last lines the program wrote to stderr. */
export function runFeedback(run: RunResult): string {
  const parts = [run.reason ?? run.status];
  const tail = run.stderrTail?.trim();
  if (tail) parts.push(`stderr: ${tail.split('\n').slice(-5).join('\n')}`);
  return parts.join('; ');
}
