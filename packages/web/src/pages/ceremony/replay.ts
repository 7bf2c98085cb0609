import type { Ceremony, CeremonyRow, CeremonyStep } from '@judge/contract';

/** A row as the ceremony shows it after some steps: numbered, and whether it is final yet. */
export interface ShownRow extends CeremonyRow {
  rank: number;
  /** Below the row being worked on: nothing of it is hidden any more. */
  done: boolean;
}

export interface Scene {
  rows: ShownRow[];
  /** The position being worked on (-1: all done); rows below it are final. */
  at: number;
  /** The step just taken, if any: its row (and cell) is highlighted, an award step shows its citations. */
  last: CeremonyStep | undefined;
}

/** Numbers rows 1, 1, 3: equal tie keys share the rank of the first of them. */
function numbered(rows: CeremonyRow[], at: number): ShownRow[] {
  let place = 0;
  return rows.map((r, i) => {
    if (i === 0 || rows[i - 1]!.tie !== r.tie) place = i + 1;
    return { ...r, rank: place, done: i > at };
  });
}

/**
 * The standings after `n` steps. Every screen computes them from the same payload, so a screen
 * following the presenter by step number shows exactly the presenter's rows.
 */
export function sceneAt(c: Pick<Ceremony, 'rows' | 'steps'>, n: number): Scene {
  const count = Math.max(0, Math.min(n, c.steps.length));
  const rows = [...c.rows];
  for (let i = 0; i < count; i++) {
    const s = c.steps[i]!;
    if (s.kind !== 'reveal') continue;
    rows.splice(s.at, 1);
    rows.splice(s.to, 0, s.row);
  }
  const next = c.steps[count];
  // before the next step, the rows below its position are final; after the last step all are
  const at = next ? next.at : -1;
  return { rows: numbered(rows, at), at, last: count > 0 ? c.steps[count - 1] : undefined };
}

/**
 * The first step at which the position being worked on is above `rank` (1-based): what
 * "fast-forward to rank N" jumps to, so that the top N rows are then revealed one step at a time.
 */
export function stepBeforeRank(c: Pick<Ceremony, 'steps'>, rank: number): number {
  const i = c.steps.findIndex((s) => s.at < rank);
  return i < 0 ? c.steps.length : i;
}
