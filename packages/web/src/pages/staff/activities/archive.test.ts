import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { manifestName, readArchive } from './archive';

const pkg = (name: string) => ({ 'problem.yaml': strToU8(`name: ${name}\n`), 'data/sample/1.in': strToU8('1\n'), 'data/sample/1.ans': strToU8('1\n') });

describe('a contest archive read in the browser', () => {
  it('zips each package folder on its own, takes a nested package zip as it is, and names what it skipped', () => {
    const nested = zipSync({ 'b/problem.yaml': strToU8('name: Bee\n'), 'b/problem_statement/problem.en.md': strToU8('# Bee') });
    const outer = zipSync({ contest: { 'a-plus b': pkg('Sum'), 'b.zip': nested, notes: { 'readme.txt': strToU8('hi') } } } as never);
    const r = readArchive(outer);
    if ('error' in r) throw new Error(r.error);
    expect(r.packages.map((p) => [p.slug, p.kind, p.name, p.hasStatement])).toEqual([
      ['a-plus-b', 'folder', 'Sum', false],
      ['b', 'zip', 'Bee', true],
    ]);
    expect(Object.keys(unzipSync(r.packages[0]!.zip)).sort()).toEqual(['data/sample/1.ans', 'data/sample/1.in', 'problem.yaml']);
    expect(r.packages[1]!.zip).toEqual(nested);
    expect(r.skipped).toEqual(['notes']);
  });

  it('says when the file is no zip, or holds no package', () => {
    expect(readArchive(strToU8('not a zip'))).toEqual({ error: 'notZip' });
    expect(readArchive(zipSync({ 'x.txt': strToU8('x') }))).toEqual({ error: 'empty' });
  });

  it("reads problem.yaml's name plainly written, quoted, or by language", () => {
    expect(manifestName('name: Sum\nlimits:\n  time_limit: 2\n')).toBe('Sum');
    expect(manifestName("name: 'A + B'\n")).toBe('A + B');
    expect(manifestName('name:\n  de: Summe\n  en: Sum\n')).toBe('Sum');
    expect(manifestName('limits: {}\n')).toBeUndefined();
  });
});
