import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProblem, type ProblemSpec } from '@judge/runner';
import { evaluate, type TestOutcome } from '../src/problem/scoring.js';
import type { TestCase, Verdict } from '../src/problem/types.js';

/**
 * Every grading key of the format, read from a package on disk and applied to a table of verdicts:
 * legacy testdata.yaml (on_reject, grading, grader_flags, accept_score, reject_score, range) as
 * problemtools' default grader applies them, and 2023-07 test_group.yaml / testdata.yaml scoring
 * (score_aggregation, max_score, require_pass). One row per key; the verdicts are given, not run.
 */

let root = '';
let n = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'grading-keys-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** Writes a package of the given test cases (names below data/) and extra files, and loads it. */
async function pkg(problemYaml: string, tests: string[], extra: Record<string, string> = {}): Promise<ProblemSpec> {
  const dir = join(root, `p${++n}`);
  const files: Record<string, string> = { 'problem.yaml': problemYaml, ...extra };
  for (const t of tests) Object.assign(files, { [`data/${t}.in`]: '1\n', [`data/${t}.ans`]: '1\n' });
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return loadProblem(dir);
}

type Table = Record<string, Verdict | TestOutcome>;

/** Grades a loaded package against a verdict table (AC where not listed); answers the result and the test cases run. */
async function grade(problem: ProblemSpec, table: Table) {
  const calls: string[] = [];
  const run = async (t: TestCase): Promise<TestOutcome> => {
    calls.push(t.name);
    const v = table[t.name] ?? 'AC';
    return (typeof v === 'string' ? { verdict: v } : v) as TestOutcome;
  };
  const e = await evaluate(problem.data, run, { format: problem.format, scoring: problem.scoring });
  return { ...e, calls, group: (name: string) => e.groups.find((g) => g.name === name) };
}

const LEGACY_TESTS = ['sample/1', 'secret/1', 'secret/2', 'secret/3'];

interface Row {
  key: string;
  scoring?: boolean;
  testdata: string;
  table: Table;
  verdict: Verdict;
  score?: number;
  maxScore?: number;
  calls?: string[];
}

describe('legacy testdata.yaml keys', () => {
  const rows: Row[] = [
    { key: 'on_reject: break (default) stops at the first rejection', testdata: '', table: { 'secret/1': 'WA', 'secret/2': 'RTE' }, verdict: 'WA', calls: ['sample/1', 'secret/1'] },
    {
      key: 'on_reject: continue runs the rest; worst_error picks by JE, RTE, MLE, TLE, OLE, WA',
      testdata: 'on_reject: continue\n',
      table: { 'secret/1': 'WA', 'secret/2': 'OLE', 'secret/3': 'TLE' },
      verdict: 'TLE',
      calls: LEGACY_TESTS,
    },
    { key: 'worst_error: RTE is worse than MLE', testdata: 'on_reject: continue\ngrader_flags: worst_error\n', table: { 'secret/1': 'MLE', 'secret/3': 'RTE' }, verdict: 'RTE' },
    { key: 'first_error', testdata: 'on_reject: continue\ngrader_flags: first_error\n', table: { 'secret/1': 'WA', 'secret/2': 'RTE' }, verdict: 'WA' },
    { key: 'always_accept', testdata: 'on_reject: continue\ngrader_flags: always_accept\n', table: { 'secret/1': 'WA' }, verdict: 'AC' },
    { key: 'the last of conflicting modes wins', testdata: 'on_reject: continue\ngrader_flags: always_accept first_error\n', table: { 'secret/2': 'TLE' }, verdict: 'TLE' },
    { key: 'accept_if_any_accepted', testdata: 'on_reject: continue\ngrader_flags: accept_if_any_accepted\n', table: { 'secret/1': 'WA', 'secret/2': 'WA' }, verdict: 'AC' },
    {
      key: 'accept_if_any_accepted with nothing accepted keeps the verdict mode',
      testdata: 'on_reject: continue\ngrader_flags: accept_if_any_accepted\n',
      table: { 'sample/1': 'WA', 'secret/1': 'WA', 'secret/2': 'RTE', 'secret/3': 'WA' },
      verdict: 'RTE',
    },
    { key: 'ignore_sample: a failing sample does not count', testdata: 'on_reject: continue\ngrader_flags: ignore_sample\n', table: { 'sample/1': 'WA' }, verdict: 'AC' },
    { key: 'scoring: sum of accept_score', scoring: true, testdata: 'on_reject: continue\naccept_score: 5\n', table: { 'secret/2': 'WA' }, verdict: 'WA', score: 0, maxScore: 20 },
    {
      key: 'scoring: accept_if_any_accepted makes a partial submission AC with its points',
      scoring: true,
      testdata: 'on_reject: continue\naccept_score: 5\ngrader_flags: accept_if_any_accepted ignore_sample\n',
      table: { 'secret/2': 'WA' },
      verdict: 'AC',
      score: 10,
      maxScore: 15,
    },
    {
      key: 'scoring: reject_score counts for rejected test cases',
      scoring: true,
      testdata: 'on_reject: continue\naccept_score: 5\nreject_score: 1\ngrader_flags: always_accept ignore_sample\n',
      table: { 'secret/2': 'WA' },
      verdict: 'AC',
      score: 11,
    },
    { key: 'scoring: avg', scoring: true, testdata: 'on_reject: continue\ngrader_flags: avg always_accept ignore_sample\n', table: { 'secret/1': { verdict: 'AC', score: 4 } }, verdict: 'AC', score: 2 },
    { key: 'scoring: min', scoring: true, testdata: 'on_reject: continue\ngrader_flags: min always_accept ignore_sample\n', table: { 'secret/1': { verdict: 'AC', score: 4 } }, verdict: 'AC', score: 1 },
    { key: 'scoring: max', scoring: true, testdata: 'on_reject: continue\ngrader_flags: max always_accept ignore_sample\n', table: { 'secret/1': { verdict: 'AC', score: 4 } }, verdict: 'AC', score: 4 },
    { key: 'scoring: range bounds the maximum score', scoring: true, testdata: 'range: 0 50\n', table: {}, verdict: 'AC', score: 4, maxScore: 50 },
    { key: 'scoring: a score outside range is a judge error', scoring: true, testdata: 'range: 0 3\n', table: {}, verdict: 'JE', score: 0 },
  ];
  for (const row of rows) {
    it(row.key, async () => {
      const problem = await pkg(row.scoring ? 'name: Keys\ntype: scoring\n' : 'name: Keys\n', LEGACY_TESTS, row.testdata ? { 'data/testdata.yaml': row.testdata } : {});
      const e = await grade(problem, row.table);
      expect(e.verdict).toBe(row.verdict);
      if (row.score !== undefined) expect(e.score).toBe(row.score);
      if (row.maxScore !== undefined) expect(e.maxScore).toBe(row.maxScore);
      if (row.calls) expect(e.calls).toEqual(row.calls);
    });
  }

  it('a subgroup inherits the closest testdata.yaml whole; grading: custom is refused', async () => {
    const problem = await pkg('name: Keys\ntype: scoring\n', ['secret/a/1', 'secret/a/2', 'secret/b/1'], {
      'data/testdata.yaml': 'on_reject: continue\ngrader_flags: accept_if_any_accepted\n',
      'data/secret/b/testdata.yaml': 'accept_score: 7\n',
    });
    const e = await grade(problem, { 'secret/a/1': 'WA' });
    expect(e.group('secret/a')).toMatchObject({ verdict: 'AC', score: 1 });
    expect(e.group('secret/b')).toMatchObject({ verdict: 'AC', score: 7 });
    expect(e).toMatchObject({ verdict: 'AC', score: 8 });
    await expect(pkg('name: Keys\n', ['secret/1'], { 'data/testdata.yaml': 'grading: custom\n' })).rejects.toThrow(/custom grader/);
  });

  it('a group whose only failing child is RTE is RTE, at every level', async () => {
    const problem = await pkg('name: Keys\n', ['sample/1', 'secret/g/1', 'secret/g/2', 'secret/h/1'], { 'data/testdata.yaml': 'on_reject: continue\n' });
    const e = await grade(problem, { 'secret/g/2': 'RTE' });
    expect(e.group('secret/g')!.verdict).toBe('RTE');
    expect(e.group('secret')!.verdict).toBe('RTE');
    expect(e.verdict).toBe('RTE');
  });
});

describe('2023-07 test_group.yaml scoring keys', () => {
  const scoring = 'problem_format_version: 2023-07\nname: Keys\ntype: scoring\n';
  const groups = ['sample/1', 'secret/a/1', 'secret/a/2', 'secret/b/1', 'secret/b/2'];

  it('score_aggregation sum with max_score: partial points are AC with their score', async () => {
    const problem = await pkg(scoring, groups, {
      'data/secret/a/test_group.yaml': 'max_score: 40\nscore_aggregation: sum\n',
      'data/secret/b/test_group.yaml': 'max_score: 60\n',
    });
    const e = await grade(problem, { 'secret/a/2': 'WA' });
    expect(e).toMatchObject({ verdict: 'AC', score: 80, maxScore: 100 });
    expect(e.group('secret/a')).toMatchObject({ verdict: 'WA', score: 20 });
    // nothing scored: the first rejection stays the verdict
    expect(await grade(problem, { 'secret/a/1': 'TLE', 'secret/a/2': 'WA', 'secret/b/1': 'WA' })).toMatchObject({ verdict: 'TLE', score: 0 });
  });

  it('score_aggregation min takes the lowest test case score', async () => {
    const problem = await pkg(scoring, groups, {
      'data/secret/a/test_group.yaml': 'max_score: 40\nscore_aggregation: min\n',
      'data/secret/b/test_group.yaml': 'max_score: 60\n',
    });
    const e = await grade(problem, { 'secret/a/1': { verdict: 'AC', scoreMultiplier: 0.5 } });
    expect(e).toMatchObject({ verdict: 'AC', score: 80 });
    expect(e.group('secret/a')).toMatchObject({ verdict: 'AC', score: 20 });
  });

  it('require_pass: a group whose required group failed is not run, scores 0 and carries that rejection', async () => {
    const problem = await pkg(scoring, groups, {
      'data/secret/a/test_group.yaml': 'max_score: 40\n',
      'data/secret/b/test_group.yaml': 'max_score: 60\nrequire_pass: secret/a\n',
    });
    const e = await grade(problem, { 'secret/a/1': 'RTE' });
    expect(e.calls).toEqual(['sample/1', 'secret/a/1']);
    expect(e.group('secret/b')).toMatchObject({ skipped: true, verdict: 'RTE', score: 0 });
    expect(e).toMatchObject({ verdict: 'RTE', score: 0 });
  });

  it('testdata.yaml serves as test_group.yaml, and a group verdict is its own first rejection', async () => {
    const problem = await pkg(scoring, groups, {
      'data/secret/a/testdata.yaml': 'max_score: 40\n',
      'data/secret/b/testdata.yaml': 'max_score: 60\n',
    });
    const e = await grade(problem, { 'sample/1': 'WA', 'secret/b/2': 'RTE' });
    expect(e.group('secret/b')).toMatchObject({ verdict: 'RTE', score: 0 });
    expect(e.group('secret')).toMatchObject({ verdict: 'RTE', score: 40 });
    expect(e).toMatchObject({ verdict: 'AC', score: 40 });
  });

  it('pass-fail problems: the first rejection is the verdict of the run and of each group holding it', async () => {
    const problem = await pkg('problem_format_version: 2023-07\nname: Keys\n', groups);
    const e = await grade(problem, { 'secret/b/1': 'RTE' });
    expect(e).toMatchObject({ verdict: 'RTE', score: 0 });
    expect(e.group('secret/b')!.verdict).toBe('RTE');
    expect(e.group('secret')!.verdict).toBe('RTE');
  });
});
