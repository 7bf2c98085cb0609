import type { Ranking, RankingCell } from '@judge/contract';
import { describe, expect, it } from 'vitest';
import { columnsOf, firstSolvers, isTouched, solveMinute } from './model';

const cell = (problemId: string, more: Partial<RankingCell> = {}): RankingCell => ({ problemId, attempts: 0, solved: false, pending: 0, frozen: 0, ...more });

describe('standings model', () => {
  it('labels one series by letters in order and several series by slug', () => {
    const one = [
      { id: 'p1', slug: 'sum', name: 'Sum', seriesId: 's1' },
      { id: 'p2', slug: 'max', name: 'Max', seriesId: 's1' },
    ];
    expect(columnsOf(one).map((c) => c.label)).toEqual(['A', 'B']);
    expect(columnsOf([...one, { id: 'p3', slug: 'min', name: 'Min', seriesId: 's2' }]).map((c) => c.label)).toEqual(['sum', 'max', 'min']);
    expect(columnsOf(one)[1]).toEqual({ id: 'p2', label: 'B', name: 'Max' });
  });

  it('marks the earliest solve of each problem, ties included, and no one for an unsolved problem', () => {
    const ranking: Ranking = {
      rankingType: 'icpc',
      frozen: false,
      problems: [],
      rows: [
        { rank: 1, userId: 'u1', userName: 'Ann', solved: 2, cells: [cell('a', { solved: true, attempts: 1, solvedAt: '2026-01-01T10:05:00.000Z' }), cell('b', { solved: true, attempts: 1, solvedAt: '2026-01-01T10:30:00.000Z' }), cell('c', { attempts: 3 })] },
        { rank: 2, userId: 'u2', userName: 'Bob', solved: 1, cells: [cell('a', { solved: true, attempts: 2, solvedAt: '2026-01-01T10:06:00.000Z' }), cell('b', { solved: true, attempts: 1, solvedAt: '2026-01-01T10:30:00.000Z' }), cell('c')] },
        { rank: 3, userId: 'u3', userName: 'Cy', solved: 0, cells: [cell('a'), cell('b'), cell('c')] },
      ],
    };
    const firsts = firstSolvers(ranking);
    expect(firsts.get('u1')).toBe('a b');
    expect(firsts.get('u2')).toBe('b');
    expect(firsts.has('u3')).toBe(false);
  });

  it('takes the penalty of earlier rejections back out of a solved cell to give its minute', () => {
    expect(solveMinute(cell('a', { solved: true, attempts: 3, penalty: 85 }))).toBe(45);
    expect(solveMinute(cell('a', { solved: true, attempts: 1, penalty: 7 }))).toBe(7);
    expect(solveMinute(cell('a', { attempts: 2 }))).toBeUndefined();
  });

  it('counts a cell as touched by attempts, pending or frozen submissions', () => {
    expect(isTouched(cell('a'))).toBe(false);
    expect(isTouched(cell('a', { pending: 1 }))).toBe(true);
    expect(isTouched(cell('a', { frozen: 1 }))).toBe(true);
    expect(isTouched(cell('a', { attempts: 1 }))).toBe(true);
  });
});
