import type { ProblemSpec } from '../problem/types.js';
import type { Grader } from './grader.js';
import { interactiveGrader } from './interactive.js';
import { multiPassGrader } from './multipass.js';
import { outputOnlyGrader } from './output-only.js';
import { standardGrader } from './standard.js';

/**
 * The graders in the order they are asked; the first that handles a package judges it. Multi-pass
 * comes before interactive (it runs interactive passes itself); standard goes last: it takes any package.
 */
const GRADERS: readonly Grader[] = [outputOnlyGrader, multiPassGrader, interactiveGrader, standardGrader];

/** The grader of a package's judging mode. */
export function graderFor(problem: ProblemSpec, problemType: string | undefined): Grader {
  return GRADERS.find((g) => g.handles(problem, problemType))!;
}

/** Every problem type some grader judges, the most general first (what the runner registers for). */
export const PROBLEM_TYPES: string[] = [...new Set([...GRADERS].reverse().flatMap((g) => g.problemTypes))];
