import { effectiveLimits, readMaxima, type EffectiveLimit, type LimitFigures } from '@judge/problem-package';
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

const num = (v: number | undefined): number | undefined => (v !== undefined && Number.isFinite(v) && v > 0 ? v : undefined);

/** The runner's own defaults, where its configuration names them. */
function runnerDefaults(runner: RunnerLimits): Partial<LimitFigures> {
  const d: Partial<LimitFigures> = {};
  if (num(runner.defaultTimeLimitSeconds)) d.timeLimitSeconds = runner.defaultTimeLimitSeconds!;
  if (num(runner.defaultMemoryMiB)) d.memoryMiB = runner.defaultMemoryMiB!;
  if (num(runner.defaultOutputMiB)) d.outputMiB = runner.defaultOutputMiB!;
  return d;
}

/** One line of the log's limits note: the figure, where it came from, and the maximum that cut it. */
function note(what: string, unit: string, l: EffectiveLimit, byRunner = false): string {
  const from = l.source === 'default' ? (what === 'time limit' ? ' (the package names none: runner default)' : '') : what === 'time limit' ? ` (${l.source})` : '';
  if (l.asked === undefined) return `${what} ${l.value} ${unit}${from}`;
  return `${what} ${l.asked} ${unit} capped to ${byRunner ? "this runner's" : "the instance's maximum,"} ${l.value} ${unit}${from}`;
}

/**
 * The assignment's config over the package's limits over the runner's defaults, each capped by the
 * instance's maxima (the server hands them with each job; DEFAULT_MAXIMA without) and the runner's
 * own memory cap: the effective limits, the same the problem views show. `computedTimeLimit` is
 * the limit the server's calibration trial computed (the claim carries it): it stands for the
 * package's figure only when the package names none.
 */
export function resolveLimits(
  problem: ProblemSpec,
  config: Record<string, unknown>,
  runner: RunnerLimits,
  maxima?: Partial<LimitFigures>,
  computedTimeLimit?: number,
): ResolvedLimits {
  const m = readMaxima(maxima);
  const runnerCap = num(runner.maxMemoryMiB);
  const byRunner = runnerCap !== undefined && runnerCap < m.memoryMiB;
  if (byRunner) m.memoryMiB = runnerCap;
  const named = problem.limits.timeLimitSeconds !== undefined || num(computedTimeLimit) === undefined;
  const pkg = named ? problem.limits : { ...problem.limits, timeLimitSeconds: computedTimeLimit, timeLimitSource: 'computed by a trial' };
  const e = effectiveLimits(pkg, config, { defaults: runnerDefaults(runner), maxima: m });
  const notes = [note('time limit', 's', e.time), note('memory', 'MiB', e.memory, byRunner), note('output', 'MiB', e.output)];
  const pids = runner.pids ?? 64;
  const cpuMs = Math.round(e.time.value * 1000);
  const run: Limits = { cpuMs, wallMs: cpuMs * 2 + 1000, memoryBytes: Math.floor(e.memory.value * MiB), pids, outputBytes: Math.floor(e.output.value * MiB) };
  const vCpu = Math.round((problem.limits.validationTimeSeconds ?? 60) * 1000);
  const validation: Limits = {
    cpuMs: vCpu,
    wallMs: vCpu * 2,
    memoryBytes: Math.floor(Math.min(problem.limits.validationMemoryMiB ?? 2048, m.memoryMiB) * MiB),
    pids,
    outputBytes: Math.floor((problem.limits.validationOutputMiB ?? 8) * MiB),
  };
  return { run, validation, compile: compileLimits(problem, m), notes };
}

/**
 * The package's own compile limits (`compilation_time`, `compilation_memory`), within the
 * instance's maxima; the language table's compile limits otherwise. They are the compiler's, never
 * the program's time or memory limit.
 */
function compileLimits(problem: ProblemSpec, m: LimitFigures): Partial<Limits> | undefined {
  const compile: Partial<Limits> = {};
  const seconds = num(problem.limits.compilationTimeSeconds);
  if (seconds !== undefined) {
    compile.cpuMs = Math.round(Math.min(seconds, Math.max(m.timeLimitSeconds, 60)) * 1000);
    compile.wallMs = compile.cpuMs * 2;
  }
  const memory = num(problem.limits.compilationMemoryMiB);
  if (memory !== undefined) compile.memoryBytes = Math.floor(Math.min(memory, m.memoryMiB) * MiB);
  return Object.keys(compile).length ? compile : undefined;
}
