import type { RankingCell } from '@judge/contract';
import type { Column, Participant } from './model.js';
import { icpcCell, pointsCell, rank, totals, type CellResult, type Counted, type Entry, type RowTotals } from './standings.js';

/**
 * The award ceremony's steps (decisions §26), as the ICPC resolver takes them: from the frozen
 * standings, the lowest-ranked row with a hidden cell reveals its leftmost one (all of that cell's
 * hidden submissions, up to the first accepted one), and moves up; a row with nothing hidden left
 * is finished, and one holding an award pauses the ceremony. Revealed results only ever add to a
 * row, so a row never moves down and the rows below the one being worked on stay final.
 */

export interface CeremonyRow {
  userId: string;
  userName: string;
  solved: number;
  penalty?: number;
  points?: number;
  /** Equal for rows that share a rank (the rules' tie), so that a screen can number the rows. */
  tie: string;
  cells: RankingCell[];
}

export type CeremonyStep =
  | { kind: 'reveal'; at: number; userId: string; problemId: string; to: number; row: CeremonyRow }
  | { kind: 'award'; at: number; userId: string; awards: string[] };

export interface ResolverInput {
  type: 'icpc' | 'points';
  /** The columns with the freeze's cut-off: what the ceremony starts from. */
  columns: readonly Column[];
  participants: readonly Participant[];
  submissionsOf: (userId: string) => ReadonlyMap<string, readonly Counted[]> | undefined;
  /** The award keys each user holds (the ceremony pauses on their finished row). */
  awards: ReadonlyMap<string, readonly string[]>;
}

function tieOf(type: 'icpc' | 'points', t: RowTotals): string {
  return type === 'icpc' ? `${t.solved}|${t.penalty}|${t.lastAcceptedMs}` : `${t.points}`;
}

/** Walks the ceremony from the frozen standings to the final ones. */
export function resolve(input: ResolverInput): { rows: CeremonyRow[]; steps: CeremonyStep[] } {
  const { type, columns, participants } = input;
  const revealed = new Set<string>();
  const totalsOf = (userId: string): RowTotals => {
    const mine = input.submissionsOf(userId);
    const results: CellResult[] = columns.map((c, i) => {
      const cutoff = revealed.has(`${userId}\n${i}`) ? null : c.cutoff;
      const subs = mine?.get(c.assignmentId);
      return type === 'icpc' ? icpcCell(c.assignmentId, subs, c.startMs, cutoff) : pointsCell(c.assignmentId, subs, c.maxPoints, cutoff);
    });
    return totals(
      results,
      columns.map((c) => c.weight),
    );
  };
  const entries = new Map<string, Entry>(participants.map((p) => [p.userId, { userId: p.userId, userName: p.userName, order: p.order, t: totalsOf(p.userId) }]));
  const rowOf = (e: Entry): CeremonyRow =>
    type === 'icpc'
      ? { userId: e.userId, userName: e.userName, solved: e.t.solved, penalty: e.t.penalty, tie: tieOf(type, e.t), cells: e.t.cells }
      : { userId: e.userId, userName: e.userName, solved: e.t.solved, points: e.t.points, tie: tieOf(type, e.t), cells: e.t.cells };
  // rank() sorts the array it is given: the order of `sorted` is the standings' order
  let sorted = [...entries.values()];
  rank(sorted, type);
  const rows = sorted.map(rowOf);
  const steps: CeremonyStep[] = [];
  for (let at = sorted.length - 1; at >= 0; ) {
    const e = sorted[at]!;
    const hidden = e.t.cells.findIndex((c, i) => c.frozen > 0 && !revealed.has(`${e.userId}\n${i}`));
    if (hidden < 0) {
      const awards = input.awards.get(e.userId);
      if (awards?.length) steps.push({ kind: 'award', at, userId: e.userId, awards: [...awards] });
      at--;
      continue;
    }
    revealed.add(`${e.userId}\n${hidden}`);
    e.t = totalsOf(e.userId);
    sorted = [...sorted];
    rank(sorted, type);
    const to = sorted.indexOf(e);
    steps.push({ kind: 'reveal', at, userId: e.userId, problemId: columns[hidden]!.assignmentId, to, row: rowOf(e) });
  }
  return { rows, steps };
}
