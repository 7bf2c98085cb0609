import { join } from 'node:path';
import {
  DATA_DIR,
  LEGACY_DEFAULTS,
  PackageError,
  checkKeys,
  compareNames,
  parseMapping,
  readLegacyTestdata,
  readModernGroup,
  splitArgs,
  type LegacyTestdata,
} from '@judge/problem-package';
import { entries, isDir, readOptional } from './files.js';
import { resolveModernMaxScores } from './scoring.js';
import { testsOf, type LegacyGrading, type ModernScoring, type ProblemFormat, type TestCase, type TestGroup, type TestItem } from './types.js';

/**
 * The test data tree of an extracted package: data/sample and data/secret with their groups, each
 * group's testdata.yaml (legacy) or test_group.yaml (2023-07) and each test case's files.
 */


interface GroupDefaults {
  /** The legacy testdata.yaml in force (closest ancestor's, whole). */
  legacy?: LegacyTestdata;
  /** 2023-07 inherited keys. */
  args: string[];
  validatorArgs: string[];
  fullFeedback: boolean;
}

export async function readTestData(dir: string, format: ProblemFormat, scoring: boolean, problemFlags: string[], warnings: string[]): Promise<TestGroup> {
  const dataDir = join(dir, DATA_DIR);
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
