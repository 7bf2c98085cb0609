import { describe, expect, it } from 'vitest';
import { hasOwnStatement, librarySlug, neverOpened, packagesInArchive, slugFromName, startMovedTo } from '../src/index.js';

describe('what judgectl and the web share to import a contest', () => {
  it('makes slugs of file and folder names, and library slugs with the contest in front', () => {
    expect(slugFromName('/tmp/contest/A plus B.zip')).toBe('A-plus-B');
    expect(slugFromName('__hello/')).toBe('hello');
    expect(librarySlug('cup', 'sum')).toBe('cup-sum');
    expect(librarySlug('c'.repeat(60), 'sum')).toHaveLength(64);
  });

  it('finds package folders and zips at the top of an archive, through one wrapping folder, naming what it skips', () => {
    const r = packagesInArchive(['all/', 'all/b/problem.yaml', 'all/b/data/x.in', 'all/a.zip', 'all/notes/x.txt', '__MACOSX/all/._a.zip']);
    expect(r.found).toEqual([
      { path: 'all/a.zip', kind: 'zip', slug: 'a' },
      { path: 'all/b/', kind: 'folder', slug: 'b' },
    ]);
    expect(r.skipped).toEqual(['notes']);
    // a single package at the root is no wrapper
    expect(packagesInArchive(['p/problem.yaml']).found).toEqual([{ path: 'p/', kind: 'folder', slug: 'p' }]);
  });

  it('tells a package with a statement of its own', () => {
    expect(hasOwnStatement(['problem.yaml', 'problem_statement/problem.en.tex'])).toBe(true);
    expect(hasOwnStatement(['problem.yaml', 'statement/problem.md'])).toBe(true);
    expect(hasOwnStatement(['problem.yaml', 'data/sample/1.in'])).toBe(false);
  });

  it("moves a series' start with its other dates, or alone, and knows a series that never opened", () => {
    const s = { startDate: '2026-12-01T10:00:00.000Z', endDate: '2026-12-01T15:00:00.000Z', rankingFreezeAt: '2026-12-01T14:00:00.000Z' };
    expect(startMovedTo(s, '2026-12-01T09:00:00.000Z', false)).toEqual({ startDate: '2026-12-01T09:00:00.000Z', endDate: '2026-12-01T14:00:00.000Z', rankingFreezeAt: '2026-12-01T13:00:00.000Z' });
    expect(startMovedTo(s, '2026-12-01T09:00:00.000Z', true)).toEqual({ startDate: '2026-12-01T09:00:00.000Z' });
    expect(neverOpened(s, '2026-12-01T09:00:00.000Z')).toBe(true);
    expect(neverOpened(s, '2026-12-01T11:00:00.000Z')).toBe(false);
  });
});
