import type { ProblemSpec } from '../problem/types.js';

/**
 * problemtools' time-limit rule (verifyproblem's Submissions.check), for a package that names no
 * time limit: the slowest accepted example's slowest test × the multiplier, rounded to the nearest
 * whole second (halves up) and at least 1 s; time-limit-exceeded examples are then expected to
 * run out even at the margin limit, max(limit + 1, round(exact × safety margin)). problemtools
 * applies the same rule to legacy (`limits.time_multiplier`, default 5; `limits.time_safety_margin`,
 * default 2) and 2023-07 packages (`limits.time_multipliers.ac_to_time_limit`, default 2;
 * `time_limit_to_tle`, default 1.5). A package that names its limit keeps it, and its
 * time-limit-exceeded examples are checked at limit × safety margin.
 */

export interface TimeRule {
  multiplier: number;
  multiplierKey: string;
  safetyMargin: number;
  safetyMarginKey: string;
}

export function timeRuleOf(problem: ProblemSpec): TimeRule {
  const l = problem.limits;
  return problem.format === 'legacy'
    ? { multiplier: l.timeMultiplier, multiplierKey: 'limits.time_multiplier', safetyMargin: l.timeSafetyMargin, safetyMarginKey: 'limits.time_safety_margin' }
    : {
        multiplier: l.acToTimeLimit,
        multiplierKey: 'limits.time_multipliers.ac_to_time_limit',
        safetyMargin: l.timeLimitToTle,
        safetyMarginKey: 'limits.time_multipliers.time_limit_to_tle',
      };
}

/** Python's int(0.5 + x) for the non-negative x it is used on. */
const roundHalfUp = (x: number) => Math.floor(0.5 + x + 1e-9);

export interface SuggestedLimit {
  /** The time limit problemtools sets, in whole seconds. */
  timeLimitSeconds: number;
  /** The limit time-limit-exceeded examples must still exceed. */
  tleMarginSeconds: number;
}

/** The limit the rule gives for the slowest accepted example's slowest test. */
export function suggestLimit(slowestAcceptedSeconds: number, rule: TimeRule): SuggestedLimit {
  const exact = slowestAcceptedSeconds * rule.multiplier;
  const timeLimitSeconds = Math.max(1, roundHalfUp(exact));
  return { timeLimitSeconds, tleMarginSeconds: Math.max(timeLimitSeconds + 1, roundHalfUp(exact * rule.safetyMargin)) };
}

/** The margin limit for a limit the package names (problemtools' fixed limit: limit × margin). */
export function marginOfGiven(timeLimitSeconds: number, rule: TimeRule): number {
  return Math.round(timeLimitSeconds * rule.safetyMargin * 1000) / 1000;
}
