import { firstSolves } from '@judge/sdk/browser';
import type { Ranking, RankingCell } from '@judge/contract';

/** icpc: each rejected attempt before the accepted one adds this many minutes (decisions §9). */
const PENALTY_PER_REJECTION = 20;

export interface Column {
  id: string;
  /** What the header shows: a letter (A, B…) or the problem's slug. */
  label: string;
  name: string;
}

/**
 * The problem columns: letters by order when the table is one series of at most 26 problems (as
 * contests print them), otherwise slugs, since letters would repeat across series.
 */
export function columnsOf(problems: Ranking['problems']): Column[] {
  const oneSeries = new Set(problems.map((p) => p.seriesId)).size <= 1;
  const letters = oneSeries && problems.length <= 26;
  return problems.map((p, i) => ({ id: p.id, label: letters ? String.fromCharCode(65 + i) : p.slug, name: p.name }));
}

/**
 * Who solved each problem first, by the rule the awards and the room's scoreboard use (firstSolves:
 * to the second, ties share it). Returns, per user, the problem ids they were first on, joined by a
 * space, so that a row's props stay a plain string and unchanged rows skip rendering.
 */
export function firstSolvers(ranking: Ranking): Map<string, string> {
  const out = new Map<string, string>();
  for (const [problemId, userIds] of firstSolves(ranking.rows)) for (const u of userIds) out.set(u, out.has(u) ? `${out.get(u)} ${problemId}` : problemId);
  return out;
}

/** icpc: the minute of the accepted submission, taken back out of the cell's penalty. */
export function solveMinute(cell: RankingCell): number | undefined {
  if (!cell.solved || cell.penalty === undefined) return undefined;
  return cell.penalty - PENALTY_PER_REJECTION * (cell.attempts - 1);
}

/** Whether a cell has anything to show. */
export function isTouched(cell: RankingCell): boolean {
  return cell.attempts > 0 || cell.pending > 0 || cell.frozen > 0;
}
