import type { RankingCell, RankingRow } from '@judge/contract';

/**
 * The arithmetic of the ranking (decisions §9), free of storage and permissions: how a submission
 * counts, what a cell and a row add up to, and how rows are ordered and ranked.
 */

/** How a counted submission stands. `free`: rejected without penalty (CE, JE). */
export type Kind = 'pending' | 'accepted' | 'rejected' | 'free';

/**
 * A submission that counts for the ranking: not excluded, and queued, running or completed (failed
 * and cancelled ones never count). Pending while queued or running; accepted when completed with
 * AC or full marks (score ≥ maxScore > 0); otherwise rejected, without penalty for CE and JE.
 * The queries classify rows in SQL (KIND_SQL), so that loading a large activity moves numbers
 * rather than strings.
 */
export interface Counted {
  /** RFC 3339 UTC with milliseconds: compares as it reads, so the freeze cut-off is a string comparison. */
  submittedAt: string;
  kind: Kind;
  /** score ÷ maxScore on a positive scale; without one, 1 when accepted and 0 when not; null while pending. */
  fraction: number | null;
  /** The runner's own score, for assignments without maxPoints. */
  raw: number | null;
}

const PENALTY_MINUTES = 20;
const MINUTE_MS = 60_000;

export function counted(submittedAt: string, kind: Kind, score: number | null, maxScore: number | null): Counted {
  if (kind === 'pending') return { submittedAt, kind, fraction: null, raw: null };
  const scaled = score !== null && maxScore !== null && maxScore > 0;
  const fraction = scaled ? score / maxScore : kind === 'accepted' ? 1 : 0;
  const raw = score ?? (kind === 'accepted' ? (maxScore ?? 1) : 0);
  return { submittedAt, kind, fraction, raw };
}

/** What one cell contributes to its row, with the cell as the wire shows it. */
export interface CellResult {
  cell: RankingCell;
  solved: boolean;
  penalty: number;
  points: number;
  /** The accepted submission's time (icpc), for the tie-break on the last accepted time; 0 when unsolved. */
  solvedMs: number;
  frozen: number;
}

/**
 * icpc: solved at the first accepted submission; everything after it is ignored. Before it, each
 * rejected submission (CE and JE aside) is an attempt worth 20 minutes once solved; submissions
 * at or after `cutoff` (the freeze) are only counted as frozen.
 */
export function icpcCell(problemId: string, subs: readonly Counted[] | undefined, startMs: number | null, cutoff: string | null): CellResult {
  let rejected = 0;
  let pending = 0;
  let frozen = 0;
  let accepted: Counted | undefined;
  for (const s of subs ?? []) {
    if (cutoff !== null && s.submittedAt >= cutoff) frozen++;
    else if (s.kind === 'pending') pending++;
    else if (s.kind === 'rejected') rejected++;
    else if (s.kind === 'accepted') {
      accepted = s;
      break;
    }
  }
  if (!accepted) {
    return { cell: { problemId, attempts: rejected, solved: false, pending, frozen }, solved: false, penalty: 0, points: 0, solvedMs: 0, frozen };
  }
  const solvedMs = Date.parse(accepted.submittedAt);
  const minutes = startMs === null ? 0 : Math.max(0, Math.floor((solvedMs - startMs) / MINUTE_MS));
  const penalty = minutes + PENALTY_MINUTES * rejected;
  return {
    cell: { problemId, attempts: rejected + 1, solved: true, penalty, solvedAt: accepted.submittedAt, pending, frozen },
    solved: true,
    penalty,
    points: 0,
    solvedMs,
    frozen,
  };
}

/**
 * points: the best judged outcome before the freeze cut-off, rescaled to the assignment's
 * maxPoints when it has them (round(fraction × maxPoints)), else the runner's own score of that
 * submission. Solved at full marks; solvedAt is the first submission that reached them.
 */
export function pointsCell(problemId: string, subs: readonly Counted[] | undefined, maxPoints: number | null, cutoff: string | null): CellResult {
  let judged = 0;
  let pending = 0;
  let frozen = 0;
  let best: Counted | undefined;
  let full: Counted | undefined;
  for (const s of subs ?? []) {
    if (cutoff !== null && s.submittedAt >= cutoff) frozen++;
    else if (s.kind === 'pending') pending++;
    else {
      judged++;
      const f = s.fraction!;
      // a tie on the fraction keeps the larger raw score: the scale may differ between rejudges
      if (!best || f > best.fraction! || (f === best.fraction && s.raw! > best.raw!)) best = s;
      if (!full && f >= 1) full = s;
    }
  }
  if (!best) {
    return { cell: { problemId, attempts: judged, solved: false, pending, frozen }, solved: false, penalty: 0, points: 0, solvedMs: 0, frozen };
  }
  const points = maxPoints !== null ? Math.round(best.fraction! * maxPoints) : best.raw!;
  const solved = !!full;
  const cell: RankingCell = { problemId, attempts: judged, solved, points, pending, frozen };
  if (full) cell.solvedAt = full.submittedAt;
  return { cell, solved, penalty: 0, points, solvedMs: 0, frozen };
}

/** A row's totals before ranking. */
export interface RowTotals {
  solved: number;
  penalty: number;
  points: number;
  /** The latest accepted time among solved cells (icpc tie-break); 0 when none. */
  lastAcceptedMs: number;
  /** Some submission of the row is hidden by a freeze. */
  frozen: boolean;
  cells: RankingCell[];
}

/** Adds up a row; `weight` multiplies each cell's points (the series' importance). */
export function totals(results: readonly CellResult[], weights: readonly number[]): RowTotals {
  const out: RowTotals = { solved: 0, penalty: 0, points: 0, lastAcceptedMs: 0, frozen: false, cells: new Array<RankingCell>(results.length) };
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!;
    out.cells[i] = r.cell;
    if (r.frozen) out.frozen = true;
    out.points += r.points * weights[i]!;
    if (!r.solved) continue;
    out.solved++;
    out.penalty += r.penalty;
    if (r.solvedMs > out.lastAcceptedMs) out.lastAcceptedMs = r.solvedMs;
  }
  return out;
}

export interface Entry {
  userId: string;
  userName: string;
  /** Place in display order (name, then id): how tied rows are shown. */
  order: number;
  t: RowTotals;
}

/** Same place in the standings: the rules' tie (icpc: solved, penalty, last accepted time; points: points). */
function sameIcpc(a: RowTotals, b: RowTotals): boolean {
  return a.solved === b.solved && a.penalty === b.penalty && a.lastAcceptedMs === b.lastAcceptedMs;
}
function samePoints(a: RowTotals, b: RowTotals): boolean {
  return a.points === b.points;
}

function display(a: Entry, b: Entry): number {
  return a.order - b.order;
}

/**
 * Orders and ranks the rows: icpc by solved desc, penalty asc, then the earlier last accepted
 * time; points by points desc. Tied rows share a rank (1, 1, 3) and are shown by name, then id.
 */
export function rank(entries: Entry[], type: 'icpc' | 'points'): RankingRow[] {
  const icpc = type === 'icpc';
  entries.sort((a, b) => {
    const x = a.t;
    const y = b.t;
    const c = icpc ? y.solved - x.solved || x.penalty - y.penalty || x.lastAcceptedMs - y.lastAcceptedMs : y.points - x.points;
    return c || display(a, b);
  });
  const same = icpc ? sameIcpc : samePoints;
  const rows = new Array<RankingRow>(entries.length);
  let place = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (i === 0 || !same(entries[i - 1]!.t, e.t)) place = i + 1;
    rows[i] = icpc
      ? { rank: place, userId: e.userId, userName: e.userName, solved: e.t.solved, penalty: e.t.penalty, cells: e.t.cells }
      : { rank: place, userId: e.userId, userName: e.userName, solved: e.t.solved, points: e.t.points, cells: e.t.cells };
  }
  return rows;
}
