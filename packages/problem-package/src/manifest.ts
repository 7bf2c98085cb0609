import { z } from 'zod';
import { PackageError } from './errors.js';
import type { ProblemFormat, ProblemLimits } from './types.js';
import { checkKeys, isMapping, parseMapping, splitArgs, type Mapping } from './yaml.js';

/**
 * problem.yaml (decisions §13) in its legacy and 2023-07 (through 2025-09) forms. The zod schema
 * says what each key may hold, in the words an author reads when it does not; the functions below
 * say what the keys mean. Server (upload check), runner (loading) and judgectl read it here.
 */

const positiveLimit = (key: string, unit: string) => {
  const error = `limits.${key} in problem.yaml must be a positive number (${unit})`;
  return z.number({ error }).positive({ error }).nullish();
};

const multiplier = (key: string) => {
  const error = `limits.time_multipliers.${key} in problem.yaml must be a number of at least 1`;
  return z.number({ error }).min(1, { error }).optional();
};

/** problem.yaml's `limits`. */
export const LimitsYaml = z
  .looseObject(
    {
      time_limit: positiveLimit('time_limit', 'seconds'),
      memory: positiveLimit('memory', 'MiB'),
      output: positiveLimit('output', 'MiB'),
      code: positiveLimit('code', 'KiB'),
      compilation_time: positiveLimit('compilation_time', 'seconds'),
      compilation_memory: positiveLimit('compilation_memory', 'MiB'),
      validation_time: positiveLimit('validation_time', 'seconds'),
      validation_memory: positiveLimit('validation_memory', 'MiB'),
      validation_output: positiveLimit('validation_output', 'MiB'),
      time_multiplier: positiveLimit('time_multiplier', 'a factor'),
      time_safety_margin: positiveLimit('time_safety_margin', 'a factor'),
      time_resolution: positiveLimit('time_resolution', 'seconds'),
      time_multipliers: z
        .looseObject(
          { ac_to_time_limit: multiplier('ac_to_time_limit'), time_limit_to_tle: multiplier('time_limit_to_tle') },
          { error: 'limits.time_multipliers in problem.yaml must be a mapping' },
        )
        .optional(),
      validation_passes: z
        .number({ error: 'limits.validation_passes in problem.yaml must be a whole number of at least 2' })
        .int({ error: 'limits.validation_passes in problem.yaml must be a whole number of at least 2' })
        .min(2, { error: 'limits.validation_passes in problem.yaml must be a whole number of at least 2' })
        .nullish(),
    },
    { error: 'limits in problem.yaml must be a mapping' },
  )
  .nullish();

const Args = (where: string) =>
  z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))], { error: `${where} must be a string or a list of strings` }).nullish();

/** problem.yaml: the keys whose shape the judge relies on (others are read leniently or only warned about). */
export const ProblemYaml = z.looseObject({
  problem_format_version: z.union([z.string(), z.number()]).nullish(),
  type: z.union([z.string(), z.array(z.string())], { error: 'type in problem.yaml must be a string or a list of strings' }).optional(),
  validation: z.string({ error: 'validation in problem.yaml must be a string such as "default" or "custom interactive"' }).optional(),
  limits: LimitsYaml,
  validator_flags: Args('validator_flags in problem.yaml'),
  languages: z.union([z.string(), z.array(z.string())], { error: 'languages in problem.yaml must be "all" or a list of language codes' }).nullish(),
  name: z.unknown().optional(),
  allow_file_writing: z.unknown().optional(),
});
export type ProblemYaml = z.infer<typeof ProblemYaml>;

const LEGACY_KEYS = new Set([
  'problem_format_version', 'type', 'name', 'uuid', 'author', 'source', 'source_url', 'license', 'rights_owner',
  'limits', 'validation', 'validator_flags', 'grading', 'keywords', 'languages', 'credits', 'version',
]);
const MODERN_KEYS = new Set([
  'problem_format_version', 'type', 'name', 'uuid', 'version', 'credits', 'source', 'license', 'rights_owner',
  'embargo_until', 'limits', 'keywords', 'languages', 'allow_file_writing', 'constants',
  // tolerated from older drafts and legacy habits
  'validation', 'validator_flags', 'author', 'source_url', 'grading',
]);

/** The kind of problem problem.yaml declares. */
export interface ProblemKind {
  scoring: boolean;
  interactive: boolean;
  submitAnswer: boolean;
  /** The package asks for a custom validator (legacy `validation: custom`). */
  custom: boolean;
  /** The validator may ask for further passes (`type: multi-pass`, legacy `validation: custom multi-pass`). */
  multiPass: boolean;
}

/** What problem.yaml says, read and checked. */
export interface Manifest {
  format: ProblemFormat;
  /** problem_format_version as written (`legacy` when absent). */
  formatVersion: string;
  /** The name (English when it is a map of languages), '' when none. */
  name: string;
  kind: ProblemKind;
  /** problem.yaml's limits; a time limit from domjudge-problem.ini or `.timelimit` is the caller's to add (limits.ts). */
  limits: ProblemLimits;
  validatorFlags: string[];
  /** The languages allowed; undefined: all. */
  languages?: string[];
  allowFileWriting: boolean;
  /** `validation` as written, else the type(s) joined: for summaries. */
  validation?: string;
  /** Text of problem.yaml as parsed, for readers that need a key of their own. */
  raw: Mapping;
}

/** Reads problem.yaml's text; a fault is a PackageError naming the key. Warnings (unknown keys, tolerated forms) are pushed. */
export function readManifest(text: string, warnings: string[] = []): Manifest {
  const m = parseMapping(text, 'problem.yaml');
  const version = formatVersionOf(m.problem_format_version);
  checkKeys(m, version.format === 'legacy' ? LEGACY_KEYS : MODERN_KEYS, 'problem.yaml', warnings);
  const parsed = ProblemYaml.safeParse(m);
  if (!parsed.success) throw new PackageError(parsed.error.issues[0]!.message);
  const y = parsed.data;
  const kind = problemKind(y, version.format, warnings);
  const manifest: Manifest = {
    format: version.format,
    formatVersion: version.raw,
    name: readName(y.name) ?? '',
    kind,
    limits: readLimits(y.limits, kind.multiPass, warnings),
    validatorFlags: splitArgs(y.validator_flags, 'validator_flags in problem.yaml'),
    allowFileWriting: y.allow_file_writing === true,
    raw: m,
  };
  const languages = readLanguages(y.languages);
  if (languages) manifest.languages = languages;
  const validation = typeof y.validation === 'string' ? y.validation : typeof y.type === 'string' ? y.type : y.type?.join(' ');
  if (validation !== undefined) manifest.validation = validation;
  return manifest;
}

/** `legacy`/`legacy-icpc`/absent: legacy; `draft`, `2023-07`, `2023-07-draft`, `2025-09` and later dates: 2023-07. */
export function formatVersionOf(v: unknown): { format: ProblemFormat; raw: string } {
  if (v === undefined || v === null) return { format: 'legacy', raw: 'legacy' };
  const raw = String(v);
  if (raw === 'legacy' || raw === 'legacy-icpc') return { format: 'legacy', raw };
  if (raw === 'draft') return { format: '2023-07', raw };
  const dated = /^(\d{4})-(\d{2})(?:-draft)?$/.exec(raw);
  if (dated && `${dated[1]}-${dated[2]}` >= '2023-07') return { format: '2023-07', raw };
  throw new PackageError(`problem_format_version "${raw}" is not one this runner knows (legacy, legacy-icpc, 2023-07, 2025-09 or a later date)`);
}

/** `name` is a string, or a map of languages to names (2023-07) of which English is taken, else the first. */
export function readName(name: unknown): string | undefined {
  if (typeof name === 'string') return name;
  if (isMapping(name)) {
    if (typeof name.en === 'string') return name.en;
    const first = Object.values(name).find((v) => typeof v === 'string');
    return first as string | undefined;
  }
  return undefined;
}

function readTypes(type: ProblemYaml['type'], kind: ProblemKind): string[] {
  const types = typeof type === 'string' ? type.split(/\s+/).filter(Boolean) : (type ?? []);
  for (const t of types) {
    if (t === 'pass-fail') continue;
    else if (t === 'scoring') kind.scoring = true;
    else if (t === 'interactive') kind.interactive = true;
    else if (t === 'submit-answer') kind.submitAnswer = true;
    else if (t === 'multi-pass') kind.multiPass = true;
    else throw new PackageError(`type "${t}" in problem.yaml is not one of pass-fail, scoring, interactive, multi-pass, submit-answer`);
  }
  if (types.includes('pass-fail') && kind.scoring) throw new PackageError('type in problem.yaml cannot be both pass-fail and scoring');
  if (kind.submitAnswer && kind.interactive) throw new PackageError('type in problem.yaml cannot be both submit-answer and interactive');
  if (kind.submitAnswer && kind.multiPass) throw new PackageError('type in problem.yaml cannot be both submit-answer and multi-pass');
  return types;
}

function problemKind(y: ProblemYaml, format: ProblemFormat, warnings: string[]): ProblemKind {
  const kind: ProblemKind = { scoring: false, interactive: false, submitAnswer: false, custom: false, multiPass: false };
  const types = readTypes(y.type, kind);
  if (format === 'legacy' && (kind.interactive || kind.submitAnswer)) {
    warnings.push('problem.yaml: legacy packages say interactive in validation, not in type; taken as meant');
  }
  // validation: default | custom [score] [interactive] (legacy; tolerated in 2023-07 packages)
  if (y.validation !== undefined) {
    const [mode, ...rest] = y.validation.split(/\s+/).filter(Boolean);
    if (mode !== 'default' && mode !== 'custom') throw new PackageError(`validation in problem.yaml must begin with default or custom, not "${y.validation}"`);
    for (const w of rest) {
      if (w === 'interactive') kind.interactive = true;
      else if (w === 'score') {
        if (!kind.scoring && format === 'legacy' && types.length === 0) kind.scoring = true;
      } else if (w === 'multipass' || w === 'multi-pass') kind.multiPass = true;
      else throw new PackageError(`validation in problem.yaml: unknown word "${w}" (custom may be followed by score, interactive and multi-pass)`);
    }
    if (mode === 'default' && rest.length > 0) throw new PackageError(`validation in problem.yaml: "${rest.join(' ')}" needs validation: custom`);
    kind.custom = mode === 'custom';
    if (format !== 'legacy') warnings.push('problem.yaml: validation belongs to the legacy format; taken as meant');
  }
  return kind;
}

const orUndefined = (v: number | null | undefined) => (v === null ? undefined : v);

/** Passes a multi-pass problem allows when `limits.validation_passes` says nothing (the format's default). */
export const DEFAULT_VALIDATION_PASSES = 2;

function readLimits(l: ProblemYaml['limits'], multiPass: boolean, warnings: string[]): ProblemLimits {
  const limits: ProblemLimits = {
    timeMultiplier: orUndefined(l?.time_multiplier) ?? 5,
    timeSafetyMargin: orUndefined(l?.time_safety_margin) ?? 2,
    acToTimeLimit: l?.time_multipliers?.ac_to_time_limit ?? 2,
    timeLimitToTle: l?.time_multipliers?.time_limit_to_tle ?? 1.5,
    timeResolution: orUndefined(l?.time_resolution) ?? 1,
  };
  if (multiPass) limits.validationPasses = orUndefined(l?.validation_passes) ?? DEFAULT_VALIDATION_PASSES;
  else if (l?.validation_passes != null) warnings.push('problem.yaml: limits.validation_passes is for multi-pass problems; ignored');
  if (!l) return limits;
  limits.timeLimitSeconds = orUndefined(l.time_limit);
  if (limits.timeLimitSeconds !== undefined) limits.timeLimitSource = 'problem.yaml';
  limits.memoryMiB = orUndefined(l.memory);
  limits.outputMiB = orUndefined(l.output);
  limits.codeKiB = orUndefined(l.code);
  limits.compilationTimeSeconds = orUndefined(l.compilation_time);
  limits.compilationMemoryMiB = orUndefined(l.compilation_memory);
  limits.validationTimeSeconds = orUndefined(l.validation_time);
  limits.validationMemoryMiB = orUndefined(l.validation_memory);
  limits.validationOutputMiB = orUndefined(l.validation_output);
  return limits;
}

function readLanguages(v: ProblemYaml['languages']): string[] | undefined {
  if (v === undefined || v === null || v === 'all') return undefined;
  if (typeof v === 'string') return v.split(/[\s,]+/).filter(Boolean);
  return v.includes('all') ? undefined : v;
}
