import { describe, expect, it } from 'vitest';
import { LEGACY_DEFAULTS, PackageError, ProblemYaml, legacyTestdataYaml, readLegacyTestdata, readManifest, readModernGroup, testGroupYaml } from '@judge/problem-package';

/** problem.yaml and testdata.yaml as the server, the runner and judgectl all read them. */

const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(PackageError);
    return (e as Error).message;
  }
  throw new Error('expected a PackageError');
};

describe('readManifest', () => {
  it('reads a legacy problem.yaml: kind, limits with their defaults, flags, languages', () => {
    const m = readManifest('name: Sum\nvalidation: custom interactive\nvalidator_flags: case_sensitive\nlimits:\n  memory: 512\n  time_multiplier: 3\nlanguages: c cpp\n');
    expect(m).toMatchObject({ format: 'legacy', formatVersion: 'legacy', name: 'Sum', validatorFlags: ['case_sensitive'], languages: ['c', 'cpp'] });
    expect(m.kind).toEqual({ scoring: false, interactive: true, submitAnswer: false, custom: true, multiPass: false });
    expect(m.limits).toMatchObject({ memoryMiB: 512, timeMultiplier: 3, timeSafetyMargin: 2, acToTimeLimit: 2, timeLimitToTle: 1.5, timeResolution: 1 });
    expect(m.limits.timeLimitSeconds).toBeUndefined();
  });

  it('reads a 2023-07 problem.yaml: type lists, name maps, time_multipliers, and warns of unknown keys', () => {
    const warnings: string[] = [];
    const m = readManifest(
      'problem_format_version: 2025-09\nname: {de: Summe, en: Sum}\ntype: [scoring]\nlimits: {time_limit: 2, time_multipliers: {ac_to_time_limit: 3}}\nsurprise: 1\n',
      warnings,
    );
    expect(m).toMatchObject({ format: '2023-07', formatVersion: '2025-09', name: 'Sum', kind: { scoring: true }, limits: { timeLimitSeconds: 2, timeLimitSource: 'problem.yaml', acToTimeLimit: 3 } });
    expect(warnings).toEqual(['problem.yaml: unknown keys ignored: surprise']);
  });

  it('reads multi-pass problems with their pass count, in the 2023-07 and the legacy form', () => {
    const modern = readManifest('problem_format_version: 2023-07\ntype: [multi-pass, interactive]\nlimits: {validation_passes: 4}\n');
    expect(modern.kind).toMatchObject({ multiPass: true, interactive: true });
    expect(modern.limits.validationPasses).toBe(4);
    expect(readManifest('problem_format_version: 2023-07\ntype: multi-pass\n').limits.validationPasses).toBe(2);
    const legacy = readManifest('validation: custom multipass\nlimits:\n  validation_passes: 3\n');
    expect(legacy.kind).toMatchObject({ multiPass: true, custom: true });
    expect(legacy.limits.validationPasses).toBe(3);
    const warnings: string[] = [];
    expect(readManifest('limits:\n  validation_passes: 3\n', warnings).limits.validationPasses).toBeUndefined();
    expect(warnings).toEqual(['problem.yaml: limits.validation_passes is for multi-pass problems; ignored']);
  });

  it('says what is wrong, key by key, in an author’s words', () => {
    expect(refusal(() => readManifest('limits: 3\n'))).toBe('limits in problem.yaml must be a mapping');
    expect(refusal(() => readManifest('limits:\n  time_limit: fast\n'))).toBe('limits.time_limit in problem.yaml must be a positive number (seconds)');
    expect(refusal(() => readManifest('limits:\n  memory: -1\n'))).toBe('limits.memory in problem.yaml must be a positive number (MiB)');
    expect(refusal(() => readManifest('limits:\n  time_multipliers: {time_limit_to_tle: 0.5}\n'))).toMatch(/time_limit_to_tle in problem.yaml must be a number of at least 1/);
    expect(refusal(() => readManifest('type: multi-pass\nlimits:\n  validation_passes: 1\n'))).toBe('limits.validation_passes in problem.yaml must be a whole number of at least 2');
    expect(refusal(() => readManifest('type: [multi-pass, submit-answer]\n'))).toMatch(/both submit-answer and multi-pass/);
    expect(refusal(() => readManifest('type: 3\n'))).toBe('type in problem.yaml must be a string or a list of strings');
    expect(refusal(() => readManifest('type: [pass-fail, scoring]\n'))).toMatch(/both pass-fail and scoring/);
    expect(refusal(() => readManifest('validation: strict\n'))).toMatch(/must begin with default or custom/);
    expect(refusal(() => readManifest('languages: {a: 1}\n'))).toMatch(/languages in problem.yaml must be "all"/);
    expect(refusal(() => readManifest('name: a: b\n'))).toMatch(/^problem.yaml does not parse/);
    expect(refusal(() => readManifest('- a\n'))).toBe('problem.yaml must be a YAML mapping');
  });

  it('is a zod schema other readers can use', () => {
    expect(ProblemYaml.safeParse({ limits: { memory: 256 } }).success).toBe(true);
    expect(ProblemYaml.safeParse({ limits: { memory: 'lots' } }).success).toBe(false);
  });
});

describe('testdata.yaml', () => {
  it('reads legacy grading flags over the defaults', () => {
    const g = readLegacyTestdata({ on_reject: 'continue', grader_flags: 'min ignore_sample', range: '0 100' }, 'data/testdata.yaml', []);
    expect(g).toEqual({ ...LEGACY_DEFAULTS, onReject: 'continue', scoreMode: 'min', ignoreSample: true, range: [0, 100], validatorFlags: [], source: 'data/testdata.yaml' });
    expect(refusal(() => readLegacyTestdata({ grading: 'custom' }, 'data/testdata.yaml', []))).toMatch(/custom grader/);
  });

  it('reads a 2023-07 group: scoring keys only under secret', () => {
    const ctx = { scoring: true, warnings: [], declared: new Map<string, number | null>() };
    expect(readModernGroup({ max_score: 30, args: 'a b' }, 'data/secret/g1/test_group.yaml', 'secret/g1', ctx, false)).toEqual({
      scoring: { kind: 'modern', aggregation: 'pass-fail', maxScore: 0, requirePass: [] },
      args: ['a', 'b'],
    });
    expect(ctx.declared.get('secret/g1')).toBe(30);
    expect(refusal(() => readModernGroup({ max_score: 1 }, 'data/sample/test_group.yaml', 'sample', ctx, true))).toMatch(/belong to data\/secret/);
  });
});

describe('testdata.yaml schemas', () => {
  it('say what a key may hold, naming the file', () => {
    expect(refusal(() => readLegacyTestdata({ on_reject: 'stop' }, 'data/secret/testdata.yaml', []))).toBe('on_reject in data/secret/testdata.yaml must be break or continue');
    expect(refusal(() => readLegacyTestdata({ grading: 'fancy' }, 'data/testdata.yaml', []))).toBe('grading in data/testdata.yaml must be default or custom');
    const ctx = { scoring: true, warnings: [], declared: new Map<string, number | null>() };
    expect(refusal(() => readModernGroup({ full_feedback: 'yes' }, 'data/secret/test_group.yaml', 'secret', ctx, false))).toBe('full_feedback in data/secret/test_group.yaml must be true or false');
    expect(refusal(() => readModernGroup({ score_aggregation: 'max' }, 'data/secret/test_group.yaml', 'secret', ctx, false))).toBe('score_aggregation in data/secret/test_group.yaml must be pass-fail, sum or min');
    expect(refusal(() => readModernGroup({ scoring: 3 }, 'data/secret/test_group.yaml', 'secret', ctx, false))).toBe('scoring in data/secret/test_group.yaml must be a mapping');
    expect(testGroupYaml('x').safeParse({ args: ['a', 1] }).success).toBe(true);
    expect(legacyTestdataYaml('x').safeParse({ grader_flags: { a: 1 } }).success).toBe(false);
  });
});
