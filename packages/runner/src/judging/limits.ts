import type { ProblemSpec } from '../problem/types.js';
import type { Limits } from '../sandbox/types.js';
import type { RunnerLimits } from './types.js';

export const MiB = 1024 * 1024;

/** The limits of one judging: the submission's runs, the validator's, the compiler's. */
export interface ResolvedLimits {
  run: Limits;
  validation: Limits;
  compile?: Partial<Limits>;
  /** Where each limit came from, for the log. */
  notes: string[];
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

/** The assignment's config over the package's limits over the runner's defaults, capped by the runner. */
export function resolveLimits(problem: ProblemSpec, config: Record<string, unknown>, runner: RunnerLimits): ResolvedLimits {
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
