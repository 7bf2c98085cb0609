import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The server's dependency rules (DESIGN "Server internals"), checked on its import statements:
 * an area under src/modules/ reaches another only through that area's public entry (index.ts), the
 * areas form no cycle, and the infrastructure (auth/, db/, events/, http/) imports no area.
 */

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const INFRASTRUCTURE = ['auth', 'db', 'events', 'http'];

/** Source files as paths relative to src/, with '/' separators. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') ? [relative(SRC, full).split(sep).join('/')] : [];
  });
}

/** Every module specifier a file names: imports, re-exports, dynamic imports and `import('x')` types. */
function specifiers(file: string, text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      found.push(node.moduleReference.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return found;
}

/** Which files of src/ each file imports (relative specifiers only; packages are not the server's own code). */
export function importGraph(files: Record<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of Object.entries(files)) {
    const targets = specifiers(file, text)
      .filter((s) => s.startsWith('.'))
      .map((s) => posix.normalize(posix.join(posix.dirname(file), s)).replace(/\.js$/, '.ts'));
    graph.set(file, targets);
  }
  return graph;
}

/** The area of a file under modules/, e.g. `judging` for modules/judging/jobs.ts. */
const areaOf = (file: string): string | undefined => /^modules\/([^/]+)\//.exec(file)?.[1];
const topOf = (file: string): string => file.split('/')[0]!;

interface Findings {
  /** A file reaching into another area past its public entry. */
  internals: string[];
  /** Infrastructure importing an area. */
  infrastructure: string[];
  /** One cycle among the areas, as a path that ends where it starts; empty when there is none. */
  cycle: string[];
  areaEdges: Map<string, Set<string>>;
}

export function check(graph: Map<string, string[]>): Findings {
  const internals: string[] = [];
  const infrastructure: string[] = [];
  const areaEdges = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = areaOf(file);
    if (from && !areaEdges.has(from)) areaEdges.set(from, new Set());
    for (const target of targets) {
      const to = areaOf(target);
      if (!to) continue;
      if (INFRASTRUCTURE.includes(topOf(file))) infrastructure.push(`${file} → ${target}`);
      if (to !== from && target !== `modules/${to}/index.ts`) internals.push(`${file} → ${target} (use modules/${to}/index.ts)`);
      if (from && to !== from) areaEdges.get(from)!.add(to);
    }
  }
  return { internals, infrastructure, cycle: findCycle(areaEdges), areaEdges };
}

/** A depth-first search that returns the first cycle it closes, e.g. [a, b, c, a]. */
function findCycle(edges: Map<string, Set<string>>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] => {
    state.set(node, 'open');
    path.push(node);
    for (const next of [...(edges.get(node) ?? [])].sort()) {
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found.length) return found;
      }
    }
    path.pop();
    state.set(node, 'done');
    return [];
  };
  for (const node of [...edges.keys()].sort()) {
    if (state.has(node)) continue;
    const found = visit(node);
    if (found.length) return found;
  }
  return [];
}

describe('the server imports point one way', () => {
  const sources = Object.fromEntries(sourceFiles().map((f) => [f, readFileSync(join(SRC, f), 'utf8')]));
  const findings = check(importGraph(sources));

  it('reads the areas it should (a sanity check of the parser)', () => {
    expect([...findings.areaEdges.keys()]).toEqual(expect.arrayContaining(['activities', 'judging', 'policy', 'runners', 'series', 'submissions']));
    expect(findings.areaEdges.get('judging')).toContain('submissions');
  });

  it('an area reaches another only through its public entry (modules/<area>/index.ts)', () => {
    expect(findings.internals).toEqual([]);
  });

  it('the areas form no cycle', () => {
    expect(findings.cycle, `cycle among the areas: ${findings.cycle.join(' → ')}`).toEqual([]);
  });

  it('auth/, db/, events/ and http/ import nothing from modules/', () => {
    expect(findings.infrastructure).toEqual([]);
  });
});

/**
 * What would tie a service to the embedded engine: SQLite's synchronous handles and the synchronous
 * transaction form. Only the data layer (db/), the commands that work on a SQLite file (ops/), the data
 * directory's own check (datadir.ts) and services.ts, which declares `Deps` without them and `AppDeps`
 * (the server's, with them, for ops and tests) may name them; everything else runs on either engine through
 * `d.tx.read`/`write` (docs/storage.md).
 */
export function sqliteOnlyUses(file: string, text: string): string[] {
  if (/^(db|ops)\/|^(datadir|services)\.ts$/.test(file)) return [];
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (/\b(d|deps|this\.d)\.(db|sqlite)\b|\btx\.run\(|from 'better-sqlite3'|from 'drizzle-orm\/better-sqlite3'/.test(line)) found.push(`${file}:${i + 1}`);
  });
  return found;
}

describe('the services run on either engine', () => {
  const sources = Object.fromEntries(sourceFiles().map((f) => [f, readFileSync(join(SRC, f), 'utf8')]));

  it("nothing outside db/ and ops/ uses SQLite's synchronous handles or the synchronous transaction", () => {
    expect(Object.entries(sources).flatMap(([f, t]) => sqliteOnlyUses(f, t))).toEqual([]);
  });

  it("the Deps services are built from hold no SQLite handle (only the server's AppDeps do)", () => {
    const text = sources['services.ts']!;
    const deps = text.slice(text.indexOf('export interface Deps {'), text.indexOf('\n}\n', text.indexOf('export interface Deps {')));
    expect(deps).toContain('tx: Transactor;');
    expect(deps.match(/^\s+(db|sqlite)\??:/gm)).toBeNull();
  });

  it('the check sees each such use, and not the asynchronous form', () => {
    expect(sqliteOnlyUses('modules/x/service.ts', 'const r = this.d.sqlite.prepare(s);\nawait this.d.tx.read((q) => q);\nthis.d.db.select()')).toEqual(['modules/x/service.ts:1', 'modules/x/service.ts:3']);
    expect(sqliteOnlyUses('events/hub.ts', "import Database from 'better-sqlite3';")).toEqual(['events/hub.ts:1']);
    expect(sqliteOnlyUses('modules/x/a.ts', 'd.tx.run((out) => 1)')).toEqual(['modules/x/a.ts:1']);
    expect(sqliteOnlyUses('ops/backup.ts', 'deps.sqlite.backup(p)')).toEqual([]);
  });
});

describe('the import checker', () => {
  const graphOf = (files: Record<string, string>) => check(importGraph(files));

  it('sees imports, re-exports, dynamic imports and import types', () => {
    const g = importGraph({
      'modules/a/x.ts': [
        "import { b } from '../b/index.js';",
        "export { c } from '../c/index.js';",
        "const d = await import('../d/index.js');",
        "type E = import('../e/index.js').E;",
        "import type { F } from '../f/index.js';",
        "import { readFileSync } from 'node:fs';",
      ].join('\n'),
    });
    expect(g.get('modules/a/x.ts')).toEqual(['modules/b/index.ts', 'modules/c/index.ts', 'modules/d/index.ts', 'modules/e/index.ts', 'modules/f/index.ts']);
  });

  it('reports a reach past a public entry, and an import from infrastructure', () => {
    const f = graphOf({
      'modules/a/service.ts': "import { internal } from '../b/queries.js';",
      'modules/b/queries.ts': '',
      'http/api.ts': "import type { S } from '../modules/b/index.js';",
    });
    expect(f.internals).toEqual(['modules/a/service.ts → modules/b/queries.ts (use modules/b/index.ts)']);
    expect(f.infrastructure).toEqual(['http/api.ts → modules/b/index.ts']);
  });

  it('prints a cycle among areas, and none where the graph is a chain', () => {
    const cyclic = graphOf({
      'modules/a/index.ts': "export * from '../b/index.js';",
      'modules/b/index.ts': "export * from '../c/index.js';",
      'modules/c/index.ts': "import type { A } from '../a/index.js';",
    });
    expect(cyclic.cycle).toEqual(['a', 'b', 'c', 'a']);
    const chain = graphOf({
      'modules/a/index.ts': "export * from '../b/index.js';",
      'modules/b/index.ts': "export * from '../c/index.js';",
      'modules/c/index.ts': '',
    });
    expect(chain.cycle).toEqual([]);
  });
});
