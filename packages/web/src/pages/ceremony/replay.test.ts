import type { Ceremony, CeremonyRow, RankingCell } from '@judge/contract';
import { describe, expect, it } from 'vitest';
import { sceneAt, stepBeforeRank } from './replay';

const cell = (problemId: string, more: Partial<RankingCell> = {}): RankingCell => ({ problemId, attempts: 0, solved: false, pending: 0, frozen: 0, ...more });
const row = (userId: string, solved: number, penalty: number, cells: RankingCell[]): CeremonyRow => ({ userId, userName: userId.toUpperCase(), solved, penalty, tie: `${solved}|${penalty}`, cells });

// ann 1 solved; bob and cid tied at 0 with a hidden cell each
const start = [row('ann', 1, 20, [cell('a', { solved: true, attempts: 1 })]), row('bob', 0, 0, [cell('a', { frozen: 1 })]), row('cid', 0, 0, [cell('a', { frozen: 2 })])];
const c: Pick<Ceremony, 'rows' | 'steps'> = {
  rows: start,
  steps: [
    { kind: 'reveal', at: 2, userId: 'cid', problemId: 'a', to: 0, row: row('cid', 1, 10, [cell('a', { solved: true, attempts: 2 })]) },
    { kind: 'reveal', at: 2, userId: 'bob', problemId: 'a', to: 2, row: row('bob', 0, 0, [cell('a', { attempts: 1 })]) },
    { kind: 'award', at: 0, userId: 'cid', awards: ['winner'] },
  ],
};

describe('the ceremony replayed by step number', () => {
  it('starts from the frozen standings, ties numbered alike', () => {
    const s = sceneAt(c, 0);
    expect(s.rows.map((r) => [r.userId, r.rank])).toEqual([['ann', 1], ['bob', 2], ['cid', 2]]);
    expect(s.at).toBe(2);
    expect(s.last).toBeUndefined();
    expect(s.rows.every((r) => !r.done)).toBe(true);
  });

  it('moves a revealed row to its place, and keeps working on the same position', () => {
    const s = sceneAt(c, 1);
    expect(s.rows.map((r) => r.userId)).toEqual(['cid', 'ann', 'bob']);
    expect(s.rows[0]!.rank).toBe(1);
    expect(s.at).toBe(2);
    expect(s.last).toMatchObject({ kind: 'reveal', userId: 'cid' });
  });

  it('ends at the final standings with every row done, however far past the end it is asked', () => {
    const s = sceneAt(c, 99);
    expect(s.rows.map((r) => [r.userId, r.rank])).toEqual([['cid', 1], ['ann', 2], ['bob', 3]]);
    expect(s.at).toBe(-1);
    expect(s.rows.every((r) => r.done)).toBe(true);
    expect(s.last).toMatchObject({ kind: 'award', userId: 'cid' });
    // the rows below the position of the next step are final
    expect(sceneAt(c, 2).rows.map((r) => r.done)).toEqual([false, true, true]);
  });

  it('fast-forwards to the first step above a rank', () => {
    expect(stepBeforeRank(c, 1)).toBe(2);
    expect(stepBeforeRank(c, 3)).toBe(0);
    expect(stepBeforeRank({ steps: [] }, 3)).toBe(0);
  });
});
