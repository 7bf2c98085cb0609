import type { SeriesProblem } from '@judge/contract';
import { describe, expect, it } from 'vitest';
import { configOf, draftOf, emptyDraft, languagesOf, moveTo, pointsOf } from './assignment';

const sp = (over: Partial<SeriesProblem>): SeriesProblem =>
  ({ id: 'a', seriesId: 's', problemId: 'p', problemSlug: 'sum', problemName: 'Sum', slug: 'sum', name: 'Sum', order: 0, currentVersion: 1, hasPackage: true, submissionCount: 0, ...over }) as SeriesProblem;

describe('the assignment form', () => {
  it('reads limits, languages and points from the assignment, and writes them back into its config keeping every other key', () => {
    const d = draftOf(sp({ config: { timeLimitSeconds: 2, memoryMiB: 256, languages: ['c', 'python3'], other: 1 }, maxPoints: 100 }), 1);
    expect(d).toEqual({ letter: 1, slug: 'sum', timeLimit: '2', memory: '256', points: '100', languages: 'c, python3' });
    expect(configOf({ ...d, timeLimit: '1,5', languages: 'cpp; cpp java' }, { timeLimitSeconds: 2, memoryMiB: 256, other: 1 })).toEqual({
      timeLimitSeconds: 1.5,
      memoryMiB: 256,
      languages: ['cpp', 'java'],
      other: 1,
    });
  });

  it('clears what is left empty, to null when the config is then empty, and refuses nonsense numbers as empty', () => {
    expect(configOf(emptyDraft(0), { timeLimitSeconds: 2, languages: ['c'] })).toBeNull();
    expect(configOf({ ...emptyDraft(0), timeLimit: '-1', memory: 'lots' }, undefined)).toBeNull();
    expect(pointsOf({ ...emptyDraft(0), points: '' })).toBeNull();
    expect(pointsOf({ ...emptyDraft(0), points: '12.4' })).toBe(12);
    expect(languagesOf(' c ,, python3 c ')).toEqual(['c', 'python3']);
  });

  it('moves an assignment to the letter asked for, the others keeping their order', () => {
    expect(moveTo(['a', 'b', 'c'], 'c', 0)).toEqual(['c', 'a', 'b']);
    expect(moveTo(['a', 'b', 'c'], 'a', 1)).toEqual(['b', 'a', 'c']);
    expect(moveTo(['a', 'b', 'c'], 'b', 9)).toEqual(['a', 'c', 'b']);
  });
});
