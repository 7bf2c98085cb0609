import { z } from 'zod';
import { PackageError } from './errors.js';
import type { LegacyGrading, ModernScoring } from './types.js';
import { bound, checkKeys, compareNames, isMapping, number, splitArgs, type Mapping } from './yaml.js';

/**
 * testdata.yaml and test_group.yaml: a legacy group's grading (inherited whole by its subgroups) and
 * a 2023-07 group's scoring and arguments. The runner walks data/ and reads each file with these.
 */

const argsOf = (where: string) =>
  z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))], { error: `${where} must be a string or a list of strings` }).nullish();

/** A legacy testdata.yaml (`file` names it in messages): what the keys the default grader reads may hold. */
export const legacyTestdataYaml = (file: string) =>
  z.looseObject({
    on_reject: z.enum(['break', 'continue'], { error: `on_reject in ${file} must be break or continue` }).optional(),
    grading: z.enum(['default', 'custom'], { error: `grading in ${file} must be default or custom` }).optional(),
    grader_flags: argsOf(`grader_flags in ${file}`),
    output_validator_args: argsOf(`output_validator_args in ${file}`),
  });

/** A 2023-07 test_group.yaml (or testdata.yaml): what its keys may hold; where they may appear is checked as it is read. */
export const testGroupYaml = (file: string) =>
  z.looseObject({
    scoring: z.looseObject({}, { error: `scoring in ${file} must be a mapping` }).optional(),
    score_aggregation: z.enum(['pass-fail', 'sum', 'min'], { error: `score_aggregation in ${file} must be pass-fail, sum or min` }).optional(),
    args: argsOf(`args in ${file}`),
    full_feedback: z.boolean({ error: `full_feedback in ${file} must be true or false` }).optional(),
  });

/** The mapping checked by a schema; the first fault is a PackageError. */
function shaped<T>(schema: z.ZodType<T>, m: Mapping): T {
  const parsed = schema.safeParse(m);
  if (!parsed.success) throw new PackageError(parsed.error.issues[0]!.message);
  return parsed.data;
}

/** A legacy testdata.yaml in force: the grading, the validator flags and where it came from. */
export type LegacyTestdata = LegacyGrading & { validatorFlags: string[]; source: string };

/** What reading a 2023-07 group needs from the walk of data/. */
export interface GroupContext {
  scoring: boolean;
  warnings: string[];
  /** Declared max_score by group name (null = unbounded), filled as groups are read. */
  declared: Map<string, number | null>;
}

/** A 2023-07 group's settings. */
export interface ModernGroup {
  scoring: ModernScoring;
  args?: string[];
  validatorArgs?: string[];
  fullFeedback?: boolean;
}

export const LEGACY_DEFAULTS: LegacyGrading = {
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

export function readLegacyTestdata(m: Mapping, file: string, warnings: string[]): LegacyTestdata {
  const known = new Set(['on_reject', 'grading', 'grader_flags', 'input_validator_flags', 'output_validator_flags', 'accept_score', 'reject_score', 'range', 'output_validator_args', 'input_validator_args']);
  checkKeys(m, known, file, warnings);
  const y = shaped(legacyTestdataYaml(file), m);
  const g: LegacyTestdata = { ...LEGACY_DEFAULTS, validatorFlags: [], source: file };
  if (y.on_reject !== undefined) g.onReject = y.on_reject;
  if (y.grading === 'custom') throw new PackageError(`${file} asks for a custom grader (grading: custom); this runner supports the default grader only`);
  for (const flag of splitArgs(y.grader_flags, `grader_flags in ${file}`)) {
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

export function readModernGroup(
  m: Mapping,
  file: string,
  name: string,
  ctx: GroupContext,
  isSample: boolean,
): ModernGroup {
  const known = new Set([
    'max_score', 'score_aggregation', 'require_pass', 'scoring', 'args', 'output_validator_args', 'input_validator_args',
    'input_visualizer_args', 'output_visualizer_args', 'static_validator_args', 'full_feedback', 'hint', 'description',
    'static_validation_score', 'static_validation', 'output_validator_flags', 'input_validator_flags',
  ]);
  checkKeys(m, known, file, ctx.warnings);
  const y = shaped(testGroupYaml(file), m);
  if (m.static_validation_score !== undefined || (m.static_validation !== undefined && m.static_validation !== false)) {
    throw new PackageError(`${file} defines a static validation test case; static validators are not supported by this runner`);
  }
  // 2025-09 keys, or the 2023-07 draft's `scoring: {score, aggregation, require_pass}`
  const nested: Mapping = y.scoring ?? {};
  const maxRaw = m.max_score ?? nested.score;
  const aggRaw = y.score_aggregation ?? nested.aggregation;
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
  const out: ModernGroup = {
    scoring: { kind: 'modern', aggregation, maxScore: 0, requirePass },
  };
  if (y.args !== undefined) out.args = splitArgs(y.args, `args in ${file}`);
  const va = m.output_validator_args ?? m.output_validator_flags;
  if (va !== undefined) out.validatorArgs = splitArgs(va, `output_validator_args in ${file}`);
  if (y.full_feedback !== undefined) out.fullFeedback = y.full_feedback;
  return out;
}
