import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PackageCache, extractZip } from '../src/problem/cache.js';
import { loadProblem } from '../src/problem/load.js';
import { PackageError, testsOf, type LegacyGrading, type ModernScoring, type TestGroup } from '../src/problem/types.js';
import { declareUncompressedSize, renameEntry, zipOf, type ZipContent } from './zips.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'problem-load-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A cache whose fetcher serves the given zips by file id, counting downloads. */
function cacheOf(zips: Record<string, Buffer>, opts: Partial<ConstructorParameters<typeof PackageCache>[0]> = {}) {
  const fetched: string[] = [];
  const cache = new PackageCache({
    dir: join(dir, 'cache'),
    fetch: async (id) => {
      fetched.push(id);
      await new Promise((r) => setTimeout(r, 5));
      const zip = zips[id];
      if (!zip) throw new Error(`no file ${id}`);
      return zip;
    },
    ...opts,
  });
  return { cache, fetched };
}

/** Zips, caches and loads a package. */
async function load(entries: Record<string, ZipContent>) {
  const zip = await zipOf(entries);
  const { cache } = cacheOf({ f: zip });
  const pkg = await cache.acquire('f', sha(zip));
  return loadProblem(pkg.dir);
}

const refusal = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(PackageError);
    return (e as Error).message;
  }
  throw new Error('expected a PackageError');
};

const groupNamed = (root: TestGroup, name: string): TestGroup => {
  const find = (g: TestGroup): TestGroup | undefined =>
    g.name === name ? g : g.items.flatMap((i) => (i.kind === 'group' ? [find(i.group)] : [])).find((x) => x !== undefined);
  const g = find(root);
  if (!g) throw new Error(`no group ${name}`);
  return g;
};

function legacyPackage(): Record<string, ZipContent> {
  return {
    'problem.yaml': 'name: Hello\nvalidation: default\nvalidator_flags: float_tolerance 1e-6\nlimits:\n  memory: 512\n  output: 16\n',
    '.timelimit': '2.5\n',
    'data/sample/1.in': '1 2\n',
    'data/sample/1.ans': '3\n',
    'data/secret/1.in': '5 5\n',
    'data/secret/1.ans': '10\n',
    'data/secret/1.hint': 'think of carries\n',
    'data/secret/group1/testdata.yaml': 'output_validator_flags: case_sensitive\n',
    'data/secret/group1/2.in': '7 8\n',
    'data/secret/group1/2.ans': '15\n',
    'data/secret/0.in': '0 0\n',
    'data/secret/0.ans': '0\n',
    'include/default/helper.h': '#define X 1\n',
    'include/cpp/main.cpp': 'int main(){}\n',
    'submissions/accepted/hello.py': 'print(sum(map(int, input().split())))\n',
    'submissions/accepted/multi/main.cpp': 'int main(){}\n',
    'submissions/accepted/multi/util.h': '\n',
    'submissions/wrong_answer/bad.c': 'int main(){return 0;}\n',
  };
}

describe('loadProblem: legacy packages', () => {
  it('reads problem.yaml, .timelimit, the test tree in order, flags, include/ and submissions/', async () => {
    const spec = await load(legacyPackage());
    expect(spec).toMatchObject({ format: 'legacy', formatVersion: 'legacy', name: 'Hello', scoring: false, interactive: false, submitAnswer: false });
    expect(spec.customValidator).toBeUndefined();
    expect(spec.limits).toMatchObject({ timeLimitSeconds: 2.5, timeLimitSource: '.timelimit', memoryMiB: 512, outputMiB: 16, timeMultiplier: 5 });
    expect(testsOf(spec.data).map((t) => t.name)).toEqual(['sample/1', 'secret/0', 'secret/1', 'secret/group1/2']);
    const tests = Object.fromEntries(testsOf(spec.data).map((t) => [t.name, t]));
    expect(tests['secret/1']!.validatorArgs).toEqual(['float_tolerance', '1e-6']);
    expect(tests['secret/group1/2']!.validatorArgs).toEqual(['float_tolerance', '1e-6', 'case_sensitive']);
    expect(tests['secret/1']!.hint).toBe('think of carries');
    expect(tests['sample/1']!.fullFeedback).toBe(true);
    expect(tests['secret/1']!.fullFeedback).toBe(false);
    expect(await readFile(tests['secret/group1/2']!.answer, 'utf8')).toBe('15\n');
    expect(Object.keys(spec.include.byLanguage)).toEqual(['cpp']);
    expect(spec.include.default).toMatch(/include\/default$/);
    expect(spec.submissions.map((s) => [s.expected, s.path, s.language, s.files])).toEqual([
      ['accepted', 'accepted/hello.py', 'python3', ['hello.py']],
      ['accepted', 'accepted/multi', 'cpp', ['main.cpp', 'util.h']],
      ['wrong_answer', 'wrong_answer/bad.c', 'c', ['bad.c']],
    ]);
  });

  it('resolves testdata.yaml from the closest ancestor, whole', async () => {
    const spec = await load({
      'problem.yaml': 'type: scoring\n',
      'data/testdata.yaml': 'on_reject: continue\ngrader_flags: ignore_sample accept_if_any_accepted\n',
      'data/sample/1.in': '',
      'data/sample/1.ans': '',
      'data/secret/testdata.yaml': 'on_reject: continue\ngrader_flags: first_error min\naccept_score: 25\nreject_score: 0\nrange: 0 +inf\n',
      'data/secret/a/1.in': '',
      'data/secret/a/1.ans': '',
      'data/secret/b/testdata.yaml': 'grader_flags: no_errors\naccept_score: "2.5"\nrange: -inf 10\n',
      'data/secret/b/1.in': '',
      'data/secret/b/1.ans': '',
    });
    expect(spec.scoring).toBe(true);
    const g = (name: string) => groupNamed(spec.data, name).grading as LegacyGrading;
    expect(g('')).toMatchObject({ onReject: 'continue', ignoreSample: true, acceptIfAnyAccepted: true, scoreMode: 'sum' });
    expect(g('sample')).toMatchObject({ onReject: 'continue', ignoreSample: true }); // inherits data/testdata.yaml
    expect(g('secret')).toMatchObject({ verdictMode: 'first_error', scoreMode: 'min', acceptScore: 25, range: [0, Infinity], ignoreSample: false });
    expect(g('secret/a')).toEqual(g('secret'));
    expect(g('secret/b')).toMatchObject({ verdictMode: 'worst_error', scoreMode: 'sum', acceptScore: 2.5, onReject: 'break', range: [-Infinity, 10] });
  });

  it('finds the custom validator, its language and interactive mode', async () => {
    const spec = await load({
      'problem.yaml': 'name: Guess\nvalidation: custom interactive\n',
      'data/sample/1.in': '5\n',
      'data/sample/1.ans': '',
      'data/sample/1.interaction': '< 5\n',
      'data/sample/2.interaction': '> 1\n',
      'data/secret/1.in': '7\n',
      'data/secret/1.ans': '',
      'output_validators/guess/validator.cpp': 'int main(){}\n',
      'output_validators/guess/testlib.h': '\n',
    });
    expect(spec.interactive).toBe(true);
    expect(spec.customValidator).toMatchObject({ language: 'cpp', files: ['testlib.h', 'validator.cpp'] });
    expect(spec.customValidator!.dir).toMatch(/output_validators\/guess$/);
    expect(testsOf(spec.data).map((t) => t.name)).toEqual(['sample/1', 'secret/1']);
  });

});

describe('loadProblem: legacy packages, their programs and wrapping', () => {
  it('takes a validator with build and run scripts, or loose files as one program', async () => {
    const built = await load({
      'problem.yaml': 'validation: custom\n',
      'data/secret/1.in': '',
      'data/secret/1.ans': '',
      'output_validators/v/build': { content: '#!/bin/sh\n', mode: 0o100755 },
      'output_validators/v/check.rs': '',
    });
    expect(built.customValidator?.language).toBe('build-run');
    const loose = await load({
      'problem.yaml': 'validation: custom\n',
      'data/secret/1.in': '',
      'data/secret/1.ans': '',
      'output_validators/validate.py': 'import sys\n',
      'output_validators/README.md': 'hi\n',
    });
    expect(loose.customValidator).toMatchObject({ language: 'python3' });
  });

  it('strips a folder that wraps the whole package', async () => {
    const entries = Object.fromEntries(Object.entries(legacyPackage()).map(([k, v]) => [`hello/${k}`, v]));
    const spec = await load(entries);
    expect(spec.name).toBe('Hello');
    expect(testsOf(spec.data)).toHaveLength(4);
  });
});

describe('loadProblem: 2023-07 packages', () => {
  it('reads type lists, limits with time_multipliers, per-key inheritance and test case .yaml', async () => {
    const spec = await load({
      'problem.yaml': [
        'problem_format_version: 2023-07-draft',
        'name:',
        '  en: Sum of two',
        '  pl: Suma dwóch',
        'type: [pass-fail]',
        'limits:',
        '  time_limit: 1.5',
        '  memory: 1024',
        '  time_multipliers:',
        '    ac_to_time_limit: 3',
        'languages: [c, cpp]',
        '',
      ].join('\n'),
      'data/sample/1.in': '1 2\n',
      'data/sample/1.ans': '3\n',
      'data/secret/test_group.yaml': 'output_validator_args: [float_tolerance, "1e-3"]\nargs: [--fast]\n',
      'data/secret/1.in': '5 5\n',
      'data/secret/1.ans': '10\n',
      'data/secret/2.in': '5 5\n',
      'data/secret/2.ans': '10\n',
      'data/secret/2.yaml': 'output_validator_args: [case_sensitive]\nfull_feedback: true\n',
      'data/secret/2.files/extra.txt': 'x\n',
    });
    expect(spec).toMatchObject({ format: '2023-07', formatVersion: '2023-07-draft', name: 'Sum of two', scoring: false, languages: ['c', 'cpp'] });
    expect(spec.limits).toMatchObject({ timeLimitSeconds: 1.5, timeLimitSource: 'problem.yaml', memoryMiB: 1024, acToTimeLimit: 3, timeLimitToTle: 1.5 });
    const [s1, t1, t2] = testsOf(spec.data);
    expect(s1!.fullFeedback).toBe(true);
    expect(s1!.validatorArgs).toEqual([]);
    expect(t1).toMatchObject({ validatorArgs: ['float_tolerance', '1e-3'], args: ['--fast'], fullFeedback: false });
    expect(t2).toMatchObject({ validatorArgs: ['case_sensitive'], args: ['--fast'], fullFeedback: true });
    expect(t2!.filesDir).toMatch(/secret\/2\.files$/);
  });

  it('scoring: max_score, score_aggregation and require_pass, with inferred test maxima', async () => {
    const spec = await load({
      'problem.yaml': 'problem_format_version: 2025-09\nname: Parts\ntype: scoring\n',
      'data/sample/1.in': '',
      'data/sample/1.ans': '',
      'data/secret/test_group.yaml': 'max_score: 100\n',
      'data/secret/a/test_group.yaml': 'max_score: 30\n',
      'data/secret/a/1.in': '',
      'data/secret/a/1.ans': '',
      'data/secret/b/test_group.yaml': 'max_score: 70\nscore_aggregation: sum\nrequire_pass: [sample, secret/a]\n',
      'data/secret/b/1.in': '',
      'data/secret/b/1.ans': '',
      'data/secret/b/2.in': '',
      'data/secret/b/2.ans': '',
      'output_validator/check.py': '',
    });
    expect(spec.scoring).toBe(true);
    expect(spec.customValidator?.language).toBe('python3');
    const g = (name: string) => groupNamed(spec.data, name).grading as ModernScoring;
    expect(g('secret')).toMatchObject({ aggregation: 'sum', maxScore: 100 });
    expect(g('secret/a')).toMatchObject({ aggregation: 'pass-fail', maxScore: 30 });
    expect(g('secret/b')).toMatchObject({ aggregation: 'sum', maxScore: 70, requirePass: ['sample', 'secret/a'] });
    expect(g('sample')).toMatchObject({ aggregation: 'pass-fail' });
    expect(testsOf(groupNamed(spec.data, 'secret/b')).map((t) => t.maxScore)).toEqual([35, 35]);
  });

});

describe('loadProblem: 2023-07 drafts and example submissions', () => {
  it('reads the 2023-07 draft’s scoring mapping in testdata.yaml', async () => {
    const spec = await load({
      'problem.yaml': 'problem_format_version: 2023-07\ntype: scoring\n',
      'data/secret/testdata.yaml': 'scoring:\n  score: 50\n  aggregation: min\n',
      'data/secret/1.in': '',
      'data/secret/1.ans': '',
    });
    expect(groupNamed(spec.data, 'secret').grading).toMatchObject({ aggregation: 'min', maxScore: 50 });
    expect(testsOf(spec.data)[0]!.maxScore).toBe(50);
  });

  it('submissions.yaml sets languages and expectations by glob', async () => {
    const spec = await load({
      'problem.yaml': 'problem_format_version: 2025-09\n',
      'data/secret/1.in': '',
      'data/secret/1.ans': '',
      'submissions/submissions.yaml': 'accepted/{a,b}.py:\n  language: pypy3\nrejected/slow.cpp:\n  permitted: [AC, TLE]\n  required: [TLE]\n',
      'submissions/accepted/a.py': '',
      'submissions/accepted/b.py': '',
      'submissions/accepted/c.py': '',
      'submissions/accepted/notes.txt': '',
      'submissions/rejected/slow.cpp': '',
    });
    expect(spec.submissions.map((s) => [s.path, s.language, s.permitted, s.required])).toEqual([
      ['accepted/a.py', 'pypy3', undefined, undefined],
      ['accepted/b.py', 'pypy3', undefined, undefined],
      ['accepted/c.py', 'python3', undefined, undefined],
      ['rejected/slow.cpp', 'cpp', ['AC', 'TLE'], ['TLE']],
    ]);
  });
});

describe('loadProblem: refusals', () => {
  const base = { 'data/secret/1.in': '1\n', 'data/secret/1.ans': '1\n' };

  it('says what is wrong with a broken package', async () => {
    expect(await refusal(load({ 'data/secret/1.in': '' }))).toBe('problem.yaml is missing');
    expect(await refusal(load({ 'problem.yaml': 'name: [unclosed\n', ...base }))).toMatch(/^problem.yaml does not parse/);
    expect(await refusal(load({ 'problem.yaml': 'name: x\n' }))).toBe('data/ is missing');
    expect(await refusal(load({ 'problem.yaml': 'name: x\n', 'data/secret/1.in': '' }))).toContain('data/secret/1.ans is missing');
    expect(await refusal(load({ 'problem.yaml': 'name: x\n', 'data/secret/readme.txt': '' }))).toContain('data/ holds no tests');
    expect(await refusal(load({ 'problem.yaml': 'limits:\n  time_limit: -1\n', ...base }))).toContain('limits.time_limit');
    expect(await refusal(load({ 'problem.yaml': 'name: x\n', '.timelimit': 'soon\n', ...base }))).toContain('.timelimit');
    expect(await refusal(load({ 'problem.yaml': 'problem_format_version: 1999-01\n', ...base }))).toContain('problem_format_version "1999-01"');
  });

  it('refuses what this runner does not support, clearly', async () => {
    expect(await refusal(load({ 'problem.yaml': 'problem_format_version: 2025-09\ntype: [pass-fail, multi-pass]\n', ...base }))).toBe(
      'the problem is multi-pass but the package has no output validator (output_validators/ or output_validator/) to write nextpass.in',
    );
    expect(await refusal(load({ 'problem.yaml': 'type: scoring\n', 'data/testdata.yaml': 'grading: custom\n', ...base }))).toContain('custom grader');
    expect(await refusal(load({ 'problem.yaml': 'validation: custom interactive\n', ...base }))).toContain('interactive but the package has no output validator');
    expect(await refusal(load({ 'problem.yaml': 'validation: custom\n', ...base }))).toContain('validation: custom');
    expect(
      await refusal(load({ 'problem.yaml': 'problem_format_version: 2025-09\ntype: scoring\n', 'data/secret/test_group.yaml': 'static_validation_score: 10\n', ...base })),
    ).toContain('static validators are not supported');
    expect(
      await refusal(load({ 'problem.yaml': 'validation: custom\n', ...base, 'output_validators/a/a.py': '', 'output_validators/b/b.py': '' })),
    ).toContain('several programs');
  });

  it('refuses default-validator flags that make no sense', async () => {
    expect(await refusal(load({ 'problem.yaml': 'validator_flags: float_tolerance\n', ...base }))).toContain('float_tolerance needs a non-negative number');
    expect(await refusal(load({ 'problem.yaml': 'name: x\n', 'data/secret/testdata.yaml': 'output_validator_flags: ignore_everything\n', ...base }))).toContain(
      'does not know the flag "ignore_everything"',
    );
  });

  it('refuses scores that do not add up and misplaced scoring keys', async () => {
    expect(
      await refusal(
        load({
          'problem.yaml': 'problem_format_version: 2025-09\ntype: scoring\n',
          'data/secret/a/test_group.yaml': 'max_score: 80\n',
          'data/secret/a/1.in': '',
          'data/secret/a/1.ans': '',
          'data/secret/b/test_group.yaml': 'max_score: 40\n',
          'data/secret/b/1.in': '',
          'data/secret/b/1.ans': '',
        }),
      ),
    ).toContain('add up to 120, more than its 100');
    expect(
      await refusal(load({ 'problem.yaml': 'problem_format_version: 2025-09\ntype: scoring\n', 'data/sample/test_group.yaml': 'max_score: 5\n', 'data/sample/1.in': '', 'data/sample/1.ans': '', ...base })),
    ).toContain('belong to data/secret');
  });
});

// ---- the cache ----

describe('PackageCache', () => {
  it('downloads a package once for concurrent callers and verifies its SHA-256', async () => {
    const zip = await zipOf(legacyPackage());
    const { cache, fetched } = cacheOf({ f: zip });
    const [a, b] = await Promise.all([cache.acquire('f', sha(zip)), cache.acquire('f', sha(zip).toUpperCase())]);
    expect(fetched).toEqual(['f']);
    expect(a.dir).toBe(b.dir);
    expect(a.dir).toBe(join(dir, 'cache', sha(zip)));
    expect(a.buildDir).toBe(`${a.dir}.build`);
    expect(await readFile(join(a.dir, 'data/secret/1.in'), 'utf8')).toBe('5 5\n');
    const again = await cache.acquire('f', sha(zip));
    expect(fetched).toEqual(['f']);
    a.release();
    b.release();
    again.release();
    // a new cache on the same directory finds it without downloading
    const second = cacheOf({ f: zip });
    await second.cache.acquire('f', sha(zip));
    expect(second.fetched).toEqual([]);
  });

  it("keeps packages private to the runner's user (0700 directories, 0600 files), also those an older runner left open", async () => {
    const zip = await zipOf(legacyPackage());
    const modes = async (a: { dir: string }) =>
      Promise.all([join(dir, 'cache'), a.dir, join(a.dir, 'data'), join(a.dir, 'data/secret'), join(a.dir, 'data/secret/1.in'), join(a.dir, 'data/secret/1.ans')].map(async (p) => ((await stat(p)).mode & 0o777).toString(8)));
    const first = cacheOf({ f: zip });
    const a = await first.cache.acquire('f', sha(zip));
    expect(await modes(a)).toEqual(['700', '700', '700', '700', '600', '600']);
    a.release();
    // as a runner before this one left them: open to every user of the machine
    for (const p of [join(dir, 'cache'), a.dir, join(a.dir, 'data'), join(a.dir, 'data/secret')]) await chmod(p, 0o755);
    for (const p of [join(a.dir, 'data/secret/1.in'), join(a.dir, 'data/secret/1.ans')]) await chmod(p, 0o644);
    const second = cacheOf({ f: zip });
    const b = await second.cache.acquire('f', sha(zip));
    expect(second.fetched).toEqual([]);
    expect(await modes(b)).toEqual(['700', '700', '700', '700', '600', '600']);
    b.release();
  });

  it('refuses bytes that do not match the SHA-256, and leaves nothing behind', async () => {
    const zip = await zipOf(legacyPackage());
    const { cache } = cacheOf({ f: zip });
    expect(await refusal(cache.acquire('f', '0'.repeat(64)))).toContain(`has SHA-256 ${sha(zip)}`);
    expect(await readdir(join(dir, 'cache'))).toEqual([]);
    expect(await refusal(cache.acquire('f', 'not-a-hash'))).toContain('is not a SHA-256');
  });

  it('refuses oversize downloads and oversize contents, counting real bytes', async () => {
    const zip = await zipOf({ 'problem.yaml': '', 'data/secret/big.in': Buffer.alloc(3 * 1024 * 1024), 'data/secret/big.ans': '' });
    expect(zip.length).toBeLessThan(64 * 1024); // zeros deflate well: a small bomb
    expect(await refusal(cacheOf({ f: zip }, { maxCompressedBytes: 1000 }).cache.acquire('f', sha(zip)))).toContain('at most 1000');
    expect(await refusal(cacheOf({ f: zip }, { maxExtractedBytes: 1024 * 1024 }).cache.acquire('f', sha(zip)))).toContain('unpacks to more than 1048576 bytes');
    // a bomb that declares huge sizes is refused before anything is inflated
    const declared = declareUncompressedSize(zip, 0xffffffff);
    expect(await refusal(cacheOf({ f: declared }).cache.acquire('f', sha(declared)))).toContain('unpacks to more than');
    // one that declares tiny sizes is caught while inflating
    const lying = declareUncompressedSize(zip, 10);
    expect(await refusal(cacheOf({ f: lying }, { maxExtractedBytes: 1024 * 1024 }).cache.acquire('f', sha(lying)))).toMatch(/unpacks to more than|damaged/);
    expect((await readdir(join(dir, 'cache'))).filter((n) => !n.startsWith('.tmp-rm'))).toEqual([]);
  });

});

describe('PackageCache: unsafe zips and eviction', () => {
  it('refuses entries that escape the directory: .., absolute paths, drive letters, symlinks', async () => {
    const out = join(dir, 'out');
    const plain = await zipOf({ 'problem.yaml': '', 'aa/evil.txt': 'x' });
    const cases: Array<[Buffer, string]> = [
      [renameEntry(plain, 'aa/evil.txt', '../evil.txt'), 'points outside the package'],
      [renameEntry(plain, 'aa/evil.txt', '/aa/evil.tx'), 'points outside the package'],
      [renameEntry(plain, 'aa/evil.txt', 'C:/evil.txt'), 'points outside the package'],
      [renameEntry(plain, 'aa/evil.txt', 'a/../../evi'), 'points outside the package'],
      [await zipOf({ 'problem.yaml': '', 'data/link': { content: '/etc/passwd', mode: 0o120777 } }), 'is a symbolic link'],
      [await zipOf({ 'problem.yaml': '', 'data/fifo': { content: '', mode: 0o010644 } }), 'is a special file'],
    ];
    for (const [zip, message] of cases) {
      expect(await refusal(cacheOf({ f: zip }).cache.acquire('f', sha(zip)))).toContain(message);
      expect(await refusal(extractZip(zip, out, { maxEntries: 100, maxExtractedBytes: 1e6 }))).toContain(message);
      await rm(out, { recursive: true, force: true });
    }
    expect(existsSync(join(dir, 'evil.txt'))).toBe(false);
    expect(await refusal(cacheOf({ f: Buffer.from('not a zip') }).cache.acquire('f', sha(Buffer.from('not a zip'))))).toContain('not a zip file');
    const many = await zipOf(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, ''])));
    expect(await refusal(cacheOf({ f: many }, { maxEntries: 10 }).cache.acquire('f', sha(many)))).toContain('holds 20 entries');
  });

  it('evicts least recently used packages beyond its budget, never one in use', async () => {
    const zips: Record<string, Buffer> = {};
    for (const id of ['a', 'b', 'c']) zips[id] = await zipOf({ 'problem.yaml': `name: ${id}\n`, 'data/secret/1.in': Buffer.alloc(4000, id), 'data/secret/1.ans': '' });
    const { cache } = cacheOf(zips, { budgetBytes: 9000 });
    const a = await cache.acquire('a', sha(zips.a!));
    const b = await cache.acquire('b', sha(zips.b!));
    b.release();
    await new Promise((r) => setTimeout(r, 5));
    a.release(); // a is now the more recently used
    const c = await cache.acquire('c', sha(zips.c!));
    expect(existsSync(a.dir)).toBe(true);
    expect(existsSync(b.dir)).toBe(false);
    expect(cache.list().map((p) => p.sha256).sort()).toEqual([sha(zips.a!), sha(zips.c!)].sort());
    // held packages stay even over budget
    const a2 = await cache.acquire('a', sha(zips.a!));
    const b2 = await cache.acquire('b', sha(zips.b!));
    expect([a2.dir, b2.dir, c.dir].every((d) => existsSync(d))).toBe(true);
  });
});
