import { describe, expect, it } from 'vitest';
import { evaluate, resolveModernMaxScores, type TestOutcome } from '../src/problem/scoring.js';
import { PackageError, type LegacyGrading, type ModernScoring, type TestCase, type TestGroup, type TestItem } from '../src/problem/types.js';
import { LEGACY_DEFAULTS } from '@judge/problem-package';

// ---- tree builders ----

const test = (name: string): TestItem => ({
  kind: 'test',
  test: { name, group: name.slice(0, name.lastIndexOf('/')), input: `/x/${name}.in`, answer: `/x/${name}.ans`, args: [], validatorArgs: [], fullFeedback: false },
});

const LEGACY: LegacyGrading = LEGACY_DEFAULTS;
const legacy = (name: string, items: TestItem[], grading: Partial<LegacyGrading> = {}): TestGroup => ({ name, items, grading: { ...LEGACY, ...grading } });
const modern = (name: string, items: TestItem[], grading: Partial<ModernScoring> = {}): TestGroup => ({
  name,
  items,
  grading: { kind: 'modern', aggregation: 'pass-fail', maxScore: 0, requirePass: [], ...grading },
});
const group = (g: TestGroup): TestItem => ({ kind: 'group', group: g });

/** A runTest answering from a table (AC when not listed) and recording the calls. */
function runner(table: Record<string, TestOutcome['verdict'] | TestOutcome> = {}) {
  const calls: string[] = [];
  const run = async (t: TestCase): Promise<TestOutcome> => {
    calls.push(t.name);
    const v = table[t.name] ?? 'AC';
    return typeof v === 'string' ? { verdict: v } : v;
  };
  return { calls, run };
}

// ---- legacy ----

describe('legacy grading', () => {
  const passFail = () =>
    legacy('', [
      group(legacy('sample', [test('sample/1')])),
      group(legacy('secret', [test('secret/1'), test('secret/2'), test('secret/3')])),
    ]);

  it('pass-fail: all accepted is AC, 1 of 1', async () => {
    const r = runner();
    const e = await evaluate(passFail(), r.run, { format: 'legacy', scoring: false });
    expect(e).toMatchObject({ verdict: 'AC', score: 1, maxScore: 1 });
    expect(r.calls).toEqual(['sample/1', 'secret/1', 'secret/2', 'secret/3']);
  });

  it('pass-fail: the first failure stops the run and is the verdict, 0 of 1', async () => {
    const r = runner({ 'secret/2': 'WA', 'secret/3': 'TLE' });
    const e = await evaluate(passFail(), r.run, { format: 'legacy', scoring: false });
    expect(e).toMatchObject({ verdict: 'WA', score: 0, maxScore: 1 });
    expect(r.calls).toEqual(['sample/1', 'secret/1', 'secret/2']);
  });

  it('a failing sample stops before the secret data', async () => {
    const r = runner({ 'sample/1': 'RTE' });
    const e = await evaluate(passFail(), r.run, { format: 'legacy', scoring: false });
    expect(e.verdict).toBe('RTE');
    expect(r.calls).toEqual(['sample/1']);
  });

  it('runAll runs everything but keeps the lazy verdict', async () => {
    const r = runner({ 'secret/2': 'WA', 'secret/3': 'TLE' });
    const e = await evaluate(passFail(), r.run, { format: 'legacy', scoring: false, runAll: true });
    expect(e.verdict).toBe('WA');
    expect(r.calls).toEqual(['sample/1', 'secret/1', 'secret/2', 'secret/3']);
    expect(e.tests.map((t) => t.counted)).toEqual([true, true, true, false]);
  });

  it('on_reject continue with worst_error picks the worst verdict; first_error the first', async () => {
    const tree = (verdictMode: LegacyGrading['verdictMode']) =>
      legacy('', [group(legacy('secret', [test('secret/1'), test('secret/2'), test('secret/3')], { onReject: 'continue', verdictMode }))], {
        onReject: 'continue',
      });
    const table = { 'secret/1': 'WA', 'secret/2': 'RTE' } as const;
    expect((await evaluate(tree('worst_error'), runner(table).run, { format: 'legacy', scoring: false })).verdict).toBe('RTE');
    expect((await evaluate(tree('first_error'), runner(table).run, { format: 'legacy', scoring: false })).verdict).toBe('WA');
    expect((await evaluate(tree('always_accept'), runner(table).run, { format: 'legacy', scoring: false })).verdict).toBe('AC');
  });

  /**
   * data:          ignore_sample accept_if_any_accepted, continue
   *   sample:      1 test
   *   secret:      sum accept_if_any_accepted, continue
   *     g1:        min, accept_score 40, break       → AC AC       → AC 40
   *     g2:        min, accept_score 60, break       → AC WA (AC)  → WA 0, third test never runs
   *     g3:        sum, accept_score 10, continue    → AC WA AC    → WA 20
   * secret: sum 40 + 0 + 20 = 60, verdict AC (any accepted); root ignores the sample: AC 60.
   */
  const scoringTree = () =>
    legacy(
      '',
      [
        group(legacy('sample', [test('sample/1')])),
        group(
          legacy(
            'secret',
            [
              group(legacy('secret/g1', [test('secret/g1/1'), test('secret/g1/2')], { scoreMode: 'min', acceptScore: 40 })),
              group(legacy('secret/g2', [test('secret/g2/1'), test('secret/g2/2'), test('secret/g2/3')], { scoreMode: 'min', acceptScore: 60 })),
              group(legacy('secret/g3', [test('secret/g3/1'), test('secret/g3/2'), test('secret/g3/3')], { acceptScore: 10, onReject: 'continue' })),
            ],
            { onReject: 'continue', acceptIfAnyAccepted: true },
          ),
        ),
      ],
      { onReject: 'continue', ignoreSample: true, acceptIfAnyAccepted: true },
    );

  it('scoring: groups with sum and min, accept scores, break inside a group, ignore_sample', async () => {
    const r = runner({ 'sample/1': 'WA', 'secret/g2/2': 'WA', 'secret/g3/2': 'WA' });
    const e = await evaluate(scoringTree(), r.run, { format: 'legacy', scoring: true });
    expect(e).toMatchObject({ verdict: 'AC', score: 60, maxScore: 130 });
    expect(r.calls).not.toContain('secret/g2/3');
    expect(e.groups.find((g) => g.name === 'secret/g1')).toMatchObject({ verdict: 'AC', score: 40 });
    expect(e.groups.find((g) => g.name === 'secret/g2')).toMatchObject({ verdict: 'WA', score: 0 });
    expect(e.groups.find((g) => g.name === 'secret/g3')).toMatchObject({ verdict: 'WA', score: 20 });
    expect(e.tests.find((t) => t.test.name === 'secret/g3/3')?.score).toBe(10);
  });

  it('scoring: a rejected root scores 0 (the grader’s score of a rejection is ignored)', async () => {
    const tree = legacy('', [group(legacy('secret', [test('secret/1'), test('secret/2')], { onReject: 'continue' }))]);
    const e = await evaluate(tree, runner({ 'secret/2': 'WA' }).run, { format: 'legacy', scoring: true });
    expect(e).toMatchObject({ verdict: 'WA', score: 0, maxScore: 2 });
  });

  it('scoring: score.txt replaces accept_score; the root range bounds maxScore and a score outside it is JE', async () => {
    const tree = (range: [number, number]) =>
      legacy('', [group(legacy('secret', [test('secret/1'), test('secret/2')], { range }))], { range });
    const r = runner({ 'secret/1': { verdict: 'AC', score: 7.5 } });
    expect(await evaluate(tree([0, 100]), r.run, { format: 'legacy', scoring: true })).toMatchObject({ verdict: 'AC', score: 8.5, maxScore: 100 });
    const je = await evaluate(tree([0, 5]), runner({ 'secret/1': { verdict: 'AC', score: 7.5 } }).run, { format: 'legacy', scoring: true });
    expect(je).toMatchObject({ verdict: 'JE', score: 0 });
    expect(je.judgeError).toContain('outside its range 0 5');
  });

  it('ignore_sample does not turn a sample failure that stopped the run into AC', async () => {
    const tree = legacy('', [group(legacy('sample', [test('sample/1')])), group(legacy('secret', [test('secret/1')]))], { ignoreSample: true });
    const r = runner({ 'sample/1': 'WA' });
    expect(await evaluate(tree, r.run, { format: 'legacy', scoring: false })).toMatchObject({ verdict: 'WA', score: 0 });
    expect(r.calls).toEqual(['sample/1']);
  });

  it('avg and max score modes', async () => {
    const tree = (scoreMode: LegacyGrading['scoreMode']) =>
      legacy('', [group(legacy('secret', [test('secret/1'), test('secret/2'), test('secret/3')], { scoreMode, onReject: 'continue', acceptIfAnyAccepted: true }))]);
    const table = { 'secret/1': { verdict: 'AC', score: 2 }, 'secret/2': { verdict: 'AC', score: 4 }, 'secret/3': 'WA' } as const;
    expect((await evaluate(tree('avg'), runner(table).run, { format: 'legacy', scoring: true })).score).toBe(2);
    expect((await evaluate(tree('max'), runner(table).run, { format: 'legacy', scoring: true })).score).toBe(4);
  });
});

// ---- 2023-07 ----

describe('2023-07 scoring', () => {
  it('pass-fail: the first failure stops the run', async () => {
    const tree = modern('', [group(modern('sample', [test('sample/1')])), group(modern('secret', [test('secret/1'), test('secret/2'), test('secret/3')]))]);
    const r = runner({ 'secret/2': 'TLE' });
    expect(await evaluate(tree, r.run, { format: '2023-07', scoring: false })).toMatchObject({ verdict: 'TLE', score: 0, maxScore: 1 });
    expect(r.calls).toEqual(['sample/1', 'secret/1', 'secret/2']);
    const all = runner();
    expect(await evaluate(tree, all.run, { format: '2023-07', scoring: false })).toMatchObject({ verdict: 'AC', score: 1, maxScore: 1 });
  });

  /** secret (sum, 100): g1 pass-fail 40 (2 tests), g2 sum 60 (3 tests at 20 each). */
  const scoringTree = () => {
    const secret = modern(
      'secret',
      [
        group(modern('secret/g1', [test('secret/g1/1'), test('secret/g1/2')])),
        group(modern('secret/g2', [test('secret/g2/1'), test('secret/g2/2'), test('secret/g2/3')], { aggregation: 'sum' })),
      ],
      { aggregation: 'sum' },
    );
    resolveModernMaxScores(secret, new Map([['secret/g1', 40], ['secret/g2', 60]]));
    return modern('', [group(modern('sample', [test('sample/1')])), group(secret)]);
  };

  it('every group runs; sum of group scores; partial points are AC with their score (a scoring submission gets a score, not a verdict)', async () => {
    const r = runner({ 'secret/g2/2': 'WA' });
    const e = await evaluate(scoringTree(), r.run, { format: '2023-07', scoring: true });
    expect(e).toMatchObject({ verdict: 'AC', score: 80, maxScore: 100 });
    expect(e.groups.find((g) => g.name === 'secret/g2')).toMatchObject({ verdict: 'WA', score: 40 });
    expect(r.calls).toEqual(['sample/1', 'secret/g1/1', 'secret/g1/2', 'secret/g2/1', 'secret/g2/2', 'secret/g2/3']);
    expect(e.tests.find((t) => t.test.name === 'secret/g2/3')).toMatchObject({ score: 20, maxScore: 20 });
  });

  it('a pass-fail group stops at its first failure and scores 0; a failing sample does not cost points', async () => {
    const r = runner({ 'sample/1': 'WA', 'secret/g1/1': 'RTE' });
    const e = await evaluate(scoringTree(), r.run, { format: '2023-07', scoring: true });
    expect(e).toMatchObject({ verdict: 'AC', score: 60 });
    expect(r.calls).not.toContain('secret/g1/2');
    expect(e.groups.find((g) => g.name === 'secret/g1')).toMatchObject({ verdict: 'RTE', score: 0, maxScore: 40 });
  });

  it('min aggregation with score multipliers; a failure makes the minimum 0', async () => {
    const build = () => {
      const secret = modern('secret', [group(modern('secret/g', [test('secret/g/1'), test('secret/g/2'), test('secret/g/3')], { aggregation: 'min' }))], { aggregation: 'sum' });
      resolveModernMaxScores(secret, new Map([['secret', 50], ['secret/g', 50]]));
      return modern('', [group(secret)]);
    };
    const partial = runner({ 'secret/g/1': { verdict: 'AC', scoreMultiplier: 0.5 }, 'secret/g/2': { verdict: 'AC', score: 40 } });
    expect(await evaluate(build(), partial.run, { format: '2023-07', scoring: true })).toMatchObject({ verdict: 'AC', score: 25, maxScore: 50 });
    const failed = runner({ 'secret/g/1': 'WA' });
    expect(await evaluate(build(), failed.run, { format: '2023-07', scoring: true })).toMatchObject({ verdict: 'WA', score: 0 });
    expect(failed.calls).toEqual(['secret/g/1']);
  });

  it('require_pass skips a group whose required group failed', async () => {
    const secret = modern(
      'secret',
      [
        group(modern('secret/a', [test('secret/a/1')])),
        group(modern('secret/b', [test('secret/b/1'), test('secret/b/2')], { requirePass: ['sample', 'secret/a'] })),
        group(modern('secret/c', [test('secret/c/1')])),
      ],
      { aggregation: 'sum' },
    );
    resolveModernMaxScores(secret, new Map([['secret/a', 20], ['secret/b', 50], ['secret/c', 30]]));
    const tree = modern('', [group(modern('sample', [test('sample/1')])), group(secret)]);
    const r = runner({ 'secret/a/1': 'WA' });
    const e = await evaluate(tree, r.run, { format: '2023-07', scoring: true });
    expect(e).toMatchObject({ verdict: 'AC', score: 30 });
    expect(r.calls).toEqual(['sample/1', 'secret/a/1', 'secret/c/1']);
    expect(e.groups.find((g) => g.name === 'secret/b')).toMatchObject({ skipped: true, score: 0, verdict: 'WA' });
    const ok = runner();
    expect(await evaluate(tree, ok.run, { format: '2023-07', scoring: true })).toMatchObject({ verdict: 'AC', score: 100 });
  });

  it('unbounded groups need score.txt; its sum is the score and there is no maxScore', async () => {
    const secret = modern('secret', [test('secret/1'), test('secret/2')], { aggregation: 'sum' });
    resolveModernMaxScores(secret, new Map([['secret', null]]));
    const tree = modern('', [group(secret)]);
    const e = await evaluate(tree, runner({ 'secret/1': { verdict: 'AC', score: 3 }, 'secret/2': { verdict: 'AC', score: 4.5 } }).run, { format: '2023-07', scoring: true });
    expect(e).toMatchObject({ verdict: 'AC', score: 7.5 });
    expect(e.maxScore).toBeUndefined();
    const je = await evaluate(tree, runner({ 'secret/1': 'AC' }).run, { format: '2023-07', scoring: true });
    expect(je.verdict).toBe('JE');
    expect(je.judgeError).toContain('no score.txt');
  });

  it('judge errors stop the run at once', async () => {
    const r = runner({ 'secret/g1/1': { verdict: 'JE', reason: 'validator exited with 1' } });
    const e = await evaluate(scoringTree(), r.run, { format: '2023-07', scoring: true });
    expect(e).toMatchObject({ verdict: 'JE', score: 0, judgeError: 'secret/g1/1: validator exited with 1' });
    expect(r.calls).toEqual(['sample/1', 'secret/g1/1']);
    // a score for a test case in a pass-fail group, a rejected one, or above its maximum
    for (const outcome of [{ verdict: 'AC', score: 1 }, { verdict: 'WA', scoreMultiplier: 0.5 }] as TestOutcome[]) {
      expect((await evaluate(scoringTree(), runner({ 'secret/g1/1': outcome }).run, { format: '2023-07', scoring: true })).verdict).toBe('JE');
    }
    expect((await evaluate(scoringTree(), runner({ 'secret/g2/1': { verdict: 'AC', score: 21 } }).run, { format: '2023-07', scoring: true })).judgeError).toContain(
      'outside [0, 20]',
    );
  });

  it('infers maximum scores: (M − S)/(A + T) in sum groups, M in min groups', () => {
    const secret = modern(
      'secret',
      [
        group(modern('secret/a', [test('secret/a/1'), test('secret/a/2'), test('secret/a/3'), test('secret/a/4')], { aggregation: 'sum' })),
        group(modern('secret/b', [test('secret/b/1')], { aggregation: 'min' })),
        group(modern('secret/c', [test('secret/c/1')])),
      ],
      { aggregation: 'sum' },
    );
    resolveModernMaxScores(secret, new Map([['secret/c', 20]]));
    const max = (g: TestItem) => (g.kind === 'group' ? (g.group.grading as ModernScoring).maxScore : null);
    expect(secret.items.map(max)).toEqual([40, 40, 20]);
    const a = secret.items[0]!.kind === 'group' ? secret.items[0]!.group : undefined;
    expect(a!.items.map((i) => (i.kind === 'test' ? i.test.maxScore : undefined))).toEqual([10, 10, 10, 10]);
    const b = secret.items[1]!.kind === 'group' ? secret.items[1]!.group : undefined;
    expect(b!.items[0]!.kind === 'test' && b!.items[0]!.test.maxScore).toBe(40);
  });

  it('refuses declared scores that do not fit', () => {
    const secret = () => modern('secret', [group(modern('secret/a', [test('secret/a/1')])), group(modern('secret/b', [test('secret/b/1')]))], { aggregation: 'sum' });
    expect(() => resolveModernMaxScores(secret(), new Map([['secret/a', 70], ['secret/b', 50]]))).toThrow(PackageError);
    expect(() => resolveModernMaxScores(secret(), new Map([['secret/a', null]]))).toThrow('unbounded max_score inside the bounded secret');
  });
});
