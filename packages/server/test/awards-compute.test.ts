import { describe, expect, it } from 'vitest';
import type { Ranking, RankingRow } from '@judge/contract';
import { computeAwards, groupKeyPart } from '../src/modules/awards/index.js';
import { DEFAULT_AWARD_RULES } from '../src/modules/ranking/index.js';

/** The awards of final standings, computed without a server (decisions §24). */

const problems: Ranking['problems'] = [
  { id: 'pa', slug: 'A', name: 'Apples', seriesId: 's' },
  { id: 'pb', slug: 'B', name: 'Bananas', seriesId: 's' },
  { id: 'pc', slug: 'C', name: 'Cherries', seriesId: 's' },
];
const T = (s: number) => new Date(Date.UTC(2026, 10, 22, 8, 0, s)).toISOString().replace('.000Z', '.250Z');

/** A row: its rank, how many it solved, and the second of each solution (null: unsolved). */
function row(userId: string, rank: number, solvedAt: (number | null)[], points?: number): RankingRow {
  const cells = problems.map((p, i) => {
    const s = solvedAt[i] ?? null;
    return s === null ? { problemId: p.id, attempts: 0, solved: false, pending: 0, frozen: 0 } : { problemId: p.id, attempts: 1, solved: true, solvedAt: T(s), pending: 0, frozen: 0 };
  });
  return { rank, userId, userName: userId, solved: cells.filter((c) => c.solved).length, ...(points === undefined ? { penalty: 0 } : { points }), cells };
}

const none = () => [];

describe('computeAwards', () => {
  it('gives the winner to every row tied first, medals by rank with extra bronze, and nothing to rows that solved nothing', () => {
    const rows = [row('ann', 1, [10, 20, null]), row('bob', 1, [11, 21, null]), row('cid', 3, [30, null, null]), row('dan', 4, [40, null, null]), row('eve', 5, [null, null, null])];
    const awards = computeAwards({ standings: { rankingType: 'icpc', problems, rows }, rules: { gold: 1, silver: 1, bronze: 1, extraBronze: 1 }, groupsOf: none });
    expect(awards.map((a) => [a.key, a.userIds])).toEqual([
      ['winner', ['ann', 'bob']],
      ['gold-medal', ['ann', 'bob']],
      ['bronze-medal', ['cid', 'dan']],
      ['first-to-solve-A', ['ann']],
      ['first-to-solve-B', ['ann']],
    ]);
    expect(awards.find((a) => a.key === 'winner')!.citation).toBe('Contest winner');
    expect(awards.find((a) => a.key === 'bronze-medal')!.citation).toBe('Bronze medal winner');
    expect(awards.find((a) => a.key === 'first-to-solve-A')!.citation).toBe('First to solve problem A');
  });

  it('gives first to solve to everyone within the same second, and none for an unsolved problem', () => {
    const rows = [row('ann', 1, [5, null, null]), row('bob', 2, [5, null, null]), row('cid', 3, [6, null, null])];
    const awards = computeAwards({ standings: { rankingType: 'icpc', problems, rows }, rules: DEFAULT_AWARD_RULES, groupsOf: none });
    expect(awards.find((a) => a.key === 'first-to-solve-A')!.userIds).toEqual(['ann', 'bob']);
    expect(awards.some((a) => a.key.startsWith('first-to-solve-B') || a.key.startsWith('first-to-solve-C'))).toBe(false);
    expect(awards.find((a) => a.key === 'gold-medal')!.userIds).toEqual(['ann', 'bob', 'cid']);
  });

  it('names group winners from the groups, ties all win, and ids stay distinct', () => {
    const rows = [row('ann', 1, [1, 2, 3]), row('bob', 2, [1, 2, null]), row('cid', 2, [4, 5, null]), row('dan', 4, [null, null, null])];
    const groups: Record<string, string[]> = { ann: ['Seniors'], bob: ['Juniors', 'Class A'], cid: ['Juniors', 'class-a'], dan: ['Beginners'] };
    const awards = computeAwards({ standings: { rankingType: 'icpc', problems, rows }, rules: DEFAULT_AWARD_RULES, groupsOf: (u) => groups[u] ?? [] });
    const winners = awards.filter((a) => a.key.startsWith('group-winner-')).map((a) => [a.key, a.citation, a.userIds]);
    // dan solved nothing: Beginners has no winner
    expect(winners).toEqual([
      ['group-winner-class-a', 'Winner of group Class A', ['bob']],
      ['group-winner-class-a-2', 'Winner of group class-a', ['cid']],
      ['group-winner-juniors', 'Winner of group Juniors', ['bob', 'cid']],
      ['group-winner-seniors', 'Winner of group Seniors', ['ann']],
    ]);
    expect(groupKeyPart('Über Klasse 9/b')).toBe('uber-klasse-9-b');
  });

  it('ranks a points contest by points: medals only to rows that scored, first to solve at full marks', () => {
    const rows = [row('ann', 1, [null, 9, null], 150), row('bob', 2, [7, null, null], 100), row('cid', 3, [null, null, null], 0)];
    const awards = computeAwards({ standings: { rankingType: 'points', problems, rows }, rules: { gold: 1, silver: 1, bronze: 1, extraBronze: 0 }, groupsOf: none });
    expect(awards.map((a) => [a.key, a.userIds])).toEqual([
      ['winner', ['ann']],
      ['gold-medal', ['ann']],
      ['silver-medal', ['bob']],
      ['first-to-solve-A', ['bob']],
      ['first-to-solve-B', ['ann']],
    ]);
  });

  it('gives nothing when nobody solved anything', () => {
    const rows = [row('ann', 1, [null, null, null]), row('bob', 1, [null, null, null])];
    expect(computeAwards({ standings: { rankingType: 'icpc', problems, rows }, rules: DEFAULT_AWARD_RULES, groupsOf: () => ['G'] })).toEqual([]);
  });
});
