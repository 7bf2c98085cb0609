import type { TimeLimitSource } from './limits.js';

/** What a problem package says, in the terms the judge uses (the runner's ProblemSpec is built from these). */

/** ICPC judgement ids our runner reports (decisions §6). */
export type Verdict = 'AC' | 'WA' | 'TLE' | 'MLE' | 'OLE' | 'RTE' | 'CE' | 'JE';

/** `legacy` covers `legacy` and `legacy-icpc`; `2023-07` covers 2023-07, its drafts, 2025-09 and later. */
export type ProblemFormat = 'legacy' | '2023-07';

/** How a legacy group turns its sub-results into one (`testdata.yaml`, the default grader's flags). */
export interface LegacyGrading {
  kind: 'legacy';
  /** `break`: the group stops at its first rejected sub-result. */
  onReject: 'break' | 'continue';
  verdictMode: 'worst_error' | 'first_error' | 'always_accept';
  scoreMode: 'sum' | 'avg' | 'min' | 'max';
  ignoreSample: boolean;
  acceptIfAnyAccepted: boolean;
  acceptScore: number;
  rejectScore: number;
  /** Inclusive; a group score outside it is a judge error. */
  range: [number, number];
}

/** How a 2023-07 group is scored (`test_group.yaml` / `testdata.yaml`: `score_aggregation`, `max_score`, `require_pass`). */
export interface ModernScoring {
  kind: 'modern';
  aggregation: 'pass-fail' | 'sum' | 'min';
  /** Resolved maximum score of the group; null = unbounded. Samples and pass-fail problems: 0. */
  maxScore: number | null;
  /** Groups (names relative to data/, e.g. `sample`, `secret/group1`) that must be all accepted first. */
  requirePass: string[];
}

export interface ProblemLimits {
  /** CPU seconds per test; undefined when the package gives none (the judge then uses its default). */
  timeLimitSeconds?: number;
  timeLimitSource?: TimeLimitSource;
  memoryMiB?: number;
  outputMiB?: number;
  codeKiB?: number;
  compilationTimeSeconds?: number;
  compilationMemoryMiB?: number;
  validationTimeSeconds?: number;
  validationMemoryMiB?: number;
  validationOutputMiB?: number;
  /** Multi-pass problems: the most passes a test case may take (`limits.validation_passes`, default 2); undefined otherwise. */
  validationPasses?: number;
  /** Legacy: time limit = slowest accepted × multiplier (5), must leave a margin (2). */
  timeMultiplier: number;
  timeSafetyMargin: number;
  /** 2023-07 `time_multipliers`. */
  acToTimeLimit: number;
  timeLimitToTle: number;
  timeResolution: number;
}
