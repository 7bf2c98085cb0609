import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The size rules every change keeps: no source or test file over 500 lines (declarative schemas
 * excepted) and no function in the sources over 80 lines. Sources are what ships or runs: the
 * packages' src, the benchmarks, the scripts and the launchers.
 */
const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 80;

const root = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = /\.(ts|mts|cts|tsx|js|mjs|cjs)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', '.git']);
/** Tables of zod schemas and operations: long, but a list of declarations, not logic. */
const DECLARATIVE = [/^packages\/server\/src\/db\/(pg-)?schema\.ts$/, /^packages\/contract\/src\/schemas\//, /^packages\/contract\/src\/operations\//];

/** Every file under `dir` (relative to the root), skipping build output and dependencies. */
function filesUnder(dir: string): string[] {
  const abs = join(root, dir);
  let entries: string[];
  try {
    entries = readdirSync(abs);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    if (SKIPPED_DIRS.has(name)) return [];
    const path = join(dir, name);
    return statSync(join(root, path)).isDirectory() ? filesUnder(path) : [path];
  });
}

const packages = readdirSync(join(root, 'packages')).filter((p) => statSync(join(root, 'packages', p)).isDirectory());
const sources = [
  ...packages.flatMap((p) => filesUnder(`packages/${p}/src`).filter((f) => SCRIPT.test(f))),
  ...filesUnder('bench').filter((f) => SCRIPT.test(f)),
  ...filesUnder('scripts').filter((f) => SCRIPT.test(f)),
  // the launchers are shell scripts: their length counts, they hold no functions of ours
  ...filesUnder('bin'),
];
const tests = [...packages.flatMap((p) => filesUnder(`packages/${p}/test`)), ...filesUnder('test')].filter((f) => SCRIPT.test(f));

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** What a function is called where it is declared, for the report. */
function nameOf(fn: ts.SignatureDeclaration, sf: ts.SourceFile): string {
  if (fn.name) return fn.name.getText(sf);
  let p = fn.parent;
  while (ts.isParenthesizedExpression(p)) p = p.parent;
  // an immediately invoked function is named after what receives its result
  const invoked = ts.isCallExpression(p) && p.expression.pos <= fn.pos && fn.end <= p.expression.end;
  if (invoked) p = p.parent;
  if ((ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name) return p.name.getText(sf);
  if (ts.isCallExpression(p) || ts.isNewExpression(p)) return `(callback of ${ts.isNewExpression(p) ? 'new ' : ''}${p.expression.getText(sf).replace(/\s+/g, ' ').slice(-40)})`;
  return '(anonymous)';
}

/** Functions, methods, constructors, accessors and arrow functions longer than the limit. */
function longFunctions(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : undefined);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body) {
      const first = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_FUNCTION_LINES) found.push(`${file}:${first + 1} ${nameOf(n, sf)} is ${lines} lines (at most ${MAX_FUNCTION_LINES})`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

function longFile(file: string, text: string): string[] {
  const lines = lineCount(text);
  return lines > MAX_FILE_LINES ? [`${file} is ${lines} lines (at most ${MAX_FILE_LINES})`] : [];
}

const rel = (f: string) => relative(root, join(root, f)).split('\\').join('/');

// parsing every source file takes seconds alone and far longer on CI's two loaded cores
describe('code shape', { timeout: 180_000 }, () => {
  it('finds the files it checks', () => {
    expect(sources.some((f) => rel(f) === 'packages/server/src/app.ts')).toBe(true);
    expect(sources.some((f) => rel(f).startsWith('bench/'))).toBe(true);
    expect(tests.some((f) => rel(f) === 'test/code-shape.test.ts')).toBe(true);
  });

  it(`no source file over ${MAX_FILE_LINES} lines (declarative schemas excepted), no function over ${MAX_FUNCTION_LINES}`, () => {
    const offenders: string[] = [];
    for (const f of sources.map(rel)) {
      const text = readFileSync(join(root, f), 'utf8');
      if (!DECLARATIVE.some((d) => d.test(f))) offenders.push(...longFile(f, text));
      if (SCRIPT.test(f)) offenders.push(...longFunctions(f, text));
    }
    expect(offenders, `${offenders.length} offenders:\n  ${offenders.join('\n  ')}`).toEqual([]);
  });

  it(`no test file over ${MAX_FILE_LINES} lines`, () => {
    const offenders = tests.map(rel).flatMap((f) => longFile(f, readFileSync(join(root, f), 'utf8')));
    expect(offenders, `${offenders.length} offenders:\n  ${offenders.join('\n  ')}`).toEqual([]);
  });

  it('counts a long function wherever it is declared, and names it', () => {
    const body = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `  x += ${i};`).join('\n');
    const text = [
      `function declared() {\n${body}\n}`,
      `const arrow = () => {\n${body}\n};`,
      `class K {\n  method() {\n${body}\n  }\n}`,
      `run(async () => {\n${body}\n});`,
      `function short() {\n${body.split('\n').slice(2).join('\n')}\n}`,
    ].join('\n');
    const found = longFunctions('sample.ts', text);
    expect(found.map((f) => f.replace(/ is \d+ lines.*/, ''))).toEqual(['sample.ts:1 declared', `sample.ts:${MAX_FUNCTION_LINES + 3} arrow`, expect.stringMatching(/ method$/), expect.stringMatching(/callback of run/)]);
    expect(found[0]).toMatch(new RegExp(` is ${MAX_FUNCTION_LINES + 2} lines`));
    expect(longFile('f.ts', 'x\n'.repeat(MAX_FILE_LINES))).toEqual([]);
    expect(longFile('f.ts', 'x\n'.repeat(MAX_FILE_LINES + 1))).toEqual([`f.ts is ${MAX_FILE_LINES + 1} lines (at most ${MAX_FILE_LINES})`]);
  });

  it('cites only documents of the repository: decisions by a number docs/decisions.md has, no outside contract or issue', () => {
    const sections = new Set([...readFileSync(join(root, 'docs/decisions.md'), 'utf8').matchAll(/^## (\d+)\. /gm)].map((m) => m[1]));
    expect(sections.size).toBeGreaterThan(10);
    const native = packages.flatMap((p) => filesUnder(`packages/${p}/native`)).filter((f) => /\.[ch]$/.test(f));
    const offenders: string[] = [];
    // this file names the patterns it looks for
    for (const f of [...sources, ...tests, ...native].map(rel).filter((f) => f !== 'test/code-shape.test.ts')) {
      readFileSync(join(root, f), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const at = `${f}:${i + 1}`;
          if (/CONTRACT(?: §|\.md)/.test(line)) offenders.push(`${at} cites the outside contract`);
          if (/\b[Ii]ssue \d+/.test(line)) offenders.push(`${at} cites an issue tracker entry`);
          for (const m of line.matchAll(/decisions §(\d+)/g)) if (!sections.has(m[1]!)) offenders.push(`${at} cites decisions §${m[1]}, which docs/decisions.md does not have`);
        });
    }
    expect(offenders, `${offenders.length} offenders:\n  ${offenders.join('\n  ')}`).toEqual([]);
  });
});
