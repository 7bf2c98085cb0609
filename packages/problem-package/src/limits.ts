import { PackageError } from './errors.js';

/**
 * The limits a submission runs under, as server, runner and judgectl all work them out: where a
 * package's time limit comes from (problem.yaml, DOMjudge's domjudge-problem.ini, the legacy
 * .timelimit file), and the effective limits: the assignment's config over the package over the
 * judge's defaults, each capped by the instance's maxima (the administrator's setting; a package
 * asking for 100,000 s or 1,000,000 MiB gets the maxima).
 */

/** Where a package's time limit was read. */
export type TimeLimitSource = 'problem.yaml' | 'domjudge-problem.ini' | '.timelimit';

/** The figures the effective limits are made of (seconds, MiB). */
export interface LimitFigures {
  timeLimitSeconds: number;
  memoryMiB: number;
  outputMiB: number;
}

/** What the judge uses where neither the package nor the assignment names a limit. */
export const JUDGE_DEFAULTS: LimitFigures = { timeLimitSeconds: 2, memoryMiB: 2048, outputMiB: 8 };

/** The instance's maxima unless the administrator sets others (server setting `judging.*`). */
export const DEFAULT_MAXIMA: LimitFigures = { timeLimitSeconds: 60, memoryMiB: 2048, outputMiB: 64 };

/**
 * domjudge-problem.ini as PHP's parse_ini_string reads it: `key = value` lines, values optionally
 * quoted, `;` starting a comment, `[sections]` ignored. Malformed lines are skipped, as DOMjudge
 * warns and goes on.
 */
export function parseDomjudgeIni(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith(';') || line.startsWith('#') || line.startsWith('[')) continue;
    const m = /^([A-Za-z0-9_.-]+)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2]!;
    const quoted = /^"([^"]*)"|^'([^']*)'/.exec(value);
    if (quoted) value = quoted[1] ?? quoted[2] ?? '';
    else value = value.replace(/\s*;.*$/, '').trim();
    out[m[1]!] = value;
  }
  return out;
}

/** A positive number of seconds written as text (`2`, `1.5`), or a PackageError naming the file. */
function seconds(text: string, where: string): number {
  const t = text.trim();
  const n = /^\d+(\.\d+)?$|^\.\d+$/.test(t) ? Number(t) : NaN;
  if (!(Number.isFinite(n) && n > 0)) throw new PackageError(`${where} must be a positive number of seconds, not "${t.slice(0, 40)}"`);
  return n;
}

/** The legacy `.timelimit` file holds the time limit in seconds as plain text. */
export function parseTimelimitFile(text: string): number {
  return seconds(text, 'the .timelimit file');
}

/** domjudge-problem.ini's `timelimit`, if it names one. */
export function iniTimeLimit(text: string): number | undefined {
  const v = parseDomjudgeIni(text).timelimit;
  return v === undefined || v === '' ? undefined : seconds(v, 'timelimit in domjudge-problem.ini');
}

/** The texts a package's time limit may come from. */
export interface TimeLimitTexts {
  /** problem.yaml's `limits.time_limit`. */
  manifest?: number;
  /** domjudge-problem.ini's text. */
  ini?: string;
  /** The `.timelimit` file's text. */
  timelimit?: string;
}

/**
 * The package's time limit in DOMjudge's precedence: problem.yaml's `limits.time_limit`, else
 * domjudge-problem.ini's `timelimit`, else the `.timelimit` file. A lower source that disagrees
 * is reported in `warnings` (DOMjudge refuses such a package; it is judged here, by the first).
 */
export function packageTimeLimit(t: TimeLimitTexts, warnings: string[] = []): { seconds: number; source: TimeLimitSource } | undefined {
  const found: { seconds: number; source: TimeLimitSource }[] = [];
  if (t.manifest !== undefined) found.push({ seconds: t.manifest, source: 'problem.yaml' });
  const ini = t.ini !== undefined ? iniTimeLimit(t.ini) : undefined;
  if (ini !== undefined) found.push({ seconds: ini, source: 'domjudge-problem.ini' });
  if (t.timelimit !== undefined) found.push({ seconds: parseTimelimitFile(t.timelimit), source: '.timelimit' });
  const [first, ...rest] = found;
  for (const other of rest) {
    if (Math.abs(other.seconds - first!.seconds) > 1e-9) {
      warnings.push(`${other.source} says ${other.seconds} s, ${first!.source} ${first!.seconds} s: ${first!.source} counts`);
    }
  }
  return first;
}

/** What a package (or its summary) names of the limits. */
export interface NamedLimits {
  timeLimitSeconds?: number;
  timeLimitSource?: string;
  memoryMiB?: number;
  outputMiB?: number;
}

/** One effective limit: its value, where it came from, and what was asked when a maximum cut it. */
export interface EffectiveLimit {
  value: number;
  /** `assignment`, the package's file (`problem.yaml`, ...), or `default`. */
  source: string;
  /** The figure asked for, when it was above the instance's maximum. */
  asked?: number;
}

export interface EffectiveLimits {
  time: EffectiveLimit;
  memory: EffectiveLimit;
  output: EffectiveLimit;
}

const positive = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

/** The maxima given (a job's, a setting's), the defaults where one is missing or not a positive number. */
export function readMaxima(v: unknown, fallback: LimitFigures = DEFAULT_MAXIMA): LimitFigures {
  const o = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  return {
    timeLimitSeconds: positive(o.timeLimitSeconds) ?? fallback.timeLimitSeconds,
    memoryMiB: positive(o.memoryMiB) ?? fallback.memoryMiB,
    outputMiB: positive(o.outputMiB) ?? fallback.outputMiB,
  };
}

function pick(config: number | undefined, pkg: number | undefined, pkgSource: string, fallback: number, max: number): EffectiveLimit {
  const [value, source] = config !== undefined ? [config, 'assignment'] : pkg !== undefined ? [pkg, pkgSource] : [fallback, 'default'];
  return value > max ? { value: max, source, asked: value } : { value, source };
}

/**
 * The limits a submission runs under: the assignment's config (`timeLimitSeconds`, `memoryMiB`,
 * `outputMiB`) over the package's over the defaults, each capped by the maxima.
 */
export function effectiveLimits(
  pkg: NamedLimits,
  config: Record<string, unknown> | null | undefined,
  opts: { defaults?: Partial<LimitFigures>; maxima?: Partial<LimitFigures> } = {},
): EffectiveLimits {
  const d = { ...JUDGE_DEFAULTS, ...opts.defaults };
  const m = { ...DEFAULT_MAXIMA, ...opts.maxima };
  const c = config ?? {};
  return {
    time: pick(positive(c.timeLimitSeconds), positive(pkg.timeLimitSeconds), pkg.timeLimitSource ?? 'problem.yaml', d.timeLimitSeconds, m.timeLimitSeconds),
    memory: pick(positive(c.memoryMiB), positive(pkg.memoryMiB), 'problem.yaml', d.memoryMiB, m.memoryMiB),
    output: pick(positive(c.outputMiB), positive(pkg.outputMiB), 'problem.yaml', d.outputMiB, m.outputMiB),
  };
}
