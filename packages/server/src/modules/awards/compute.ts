import { firstSolves, type Ranking, type RankingRow } from '@judge/contract';
import type { AwardRules } from '../../db/schema.js';
import { medalOf } from '../ranking/index.js';

/**
 * The awards of final standings (decisions §24), free of storage: who wins, the medals, the first
 * to solve each problem and the winners of each group. Keys are CLICS award ids; citations are
 * English, as the ICPC words them.
 */

export interface ComputedAward {
  key: string;
  citation: string;
  userIds: string[];
}

export interface AwardInput {
  standings: Pick<Ranking, 'rankingType' | 'problems' | 'rows'>;
  rules: AwardRules;
  /** A participant's groups (their user tags but org:NAME). */
  groupsOf: (userId: string) => readonly string[];
}

const MEDALS = [
  ['gold', 'Gold medal winner'],
  ['silver', 'Silver medal winner'],
  ['bronze', 'Bronze medal winner'],
] as const;

/** A row that earned something: solved a problem (icpc) or scored (points). Nobody wins on nothing. */
function earned(r: RankingRow, type: Ranking['rankingType']): boolean {
  return type === 'points' ? (r.points ?? 0) > 0 : r.solved > 0;
}

/** The users of the best-ranked rows (ties all win), none when the list is empty. */
function best(rows: readonly RankingRow[]): string[] {
  const top = rows[0]?.rank;
  return top === undefined ? [] : rows.filter((r) => r.rank === top).map((r) => r.userId);
}

/** A group name as part of a CLICS id: lower case, letters, digits, dots, dashes and underscores. */
export function groupKeyPart(group: string): string {
  return (
    group
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'group'
  );
}

/** First to solve each problem, in column order (the rule of `firstSolves`). */
function firstToSolve(standings: AwardInput['standings']): ComputedAward[] {
  const first = firstSolves(standings.rows);
  return standings.problems.flatMap((p) => {
    const userIds = first.get(p.id) ?? [];
    return userIds.length ? [{ key: `first-to-solve-${p.slug}`, citation: `First to solve problem ${p.slug}`, userIds }] : [];
  });
}

/** Group winners, by group name: the best-ranked rows of the group's members who earned anything. */
function groupWinners(eligible: readonly RankingRow[], groupsOf: AwardInput['groupsOf']): ComputedAward[] {
  const members = new Map<string, RankingRow[]>();
  for (const r of eligible) {
    for (const g of groupsOf(r.userId)) {
      const list = members.get(g) ?? [];
      list.push(r);
      members.set(g, list);
    }
  }
  const used = new Set<string>();
  return [...members.keys()]
    .sort((a, b) => a.localeCompare(b, 'en'))
    .map((g) => {
      // two names that read alike as ids (Class A, class-a) still get an id each
      let key = `group-winner-${groupKeyPart(g)}`;
      for (let n = 2; used.has(key); n++) key = `group-winner-${groupKeyPart(g)}-${n}`;
      used.add(key);
      return { key, citation: `Winner of group ${g}`, userIds: best(members.get(g)!) };
    });
}

/** Every award of the standings, in the order they are listed and presented. */
export function computeAwards(input: AwardInput): ComputedAward[] {
  const { standings, rules, groupsOf } = input;
  const eligible = standings.rows.filter((r) => earned(r, standings.rankingType));
  const out: ComputedAward[] = [];
  const winners = best(eligible);
  if (winners.length) out.push({ key: 'winner', citation: 'Contest winner', userIds: winners });
  for (const [medal, citation] of MEDALS) {
    const userIds = eligible.filter((r) => medalOf(r.rank, rules) === medal).map((r) => r.userId);
    if (userIds.length) out.push({ key: `${medal}-medal`, citation, userIds });
  }
  out.push(...firstToSolve(standings));
  out.push(...groupWinners(eligible, groupsOf));
  return out;
}
