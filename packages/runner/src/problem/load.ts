import type { Dirent } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { LANGUAGE_EXTENSIONS } from '@judge/contract';
import { parse as parseYaml } from 'yaml';
import { parseDefaultValidatorFlags } from './default-validator.js';
import { resolveModernMaxScores } from './scoring.js';
import {
  PackageError,
  type ExampleSubmission,
  type LegacyGrading,
  type ModernScoring,
  type ProblemFormat,
  type ProblemLimits,
  type ProblemSpec,
  type ProgramSource,
  type TestCase,
  type TestGroup,
  type TestItem,
  type Verdict,
  testsOf,
} from './types.js';

/**
 * Reads an extracted ICPC problem package (CONTRACT §13) into a ProblemSpec: problem.yaml in its
 * legacy and 2023-07 (through 2025-09) forms, the test data tree with its group settings, the
 * output validator, include/ and the example submissions. A package the runner cannot judge is a
 * PackageError naming the file and the fault.
 */
export async function loadProblem(dir: string): Promise<ProblemSpec> {
  const warnings: string[] = [];
  const manifest = await readManifest(dir);
  const version = formatVersionOf(manifest.problem_format_version);
  const format: ProblemFormat = version.format;
  checkKeys(manifest, format === 'legacy' ? LEGACY_KEYS : MODERN_KEYS, 'problem.yaml', warnings);

  const kind = problemKind(manifest, format, warnings);
  const limits = await readLimits(dir, manifest);
  const validatorFlags = splitArgs(manifest.validator_flags, 'validator_flags in problem.yaml');
  const customValidator = await findValidator(dir, format, kind.custom, warnings);
  if (kind.interactive && !customValidator) {
    throw new PackageError('the problem is interactive but the package has no output validator (output_validators/ or output_validator/) to interact with');
  }
  if (kind.custom && !customValidator) {
    throw new PackageError('problem.yaml asks for a custom output validator (validation: custom) but output_validators/ holds none');
  }

  const data = await readTestData(dir, format, kind.scoring, validatorFlags, warnings);
  if (!customValidator) {
    // the default validator judges: its flags must make sense for every test case
    const seen = new Set<string>();
    for (const test of testsOf(data)) {
      const key = test.validatorArgs.join('\0');
      if (seen.has(key)) continue;
      seen.add(key);
      try {
        parseDefaultValidatorFlags(test.validatorArgs);
      } catch (e) {
        throw new PackageError(`${test.name}: ${(e as Error).message}`);
      }
    }
  }

  return {
    dir,
    format,
    formatVersion: version.raw,
    name: readName(manifest.name) ?? '',
    scoring: kind.scoring,
    interactive: kind.interactive,
    submitAnswer: kind.submitAnswer,
    customValidator,
    validatorFlags,
    limits,
    languages: readLanguages(manifest.languages),
    allowFileWriting: manifest.allow_file_writing === true,
    include: await readIncludes(dir),
    data,
    submissions: await readSubmissions(dir, format, warnings),
    warnings,
  };
}

// ---- problem.yaml ----

type Mapping = Record<string, unknown>;

const isMapping = (v: unknown): v is Mapping => typeof v === 'object' && v !== null && !Array.isArray(v);

async function readManifest(dir: string): Promise<Mapping> {
  const text = await readOptional(join(dir, 'problem.yaml'));
  if (text === undefined) throw new PackageError('problem.yaml is missing');
  return parseMapping(text, 'problem.yaml');
}

function parseMapping(text: string, file: string): Mapping {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    const first = (e instanceof Error ? e.message : String(e)).split('\n')[0]!.replace(/:$/, '');
    throw new PackageError(`${file} does not parse: ${first}`);
  }
  if (doc === null || doc === undefined) return {};
  if (!isMapping(doc)) throw new PackageError(`${file} must be a YAML mapping`);
  return doc;
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw e;
  }
}

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

function checkKeys(m: Mapping, known: Set<string>, file: string, warnings: string[]): void {
  const unknown = Object.keys(m).filter((k) => !known.has(k));
  if (unknown.length > 0) warnings.push(`${file}: unknown keys ignored: ${unknown.join(', ')}`);
}

/** `legacy`/`legacy-icpc`/absent: legacy; `draft`, `2023-07`, `2023-07-draft`, `2025-09` and later dates: 2023-07. */
function formatVersionOf(v: unknown): { format: ProblemFormat; raw: string } {
  if (v === undefined || v === null) return { format: 'legacy', raw: 'legacy' };
  const raw = String(v);
  if (raw === 'legacy' || raw === 'legacy-icpc') return { format: 'legacy', raw };
  if (raw === 'draft') return { format: '2023-07', raw };
  const dated = /^(\d{4})-(\d{2})(?:-draft)?$/.exec(raw);
  if (dated && `${dated[1]}-${dated[2]}` >= '2023-07') return { format: '2023-07', raw };
  throw new PackageError(`problem_format_version "${raw}" is not one this runner knows (legacy, legacy-icpc, 2023-07, 2025-09 or a later date)`);
}

function readName(name: unknown): string | undefined {
  if (typeof name === 'string') return name;
  if (isMapping(name)) {
    if (typeof name.en === 'string') return name.en;
    const first = Object.values(name).find((v) => typeof v === 'string');
    return first as string | undefined;
  }
  return undefined;
}

interface Kind {
  scoring: boolean;
  interactive: boolean;
  submitAnswer: boolean;
  /** The package asks for a custom validator (legacy `validation: custom`). */
  custom: boolean;
}

function problemKind(m: Mapping, format: ProblemFormat, warnings: string[]): Kind {
  const kind: Kind = { scoring: false, interactive: false, submitAnswer: false, custom: false };
  // type: a string or (2023-07) a list
  const types: string[] = [];
  if (typeof m.type === 'string') types.push(...m.type.split(/\s+/).filter(Boolean));
  else if (Array.isArray(m.type) && m.type.every((t) => typeof t === 'string')) types.push(...(m.type as string[]));
  else if (m.type !== undefined) throw new PackageError('type in problem.yaml must be a string or a list of strings');
  for (const t of types) {
    switch (t) {
      case 'pass-fail':
        break;
      case 'scoring':
        kind.scoring = true;
        break;
      case 'interactive':
        kind.interactive = true;
        break;
      case 'submit-answer':
        kind.submitAnswer = true;
        break;
      case 'multi-pass':
        throw new PackageError('multi-pass problems are not supported by this runner');
      default:
        throw new PackageError(`type "${t}" in problem.yaml is not one of pass-fail, scoring, interactive, multi-pass, submit-answer`);
    }
  }
  if (types.includes('pass-fail') && kind.scoring) throw new PackageError('type in problem.yaml cannot be both pass-fail and scoring');
  if (kind.submitAnswer && kind.interactive) throw new PackageError('type in problem.yaml cannot be both submit-answer and interactive');
  if (format === 'legacy' && (kind.interactive || kind.submitAnswer)) {
    warnings.push('problem.yaml: legacy packages say interactive in validation, not in type; taken as meant');
  }
  // validation: default | custom [score] [interactive] (legacy; tolerated in 2023-07 packages)
  if (m.validation !== undefined) {
    if (typeof m.validation !== 'string') throw new PackageError('validation in problem.yaml must be a string such as "default" or "custom interactive"');
    const words = m.validation.split(/\s+/).filter(Boolean);
    const [mode, ...rest] = words;
    if (mode !== 'default' && mode !== 'custom') throw new PackageError(`validation in problem.yaml must begin with default or custom, not "${m.validation}"`);
    for (const w of rest) {
      if (w === 'interactive') kind.interactive = true;
      else if (w === 'score') {
        if (!kind.scoring && format === 'legacy' && types.length === 0) kind.scoring = true;
      } else if (w === 'multipass' || w === 'multi-pass') throw new PackageError('multi-pass problems are not supported by this runner');
      else throw new PackageError(`validation in problem.yaml: unknown word "${w}" (custom may be followed by score and interactive)`);
    }
    if (mode === 'default' && rest.length > 0) throw new PackageError(`validation in problem.yaml: "${rest.join(' ')}" needs validation: custom`);
    kind.custom = mode === 'custom';
    if (format !== 'legacy') warnings.push('problem.yaml: validation belongs to the legacy format; taken as meant');
  }
  return kind;
}

const positive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

async function readLimits(dir: string, m: Mapping): Promise<ProblemLimits> {
  const limits: ProblemLimits = { timeMultiplier: 5, timeSafetyMargin: 2, acToTimeLimit: 2, timeLimitToTle: 1.5, timeResolution: 1 };
  const raw = m.limits;
  if (raw !== undefined && raw !== null && !isMapping(raw)) throw new PackageError('limits in problem.yaml must be a mapping');
  const l: Mapping = raw ?? {};
  const num = (key: string, unit: string): number | undefined => {
    const v = l[key];
    if (v === undefined || v === null) return undefined;
    if (!positive(v)) throw new PackageError(`limits.${key} in problem.yaml must be a positive number (${unit})`);
    return v;
  };
  limits.timeLimitSeconds = num('time_limit', 'seconds');
  if (limits.timeLimitSeconds !== undefined) limits.timeLimitSource = 'problem.yaml';
  limits.memoryMiB = num('memory', 'MiB');
  limits.outputMiB = num('output', 'MiB');
  limits.codeKiB = num('code', 'KiB');
  limits.compilationTimeSeconds = num('compilation_time', 'seconds');
  limits.compilationMemoryMiB = num('compilation_memory', 'MiB');
  limits.validationTimeSeconds = num('validation_time', 'seconds');
  limits.validationMemoryMiB = num('validation_memory', 'MiB');
  limits.validationOutputMiB = num('validation_output', 'MiB');
  limits.timeMultiplier = num('time_multiplier', 'a factor') ?? limits.timeMultiplier;
  limits.timeSafetyMargin = num('time_safety_margin', 'a factor') ?? limits.timeSafetyMargin;
  limits.timeResolution = num('time_resolution', 'seconds') ?? limits.timeResolution;
  if (l.time_multipliers !== undefined) {
    if (!isMapping(l.time_multipliers)) throw new PackageError('limits.time_multipliers in problem.yaml must be a mapping');
    const tm = l.time_multipliers;
    for (const key of ['ac_to_time_limit', 'time_limit_to_tle'] as const) {
      const v = tm[key];
      if (v === undefined) continue;
      if (typeof v !== 'number' || !(v >= 1)) throw new PackageError(`limits.time_multipliers.${key} in problem.yaml must be a number of at least 1`);
      if (key === 'ac_to_time_limit') limits.acToTimeLimit = v;
      else limits.timeLimitToTle = v;
    }
  }
  if (l.validation_passes !== undefined) throw new PackageError('limits.validation_passes is for multi-pass problems, which this runner does not support');
  if (limits.timeLimitSeconds === undefined) {
    const text = await readOptional(join(dir, '.timelimit'));
    if (text !== undefined) {
      const t = text.trim();
      const seconds = /^\d+(\.\d+)?$/.test(t) ? Number(t) : NaN;
      if (!positive(seconds)) throw new PackageError('the .timelimit file must hold a positive number of seconds');
      limits.timeLimitSeconds = seconds;
      limits.timeLimitSource = '.timelimit';
    }
  }
  return limits;
}

/** Arguments given as a string (split at whitespace) or a list of strings. */
function splitArgs(v: unknown, where: string): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return v.split(/\s+/).filter(Boolean);
  if (typeof v === 'number') return [String(v)];
  if (Array.isArray(v) && v.every((a) => typeof a === 'string' || typeof a === 'number')) return v.map(String);
  throw new PackageError(`${where} must be a string or a list of strings`);
}

function readLanguages(v: unknown): string[] | undefined {
  if (v === undefined || v === null || v === 'all') return undefined;
  if (typeof v === 'string') return v.split(/[\s,]+/).filter(Boolean);
  if (Array.isArray(v) && v.every((l) => typeof l === 'string')) return v.includes('all') ? undefined : (v as string[]);
  throw new PackageError('languages in problem.yaml must be "all" or a list of language codes');
}

// ---- file listing ----

/** Files and directories the format counts: names starting with a dot or a dash are ignored (2025-09). */
async function entries(dir: string): Promise<Dirent[]> {
  try {
    const list = await readdir(dir, { withFileTypes: true });
    return list.filter((e) => !e.name.startsWith('.') && !e.name.startsWith('-')).sort((a, b) => compareNames(a.name, b.name));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw e;
  }
}

/** Lexicographic by code unit: package names are ASCII, so this is byte order. */
const compareNames = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** Every regular file below `dir`, relative to it. */
async function filesBelow(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await entries(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await filesBelow(dir, rel)));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

// ---- test data ----

interface GroupDefaults {
  /** The legacy testdata.yaml in force (closest ancestor's, whole). */
  legacy?: LegacyGrading & { validatorFlags: string[]; source: string };
  /** 2023-07 inherited keys. */
  args: string[];
  validatorArgs: string[];
  fullFeedback: boolean;
}

async function readTestData(dir: string, format: ProblemFormat, scoring: boolean, problemFlags: string[], warnings: string[]): Promise<TestGroup> {
  const dataDir = join(dir, 'data');
  if (!(await isDir(dataDir))) throw new PackageError('data/ is missing');
  const declared = new Map<string, number | null>();
  const ctx: DataCtx = { dataDir, format, scoring, problemFlags, warnings, declared };
  const rootDefaults: GroupDefaults = { args: [], validatorArgs: [], fullFeedback: false };
  const root = await readGroup(ctx, '', rootDefaults);
  // only sample and secret are judged; the rest of data/ (invalid_input, ...) serves validators
  root.items = root.items.filter((item) => {
    if (item.kind === 'group' && (item.group.name === 'sample' || item.group.name === 'secret')) return true;
    if (item.kind === 'test') warnings.push(`data/${item.test.name}.in lies outside data/sample and data/secret and is not judged`);
    return false;
  });
  const secret = root.items.find((i) => i.kind === 'group' && i.group.name === 'secret');
  const tests = testsOf(root);
  if (tests.length === 0) throw new PackageError('data/ holds no tests: no .in files under data/sample or data/secret');
  if (format === '2023-07') {
    if (!secret || secret.kind !== 'group') throw new PackageError('data/secret/ is missing');
    if (scoring) resolveModernMaxScores(secret.group, declared);
    else {
      for (const [name] of declared) {
        warnings.push(`data/${name}: max_score, score_aggregation and require_pass are for scoring problems; ignored in this pass-fail one`);
      }
    }
  }
  return root;
}

interface DataCtx {
  dataDir: string;
  format: ProblemFormat;
  scoring: boolean;
  problemFlags: string[];
  warnings: string[];
  /** 2023-07: declared max_score by group name (null = unbounded). */
  declared: Map<string, number | null>;
}

async function readGroup(ctx: DataCtx, name: string, inherited: GroupDefaults): Promise<TestGroup> {
  const path = name ? join(ctx.dataDir, name) : ctx.dataDir;
  const label = name ? `data/${name}` : 'data';
  const top = name.split('/')[0] ?? '';
  const isSample = top === 'sample';
  const list = await entries(path);
  const names = new Set(list.map((e) => e.name));

  let defaults: GroupDefaults = { ...inherited };
  let grading: LegacyGrading | ModernScoring;
  if (ctx.format === 'legacy') {
    const text = await readOptional(join(path, 'testdata.yaml'));
    if (text !== undefined) {
      defaults.legacy = readLegacyTestdata(parseMapping(text, `${label}/testdata.yaml`), `${label}/testdata.yaml`, ctx.warnings);
    } else if (!defaults.legacy) {
      defaults.legacy = { ...LEGACY_DEFAULTS, validatorFlags: [], source: 'defaults' };
    }
    const { validatorFlags: _f, source: _s, ...legacyGrading } = defaults.legacy!;
    grading = legacyGrading;
  } else {
    const files = ['test_group.yaml', 'testdata.yaml'].filter((f) => names.has(f));
    if (files.length > 1) throw new PackageError(`${label} holds both test_group.yaml and testdata.yaml; keep one`);
    const file = files[0];
    const m = file ? parseMapping((await readOptional(join(path, file)))!, `${label}/${file}`) : {};
    const read = readModernGroup(m, `${label}/${file ?? 'test_group.yaml'}`, name, ctx, isSample);
    grading = read.scoring;
    if (read.args) defaults.args = read.args;
    if (read.validatorArgs) defaults.validatorArgs = read.validatorArgs;
    if (read.fullFeedback !== undefined) defaults.fullFeedback = read.fullFeedback;
    else if (name === 'sample') defaults.fullFeedback = true;
    else if (name === 'secret') defaults.fullFeedback = false;
  }

  const items: TestItem[] = [];
  const testNames = new Set<string>();
  for (const e of list) {
    if (e.isFile() && e.name.endsWith('.in')) {
      const base = e.name.slice(0, -3);
      testNames.add(base);
      if (!name) {
        items.push({ kind: 'test', test: { name: base, group: '', input: join(path, e.name), answer: '', args: [], validatorArgs: [], fullFeedback: false } });
        continue;
      }
      items.push({ kind: 'test', test: await readTest(ctx, path, name, base, names, defaults) });
    }
  }
  for (const e of list) {
    if (!e.isDirectory()) continue;
    if (e.name.endsWith('.files')) {
      if (testNames.has(e.name.slice(0, -6))) continue;
    }
    if (testNames.has(e.name)) throw new PackageError(`${label}/${e.name}/ has the same name as the test case ${label}/${e.name}.in`);
    const childName = name ? `${name}/${e.name}` : e.name;
    if (!name && e.name !== 'sample' && e.name !== 'secret') {
      items.push({ kind: 'group', group: { name: childName, items: [], grading } });
      continue;
    }
    if (isSample && ctx.format === '2023-07' && name) {
      throw new PackageError(`${label}/${e.name}/: data/sample must not hold test data groups`);
    }
    items.push({ kind: 'group', group: await readGroup(ctx, childName, defaults) });
  }
  items.sort((a, b) => compareNames(baseOf(a), baseOf(b)));
  if (ctx.format === '2023-07' && name === 'secret' && items.some((i) => i.kind === 'test') && items.some((i) => i.kind === 'group')) {
    ctx.warnings.push('data/secret holds both test cases and test data groups; the 2025-09 format allows only one kind');
  }
  return { name, items, grading };
}

const baseOf = (item: TestItem) => {
  const n = item.kind === 'test' ? item.test.name : item.group.name;
  return n.slice(n.lastIndexOf('/') + 1);
};

async function readTest(ctx: DataCtx, path: string, group: string, base: string, names: Set<string>, defaults: GroupDefaults): Promise<TestCase> {
  const name = `${group}/${base}`;
  if (!names.has(`${base}.ans`)) throw new PackageError(`data/${name}.ans is missing (every .in needs its .ans)`);
  const test: TestCase = {
    name,
    group,
    input: join(path, `${base}.in`),
    answer: join(path, `${base}.ans`),
    args: [],
    validatorArgs: [],
    fullFeedback: defaults.fullFeedback,
  };
  if (ctx.format === 'legacy') {
    const legacy = defaults.legacy!;
    test.validatorArgs = [...ctx.problemFlags, ...legacy.validatorFlags];
    test.fullFeedback = group.split('/')[0] === 'sample';
    const hint = names.has(`${base}.hint`) ? await readOptional(join(path, `${base}.hint`)) : undefined;
    const desc = names.has(`${base}.desc`) ? await readOptional(join(path, `${base}.desc`)) : undefined;
    if (hint?.trim()) test.hint = hint.trim();
    if (desc?.trim()) test.description = desc.trim();
    return test;
  }
  test.args = [...defaults.args];
  test.validatorArgs = [...ctx.problemFlags, ...defaults.validatorArgs];
  if (names.has(`${base}.yaml`)) {
    const file = `data/${name}.yaml`;
    const m = parseMapping((await readOptional(join(path, `${base}.yaml`)))!, file);
    const known = new Set(['args', 'output_validator_args', 'input_validator_args', 'input_visualizer_args', 'output_visualizer_args', 'full_feedback', 'hint', 'description']);
    checkKeys(m, known, file, ctx.warnings);
    if (m.args !== undefined) test.args = splitArgs(m.args, `args in ${file}`);
    if (m.output_validator_args !== undefined) test.validatorArgs = [...ctx.problemFlags, ...splitArgs(m.output_validator_args, `output_validator_args in ${file}`)];
    if (m.full_feedback !== undefined) {
      if (typeof m.full_feedback !== 'boolean') throw new PackageError(`full_feedback in ${file} must be true or false`);
      test.fullFeedback = m.full_feedback;
    }
    if (typeof m.hint === 'string') test.hint = m.hint;
    if (typeof m.description === 'string') test.description = m.description;
  }
  if (names.has(`${base}.files`) && (await isDir(join(path, `${base}.files`)))) test.filesDir = join(path, `${base}.files`);
  return test;
}

const LEGACY_DEFAULTS: LegacyGrading = {
  kind: 'legacy',
  onReject: 'break',
  verdictMode: 'worst_error',
  scoreMode: 'sum',
  ignoreSample: false,
  acceptIfAnyAccepted: false,
  acceptScore: 1,
  rejectScore: 0,
  range: [-Infinity, Infinity],
};

function number(v: unknown, what: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw new PackageError(`${what} must be a number`);
  return n;
}

function bound(s: string, what: string): number {
  if (s === 'inf' || s === '+inf') return Infinity;
  if (s === '-inf') return -Infinity;
  return number(s, what);
}

function readLegacyTestdata(m: Mapping, file: string, warnings: string[]): LegacyGrading & { validatorFlags: string[]; source: string } {
  const known = new Set(['on_reject', 'grading', 'grader_flags', 'input_validator_flags', 'output_validator_flags', 'accept_score', 'reject_score', 'range', 'output_validator_args', 'input_validator_args']);
  checkKeys(m, known, file, warnings);
  const g: LegacyGrading & { validatorFlags: string[]; source: string } = { ...LEGACY_DEFAULTS, validatorFlags: [], source: file };
  if (m.on_reject !== undefined) {
    if (m.on_reject !== 'break' && m.on_reject !== 'continue') throw new PackageError(`on_reject in ${file} must be break or continue`);
    g.onReject = m.on_reject;
  }
  if (m.grading !== undefined && m.grading !== 'default') {
    if (m.grading === 'custom') throw new PackageError(`${file} asks for a custom grader (grading: custom); this runner supports the default grader only`);
    throw new PackageError(`grading in ${file} must be default or custom`);
  }
  for (const flag of splitArgs(m.grader_flags, `grader_flags in ${file}`)) {
    switch (flag) {
      case 'worst_error':
      case 'no_errors':
        g.verdictMode = 'worst_error';
        break;
      case 'first_error':
      case 'always_accept':
        g.verdictMode = flag;
        break;
      case 'sum':
      case 'avg':
      case 'min':
      case 'max':
        g.scoreMode = flag;
        break;
      case 'ignore_sample':
        g.ignoreSample = true;
        break;
      case 'accept_if_any_accepted':
        g.acceptIfAnyAccepted = true;
        break;
      default:
        warnings.push(`${file}: unknown grader flag "${flag}" ignored`);
    }
  }
  if (m.output_validator_flags !== undefined) {
    if (isMapping(m.output_validator_flags)) g.validatorFlags = splitArgs(m.output_validator_flags.flags, `output_validator_flags.flags in ${file}`);
    else g.validatorFlags = splitArgs(m.output_validator_flags, `output_validator_flags in ${file}`);
  } else if (m.output_validator_args !== undefined) {
    g.validatorFlags = splitArgs(m.output_validator_args, `output_validator_args in ${file}`);
  }
  if (m.accept_score !== undefined) g.acceptScore = number(m.accept_score, `accept_score in ${file}`);
  if (m.reject_score !== undefined) g.rejectScore = number(m.reject_score, `reject_score in ${file}`);
  if (m.range !== undefined) {
    const parts = Array.isArray(m.range) ? m.range.map(String) : String(m.range).trim().split(/\s+/);
    if (parts.length !== 2) throw new PackageError(`range in ${file} must be two numbers, such as "0 100" or "-inf +inf"`);
    g.range = [bound(parts[0]!, `range in ${file}`), bound(parts[1]!, `range in ${file}`)];
    if (g.range[0] > g.range[1]) throw new PackageError(`range in ${file} starts above its end`);
  }
  return g;
}

function readModernGroup(
  m: Mapping,
  file: string,
  name: string,
  ctx: DataCtx,
  isSample: boolean,
): { scoring: ModernScoring; args?: string[]; validatorArgs?: string[]; fullFeedback?: boolean } {
  const known = new Set([
    'max_score', 'score_aggregation', 'require_pass', 'scoring', 'args', 'output_validator_args', 'input_validator_args',
    'input_visualizer_args', 'output_visualizer_args', 'static_validator_args', 'full_feedback', 'hint', 'description',
    'static_validation_score', 'static_validation', 'output_validator_flags', 'input_validator_flags',
  ]);
  checkKeys(m, known, file, ctx.warnings);
  if (m.static_validation_score !== undefined || (m.static_validation !== undefined && m.static_validation !== false)) {
    throw new PackageError(`${file} defines a static validation test case; static validators are not supported by this runner`);
  }
  // 2025-09 keys, or the 2023-07 draft's `scoring: {score, aggregation, require_pass}`
  const nested = isMapping(m.scoring) ? m.scoring : {};
  if (m.scoring !== undefined && !isMapping(m.scoring)) throw new PackageError(`scoring in ${file} must be a mapping`);
  const maxRaw = m.max_score ?? nested.score;
  const aggRaw = m.score_aggregation ?? nested.aggregation;
  const reqRaw = m.require_pass ?? nested.require_pass;
  const isSecret = name === 'secret';
  const inSecret = name === 'secret' || name.startsWith('secret/');
  if ((maxRaw !== undefined || aggRaw !== undefined || reqRaw !== undefined) && !inSecret) {
    throw new PackageError(`${file}: max_score, score_aggregation and require_pass belong to data/secret and its groups`);
  }
  let aggregation: ModernScoring['aggregation'] = isSecret ? 'sum' : 'pass-fail';
  if (!ctx.scoring || isSample || !inSecret) aggregation = 'pass-fail';
  if (aggRaw !== undefined) {
    if (aggRaw !== 'pass-fail' && aggRaw !== 'sum' && aggRaw !== 'min') throw new PackageError(`score_aggregation in ${file} must be pass-fail, sum or min`);
    aggregation = aggRaw;
  }
  if (maxRaw !== undefined) {
    if (maxRaw === 'unbounded') ctx.declared.set(name, null);
    else {
      const n = number(maxRaw, `max_score in ${file}`);
      if (n < 0) throw new PackageError(`max_score in ${file} must not be negative`);
      ctx.declared.set(name, n);
    }
  } else if (!ctx.scoring && (aggRaw !== undefined || reqRaw !== undefined)) {
    ctx.declared.set(name, 0); // only to warn: scoring keys in a pass-fail problem
  }
  const requirePass = reqRaw === undefined ? [] : splitArgs(reqRaw, `require_pass in ${file}`);
  for (const req of requirePass) {
    if (compareNames(req, name) >= 0) throw new PackageError(`require_pass in ${file}: ${req} must come before ${name}`);
  }
  const out: { scoring: ModernScoring; args?: string[]; validatorArgs?: string[]; fullFeedback?: boolean } = {
    scoring: { kind: 'modern', aggregation, maxScore: 0, requirePass },
  };
  if (m.args !== undefined) out.args = splitArgs(m.args, `args in ${file}`);
  const va = m.output_validator_args ?? m.output_validator_flags;
  if (va !== undefined) out.validatorArgs = splitArgs(va, `output_validator_args in ${file}`);
  if (m.full_feedback !== undefined) {
    if (typeof m.full_feedback !== 'boolean') throw new PackageError(`full_feedback in ${file} must be true or false`);
    out.fullFeedback = m.full_feedback;
  }
  return out;
}

// ---- programs ----

const C_EXT = /\.c$/;
const CPP_EXT = /\.(cc|cpp|cxx|c\+\+|C)$/;
const HEADER = /\.(h|hh|hpp|hxx|h\+\+|inc)$/;
const DOC = /(^|\/)(README|LICENSE|COPYING)(\.[a-z]+)?$|\.(md|txt|pdf)$/i;

/** The language of a program directory: build/run scripts, else C/C++, Python, or what the extensions say. */
export function programLanguage(files: string[]): string | undefined {
  const top = files.filter((f) => !f.includes('/'));
  if (top.includes('build') || top.includes('run')) return 'build-run';
  if (files.some((f) => CPP_EXT.test(f))) return 'cpp';
  if (files.some((f) => C_EXT.test(f))) return 'c';
  if (top.includes('__main__.py') || files.some((f) => f.endsWith('.py'))) return 'python3';
  const langs = new Set(files.flatMap((f) => (HEADER.test(f) || DOC.test(f) ? [] : [extensionLanguage(f)])).filter((l): l is string => !!l));
  return langs.size === 1 ? [...langs][0] : undefined;
}

const extensionLanguage = (file: string): string | undefined => {
  const ext = /\.([^./]+)$/.exec(file)?.[1];
  return ext ? (LANGUAGE_EXTENSIONS[ext] ?? LANGUAGE_EXTENSIONS[ext.toLowerCase()]) : undefined;
};

async function findValidator(dir: string, format: ProblemFormat, requested: boolean, warnings: string[]): Promise<ProgramSource | undefined> {
  const candidates = format === 'legacy' ? ['output_validators', 'output_validator'] : ['output_validator', 'output_validators'];
  let found: string | undefined;
  for (const c of candidates) {
    if (await isDir(join(dir, c))) {
      found = c;
      break;
    }
  }
  if (!found) return undefined;
  if (format === 'legacy' && !requested) {
    warnings.push(`${found}/ is present but problem.yaml says validation: default; the default validator judges`);
    return undefined;
  }
  const root = join(dir, found);
  const list = await entries(root);
  const subdirs = list.filter((e) => e.isDirectory());
  const programFiles = list.filter((e) => e.isFile() && !HEADER.test(e.name) && !DOC.test(e.name));
  let programDir = root;
  if (subdirs.length === 1 && programFiles.length === 0) programDir = join(root, subdirs[0]!.name);
  else if (subdirs.length > 1 || (subdirs.length === 1 && programFiles.length > 0)) {
    throw new PackageError(`${found}/ holds several programs (${list.map((e) => e.name).join(', ')}); this runner runs exactly one output validator`);
  }
  const files = await filesBelow(programDir);
  if (files.length === 0) throw new PackageError(`${found}/ is empty`);
  const language = programLanguage(files);
  if (!language) throw new PackageError(`cannot tell the language of the output validator in ${found}/ (give build and run scripts, or C, C++ or Python sources)`);
  return { dir: programDir, files, language };
}

async function readIncludes(dir: string): Promise<ProblemSpec['include']> {
  const include: ProblemSpec['include'] = { byLanguage: {} };
  for (const e of await entries(join(dir, 'include'))) {
    if (!e.isDirectory()) continue;
    const path = join(dir, 'include', e.name);
    if (e.name === 'default') include.default = path;
    else include.byLanguage[e.name] = path;
  }
  return include;
}

// ---- example submissions ----

const VERDICTS = new Set<string>(['AC', 'WA', 'TLE', 'RTE', 'MLE', 'OLE']);

async function readSubmissions(dir: string, format: ProblemFormat, warnings: string[]): Promise<ExampleSubmission[]> {
  const root = join(dir, 'submissions');
  const rules = format === '2023-07' ? await readSubmissionRules(root, warnings) : [];
  const out: ExampleSubmission[] = [];
  for (const group of await entries(root)) {
    if (!group.isDirectory()) continue;
    for (const e of await entries(join(root, group.name))) {
      const path = `${group.name}/${e.name}`;
      let sub: ExampleSubmission;
      if (e.isDirectory()) {
        const files = await filesBelow(join(root, path));
        if (files.length === 0) continue;
        sub = { expected: group.name, path, dir: join(root, path), files };
        const lang = programLanguage(files);
        if (lang && lang !== 'build-run') sub.language = lang;
      } else if (e.isFile()) {
        if (DOC.test(e.name)) continue;
        sub = { expected: group.name, path, dir: join(root, group.name), files: [e.name] };
        const lang = extensionLanguage(e.name);
        if (lang) sub.language = lang;
      } else continue;
      for (const rule of rules) {
        if (!rule.pattern.test(path) && !rule.pattern.test(group.name)) continue;
        if (rule.language) sub.language = rule.language;
        if (rule.permitted) sub.permitted = rule.permitted;
        if (rule.required) sub.required = rule.required;
        if (rule.score) sub.score = rule.score;
      }
      out.push(sub);
    }
  }
  return out;
}

interface SubmissionRule {
  pattern: RegExp;
  language?: string;
  permitted?: Verdict[];
  required?: Verdict[];
  score?: [number, number];
}

async function readSubmissionRules(root: string, warnings: string[]): Promise<SubmissionRule[]> {
  const text = await readOptional(join(root, 'submissions.yaml'));
  if (text === undefined) return [];
  const m = parseMapping(text, 'submissions/submissions.yaml');
  const rules: SubmissionRule[] = [];
  const verdicts = (v: unknown, what: string): Verdict[] => {
    const list = splitArgs(v, what);
    for (const x of list) if (!VERDICTS.has(x)) throw new PackageError(`${what}: "${x}" is not one of AC, WA, TLE, RTE`);
    return list as Verdict[];
  };
  for (const [glob, value] of Object.entries(m)) {
    if (!isMapping(value)) throw new PackageError(`submissions/submissions.yaml: ${glob} must map to a mapping`);
    const rule: SubmissionRule = { pattern: globToRegExp(glob) };
    const where = `submissions/submissions.yaml: ${glob}`;
    for (const [key, v] of Object.entries(value)) {
      switch (key) {
        case 'language':
          if (typeof v === 'string') rule.language = v;
          break;
        case 'permitted':
          rule.permitted = verdicts(v, `${where}.permitted`);
          break;
        case 'required':
          rule.required = verdicts(v, `${where}.required`);
          break;
        case 'score':
          if (Array.isArray(v) && v.length === 2) rule.score = [number(v[0], `${where}.score`), number(v[1], `${where}.score`)];
          else {
            const n = number(v, `${where}.score`);
            rule.score = [n, n];
          }
          break;
        case 'entrypoint':
        case 'authors':
        case 'model_solution':
        case 'message':
        case 'use_for_time_limit':
          break;
        default:
          if (isMapping(v)) warnings.push(`${where}: constraints on the test data group ${key} are not checked`);
          else warnings.push(`${where}: unknown key ${key} ignored`);
      }
    }
    rules.push(rule);
  }
  return rules;
}

/** `*` within one path segment, `{a,b}` alternatives; the whole path must match, or a parent directory of it. */
function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') re += '[^/]*';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) {
        re += '\\{';
        continue;
      }
      re += `(?:${glob.slice(i + 1, end).split(',').map(escapeRe).join('|')})`;
      i = end;
    } else re += escapeRe(c);
  }
  return new RegExp(`^${re}(?:/.*)?$`);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
