/**
 * A problem package as the runner understands it: what `loadProblem` reads from an extracted ICPC
 * problem package (legacy and 2023-07/2025-09 forms) and what the scorer and the judge work from.
 */

import type { LegacyGrading, ModernScoring, ProblemFormat, ProblemLimits, Verdict } from '@judge/problem-package';

export type { LegacyGrading, ModernScoring, ProblemFormat, ProblemLimits, Verdict } from '@judge/problem-package';
export { PackageError } from '@judge/problem-package';

export type GroupGrading = LegacyGrading | ModernScoring;

export interface TestCase {
  /** Relative to data/, without extension: `sample/1`, `secret/group1/03`. */
  name: string;
  /** The group that holds it: `sample`, `secret`, `secret/group1`. */
  group: string;
  /** Absolute paths. */
  input: string;
  answer: string;
  /** Extra command-line arguments for the submission (2023-07 `args`). */
  args: string[];
  /** Every argument for the output validator: problem-level, then group, then the test case's own. */
  validatorArgs: string[];
  /** Whether the format means its input, output and answer to be shown after a failure (samples by default). */
  fullFeedback: boolean;
  hint?: string;
  description?: string;
  /** `<name>.files/`: files copied into the submission's working directory for this test. */
  filesDir?: string;
  /** Resolved maximum score of the test case in a sum/min group (2023-07); null = unbounded; undefined otherwise. */
  maxScore?: number | null;
}

export type TestItem = { kind: 'test'; test: TestCase } | { kind: 'group'; group: TestGroup };

export interface TestGroup {
  /** Relative to data/: '' for data/ itself, then `sample`, `secret`, `secret/group1`. */
  name: string;
  /** Test cases and subgroups in lexicographic order of their base names. */
  items: TestItem[];
  grading: GroupGrading;
}

/** A program of the package (output validator): a directory and how to build it. */
export interface ProgramSource {
  /** Absolute directory holding the program's files (a single-file program is its file's directory). */
  dir: string;
  /** The program's files, relative to `dir`. */
  files: string[];
  /** `build-run`: `build`/`run` scripts; otherwise a language id (`c`, `cpp`, `python3`, ...). */
  language: 'build-run' | string;
}

/** An example submission under `submissions/<expected>/`. */
export interface ExampleSubmission {
  /** The directory below submissions/: `accepted`, `wrong_answer`, `time_limit_exceeded`, ... */
  expected: string;
  /** Relative to submissions/: `accepted/sol.cpp` or `accepted/multi` (a directory program). */
  path: string;
  /** Absolute directory holding the files. */
  dir: string;
  /** Files relative to `dir`. */
  files: string[];
  /** From submissions.yaml, else the file extension; undefined when neither says. */
  language?: string;
  /** 2023-07 submissions.yaml constraints that apply to it (whole-submission keys only). */
  permitted?: Verdict[];
  required?: Verdict[];
  score?: [number, number];
}

export interface ProblemSpec {
  /** The extracted package root. */
  dir: string;
  format: ProblemFormat;
  /** `problem_format_version` as written (`legacy` when absent). */
  formatVersion: string;
  name: string;
  /** `scoring` rather than `pass-fail`. */
  scoring: boolean;
  /** The output validator runs as the interactor. */
  interactive: boolean;
  /** The output validator may ask for further passes (`nextpass.in`), up to `limits.validationPasses`. */
  multiPass: boolean;
  /** 2023-07 `submit-answer`: submissions are the answers themselves. */
  submitAnswer: boolean;
  /** A custom output validator (`output_validators/` or `output_validator/`) judges; else the default one. */
  customValidator?: ProgramSource;
  /** Problem-level validator arguments (`validator_flags`). */
  validatorFlags: string[];
  limits: ProblemLimits;
  /** 2023-07 `languages` (undefined = all). */
  languages?: string[];
  allowFileWriting: boolean;
  /** `include/default/` and `include/<language>/` directories (absolute). */
  include: { default?: string; byLanguage: Record<string, string> };
  /** data/ as a group tree: `sample` (if any) then `secret`. */
  data: TestGroup;
  submissions: ExampleSubmission[];
  /** Things tolerated but worth telling a problem author (unknown keys, ignored features). */
  warnings: string[];
}

/** Every test case of a group tree, in judging order. */
export function testsOf(group: TestGroup): TestCase[] {
  const out: TestCase[] = [];
  const walk = (g: TestGroup) => {
    for (const item of g.items) {
      if (item.kind === 'test') out.push(item.test);
      else walk(item.group);
    }
  };
  walk(group);
  return out;
}
