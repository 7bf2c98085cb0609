import { mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe as suite, expect, it } from 'vitest';
import {
  CompileCache,
  compileProgram,
  defaultLanguagesPath,
  judgeSubmission,
  loadLanguages,
  loadProblem,
  Sandbox,
  type JudgeResult,
  type JudgeSandbox,
  type LanguageTable,
  type ProblemSpec,
  type RunSpec,
} from '@judge/runner';

/**
 * The compile cache, judged for real: the sandbox, g++, the judge. Compiler runs are counted by
 * watching what the sandbox is asked to run (a g++ that is not a version query or a header
 * build), not by the cache's own account, so a cache that compiles anyway fails these tests.
 */

const hasBwrap = Sandbox.findBwrap() !== null;
const describe = suite.skipIf(!hasBwrap);
const UID_BASE = 61500;

const SUM_CPP = '#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b << "\\n"; }\n';
const SUM_BITS = '#include <bits/stdc++.h>\nusing namespace std;\nint main() { long long a, b; cin >> a >> b; vector<long long> v{a, b}; cout << accumulate(v.begin(), v.end(), 0LL) << "\\n"; }\n';
const BROKEN_CPP = '#include <iostream>\nint main() { std::cout << undeclared_thing; }\n';

let root = '';
let sandbox: Sandbox;
let languages: LanguageTable;
let problem: ProblemSpec;
/** g++ compiles of submissions the sandbox ran. */
let compiles = 0;
let counted: JudgeSandbox;

function isSubmissionCompile(spec: RunSpec): boolean {
  return spec.argv[0] === '/usr/bin/g++' && !spec.argv.includes('--version') && !spec.argv.includes('c++-header');
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'judge-compile-cache-'));
  if (!hasBwrap) return;
  sandbox = await Sandbox.create({ workRoot: join(root, 'sandbox'), insecureNoCgroup: true, uidBase: UID_BASE });
  counted = {
    workRoot: sandbox.workRoot,
    prepareBox: (dir) => sandbox.prepareBox(dir),
    run: (spec) => {
      if (isSubmissionCompile(spec)) compiles++;
      return sandbox.run(spec);
    },
    start: (spec) => {
      if (isSubmissionCompile(spec)) compiles++;
      return sandbox.start(spec);
    },
  };
  languages = loadLanguages();
  problem = await writeProblem('sum', {
    'problem.yaml': 'name: Sum\n',
    'data/secret/1.in': '1 2\n',
    'data/secret/1.ans': '3\n',
    'data/secret/2.in': '40 2\n',
    'data/secret/2.ans': '42\n',
  });
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(root, { recursive: true, force: true });
});

async function writeProblem(name: string, files: Record<string, string>): Promise<ProblemSpec> {
  const dir = join(root, name);
  for (const [f, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, f)), { recursive: true });
    await writeFile(join(dir, f), text);
  }
  return loadProblem(dir);
}

/** A language table like the shipped one with `change` applied to its entries. */
async function tableWith(name: string, change: (langs: Record<string, Record<string, unknown>>) => void): Promise<LanguageTable> {
  const t = JSON.parse(await readFile(defaultLanguagesPath(), 'utf8')) as { languages: Record<string, Record<string, unknown>> };
  change(t.languages);
  const file = join(root, `${name}.json`);
  await writeFile(file, JSON.stringify(t));
  return loadLanguages(file);
}

function judge(cache: CompileCache | undefined, source: string, o: { table?: LanguageTable; language?: string; on?: ProblemSpec } = {}): Promise<JudgeResult> {
  return judgeSubmission({
    sandbox: counted,
    languages: o.table ?? languages,
    problem: o.on ?? problem,
    files: [{ name: 'sum.cpp', bytes: Buffer.from(source) }],
    props: o.language ? { language: o.language } : null,
    ...(cache ? { compileCache: cache } : {}),
  });
}

const cacheAt = (name: string, extra: { budgetBytes?: number } = {}) => new CompileCache({ dir: join(root, 'caches', name), ...extra });

describe('the compile cache', () => {
  it('judges 100 submissions of one source with one compile, four at a time, every one AC and the 99 logged as cached', async () => {
    const cache = cacheAt('hundred');
    const before = compiles;
    const results: JudgeResult[] = [];
    for (let i = 0; i < 100; i += 4) results.push(...(await Promise.all([0, 1, 2, 3].map(() => judge(cache, SUM_CPP)))));
    expect(compiles - before).toBe(1);
    expect(results.map((r) => r.verdict)).toEqual(new Array(100).fill('AC'));
    expect(results.filter((r) => r.log.includes('compile: cached')).length).toBe(99);
    expect(cache.stats).toMatchObject({ compiles: 1, hits: 99, stored: 1, corrupt: 0 });
    // a new runner on the same directory (a restart) compiles nothing either
    const again = cacheAt('hundred');
    expect((await judge(again, SUM_CPP)).verdict).toBe('AC');
    expect(compiles - before).toBe(1);
  }, 180_000);

  it('keeps a compile error: judged again, it is CE with the same compiler output and no compile', async () => {
    const cache = cacheAt('ce');
    const before = compiles;
    const first = await judge(cache, BROKEN_CPP);
    const second = await judge(cache, BROKEN_CPP);
    expect(compiles - before).toBe(1);
    expect(first.verdict).toBe('CE');
    expect(second.verdict).toBe('CE');
    expect(first.log).toContain('undeclared_thing');
    expect(second.log).toContain('compile: cached');
    expect(second.log.replace(/compile: cached[^\n]*\n/, '')).toBe(first.log);
  }, 60_000);

  it('misses for another source, another language entry or flags, and another compiler version', async () => {
    const cache = cacheAt('misses');
    const before = compiles;
    await judge(cache, SUM_CPP);
    await judge(cache, `${SUM_CPP}// one more line\n`);
    expect(compiles - before).toBe(2);
    // the same source as C++17 (another entry of the table)
    expect((await judge(cache, SUM_CPP, { language: 'cpp17' })).verdict).toBe('AC');
    expect(compiles - before).toBe(3);
    // the same entry with other flags
    const o0 = await tableWith('o0', (l) => {
      const c = l.cpp!.compile as { argv: string[] };
      c.argv = c.argv.map((a) => (a === '-O2' ? '-O0' : a));
    });
    expect((await judge(cache, SUM_CPP, { table: o0 })).verdict).toBe('AC');
    expect(compiles - before).toBe(4);
    // a compiler upgrade: what the version command prints changes, the runner restarts on the same cache
    const vdir = join(root, 'version');
    await mkdir(vdir, { recursive: true, mode: 0o755 });
    await chmod(vdir, 0o755);
    await writeFile(join(vdir, 'v'), 'g++ 12.2.0\n', { mode: 0o644 });
    const versioned = await tableWith('versioned', (l) => {
      l.cpp!.version = ['/usr/bin/cat', '/judge-version/v'];
      l.cpp!.mounts = [{ host: vdir, box: '/judge-version' }];
    });
    expect((await judge(cacheAt('misses'), SUM_CPP, { table: versioned })).verdict).toBe('AC');
    expect(compiles - before).toBe(5);
    expect((await judge(cacheAt('misses'), SUM_CPP, { table: versioned })).log).toContain('compile: cached');
    expect(compiles - before).toBe(5);
    await writeFile(join(vdir, 'v'), 'g++ 13.1.0\n');
    const upgraded = await judge(cacheAt('misses'), SUM_CPP, { table: versioned });
    expect(upgraded.verdict).toBe('AC');
    expect(upgraded.log).not.toContain('compile: cached');
    expect(compiles - before).toBe(6);
  }, 120_000);

  it('takes a truncated or garbled entry for a miss: removed, compiled again, the verdict unchanged', async () => {
    const cache = cacheAt('corrupt');
    const before = compiles;
    expect((await judge(cache, SUM_CPP)).verdict).toBe('AC');
    const [key] = cache.list().map((e) => e.key);
    await truncate(join(cache.entryDir(key!), 'box', 'main'), 1000);
    const truncated = await judge(cache, SUM_CPP);
    expect(truncated.verdict).toBe('AC');
    expect(truncated.log).not.toContain('compile: cached');
    expect(compiles - before).toBe(2);
    expect(cache.stats.corrupt).toBe(1);
    await writeFile(join(cache.entryDir(key!), 'record.json'), '{"format": 1, "key": ');
    expect((await judge(cacheAt('corrupt'), SUM_CPP)).verdict).toBe('AC');
    expect(compiles - before).toBe(3);
    // and the entry written again is good
    expect((await judge(cacheAt('corrupt'), SUM_CPP)).log).toContain('compile: cached');
    expect(compiles - before).toBe(3);
  }, 60_000);

  it('does not keep a compile a limit stopped: on a loaded machine it may compile next time', async () => {
    const cache = cacheAt('limits');
    const cpp = languages.get('cpp')!;
    const files = [{ name: 'main.cpp', bytes: Buffer.from(SUM_CPP) }];
    const before = compiles;
    for (let i = 0; i < 2; i++) {
      const c = await compileProgram(cache, counted, cpp, files, 'main.cpp', { limits: { cpuMs: 1, wallMs: 5000 } });
      await c.box.dispose();
      expect(c.ok).toBe(false);
      expect(c.cached).toBe(false);
      expect(c.log).toMatch(/compilation used more than 1 ms of CPU time/);
    }
    expect(compiles - before).toBe(2);
    expect(cache.list()).toEqual([]);
  }, 60_000);

  it('stays within its size budget, removing the least recently used entry', async () => {
    // a static C++ binary is about 2 MiB: room for one entry, not two
    const cache = cacheAt('budget', { budgetBytes: 3 * 1024 * 1024 });
    const before = compiles;
    await judge(cache, SUM_CPP);
    const [a] = cache.list().map((e) => e.key);
    await judge(cache, `${SUM_CPP}// b\n`);
    expect(cache.list().map((e) => e.key)).not.toContain(a);
    expect(cache.list()).toHaveLength(1);
    expect(cache.stats.evicted).toBe(1);
    expect(await readdir(join(root, 'caches', 'budget'))).not.toContain(a);
    await judge(cache, SUM_CPP);
    expect(compiles - before).toBe(3);
  }, 60_000);
});

describe('precompiled headers', () => {
  it('compiles a bits/stdc++.h source against the .gch (g++ -H shows it) with the same verdicts', async () => {
    const shown = await tableWith('show-headers', (l) => {
      const c = l.cpp!.compile as { argv: string[] };
      c.argv = [c.argv[0]!, '-H', ...c.argv.slice(1)];
    });
    const cache = cacheAt('pch');
    const withPch = await judge(cache, SUM_BITS, { table: shown });
    expect(withPch.verdict).toBe('AC');
    expect(withPch.log).toContain('compile: with the precompiled bits/stdc++.h');
    expect(withPch.log).toMatch(/^! \/judge-pch\/bits\/stdc\+\+\.h\.gch$/m);
    const pchDirs = await readdir(join(root, 'caches', 'pch', 'pch'));
    expect(pchDirs.filter((d) => /^[0-9a-f]{64}$/.test(d))).toHaveLength(1);
    // a source without the header compiles as ever
    expect((await judge(cache, SUM_CPP, { table: shown })).log).not.toContain('judge-pch');
    // the shipped table: the same verdicts with and without the header, wrong answers included
    const wrong = SUM_BITS.replace('0LL', '1LL');
    const plain = [await judge(undefined, SUM_BITS), await judge(undefined, wrong)].map((r) => r.verdict);
    const pch = cacheAt('pch-shipped');
    const fast = [await judge(pch, SUM_BITS), await judge(pch, wrong)];
    expect(fast.map((r) => r.verdict)).toEqual(plain);
    expect(plain).toEqual(['AC', 'WA']);
    expect(fast.every((r) => r.log.includes('compile: with the precompiled bits/stdc++.h'))).toBe(true);
  }, 180_000);

  it('a source that refuses to compile against the .gch compiles without it, and the header stays on for the compiles after it', async () => {
    const lines: string[] = [];
    const cache = new CompileCache({ dir: join(root, 'caches', 'pch-refused'), log: (m) => lines.push(m) });
    const refuses = `#if __has_include(<bits/stdc++.h.gch>)\n#error the precompiled header is in the include path\n#endif\n${SUM_BITS}`;
    const first = await judge(cache, refuses);
    expect(first.verdict).toBe('AC');
    expect(first.log).not.toContain('compile: with the precompiled');
    for (const src of [SUM_BITS, `${SUM_BITS}// another\n`]) {
      expect((await judge(cache, src)).log, lines.join('\n')).toContain('compile: with the precompiled bits/stdc++.h');
    }
    expect(lines.join('\n')).toMatch(/only that compile went without it/);
    expect(lines.join('\n')).not.toMatch(/from now on/);
  }, 180_000);

  it('falls back to a plain compile when the header does not build', async () => {
    const lines: string[] = [];
    const broken = await tableWith('broken-pch', (l) => {
      l.cpp!.pch = ['no/such-header.h', 'bits/stdc++.h'];
    });
    const cache = new CompileCache({ dir: join(root, 'caches', 'broken-pch'), log: (m) => lines.push(m) });
    const src = `#include <no/such-header.h>\n${SUM_BITS}`;
    const r = await judge(cache, src, { table: broken });
    expect(r.verdict).toBe('CE');
    expect(lines.filter((m) => m.includes('no/such-header.h'))).toHaveLength(1);
    const again = await judge(cache, `${src}// again\n`, { table: broken });
    expect(again.verdict).toBe('CE');
    expect(lines.filter((m) => m.includes('no/such-header.h'))).toHaveLength(1);
  }, 60_000);
});
