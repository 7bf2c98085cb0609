import type { RankingRow } from '@judge/contract';
import { icpcCell, pointsCell, rank, totals, type CellResult, type Counted, type Entry, type RowTotals } from './standings.js';

/** One problem column as the arithmetic needs it. */
export interface Column {
  assignmentId: string;
  maxPoints: number | null;
  /** Penalty minutes count from here (icpc); null: no start known, 0 minutes. */
  startMs: number | null;
  /** Submissions at or after this instant (RFC 3339) are hidden by a freeze; null: nothing hidden. */
  cutoff: string | null;
  /** Points multiply by this (the series' importance). */
  weight: number;
}

/**
 * What decides every row's totals apart from the submissions: the ranking type and the columns.
 * Callers who see the same structure at the same moment share a spec (and its cached rows).
 */
export interface Spec {
  key: string;
  type: 'icpc' | 'points';
  columns: Column[];
}

export function specOf(type: 'icpc' | 'points', columns: Column[]): Spec {
  const key = `${type}|${columns.map((c) => `${c.assignmentId}:${c.maxPoints}:${c.startMs}:${c.cutoff}:${c.weight}`).join('|')}`;
  return { key, type, columns };
}

export interface Participant {
  userId: string;
  userName: string;
  /** The login, which the ranking gives to staff only (RankingRow.username). */
  username: string;
  /** Place in display order (name, then id) among the participants ranked with it: ties are shown in this order. */
  order: number;
}

/** The ranked rows of one spec for one list of participants, and whether a freeze hid anything. */
export interface Ranked {
  participants: readonly Participant[];
  rows: RankingRow[];
  frozen: boolean;
  /** `rows` as JSON, made once: a new result makes a new Ranked, so this never goes stale. */
  rowsJson?: string;
}

/** How many specs an activity keeps: a freeze or window edge makes a new one; old ones age out. */
const VIEWS_PER_ACTIVITY = 8;

function sameParticipants(a: readonly Participant[], b: readonly Participant[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.userId !== b[i]!.userId || a[i]!.userName !== b[i]!.userName) return false;
  return true;
}

/** The rows of one spec, computed per user on demand and kept until that user's submissions change. */
class View {
  private readonly rows = new Map<string, RowTotals>();
  private ranked: Ranked | undefined;

  constructor(
    readonly spec: Spec,
    private readonly model: ActivityModel,
  ) {}

  forget(userId: string): void {
    this.rows.delete(userId);
    this.ranked = undefined;
  }

  private row(userId: string): RowTotals {
    let t = this.rows.get(userId);
    if (!t) {
      const { type, columns } = this.spec;
      const mine = this.model.submissionsOf(userId);
      const results = new Array<CellResult>(columns.length);
      const weights = new Array<number>(columns.length);
      for (let i = 0; i < columns.length; i++) {
        const c = columns[i]!;
        const subs = mine?.get(c.assignmentId);
        results[i] = type === 'icpc' ? icpcCell(c.assignmentId, subs, c.startMs, c.cutoff) : pointsCell(c.assignmentId, subs, c.maxPoints, c.cutoff);
        weights[i] = c.weight;
      }
      t = totals(results, weights);
      this.rows.set(userId, t);
    }
    return t;
  }

  /** The ranked rows for these participants; reused while neither they nor any of their submissions changed. */
  rank(participants: readonly Participant[]): Ranked {
    if (this.ranked && sameParticipants(this.ranked.participants, participants)) return this.ranked;
    let frozen = false;
    const entries: Entry[] = participants.map((p) => {
      const t = this.row(p.userId);
      if (t.frozen) frozen = true;
      return { userId: p.userId, userName: p.userName, order: p.order, t };
    });
    this.ranked = { participants, rows: rank(entries, this.spec.type), frozen };
    return this.ranked;
  }
}

/**
 * An activity's counted submissions held in memory, by user and assignment in submission order,
 * and the views computed from them. A changed submission replaces its cell's list and drops the
 * rows of its author in every view; nothing else is recomputed.
 */
export class ActivityModel {
  private readonly byUser = new Map<string, Map<string, Counted[]>>();
  private readonly views = new Map<string, View>();

  /**
   * Appends a submission; they must arrive by submittedAt. Answers false when the cell's previous
   * one has the same instant: their order (by id) is then the caller's to settle with replaceCell.
   */
  add(userId: string, assignmentId: string, s: Counted): boolean {
    let mine = this.byUser.get(userId);
    if (!mine) this.byUser.set(userId, (mine = new Map()));
    const list = mine.get(assignmentId);
    if (!list) {
      mine.set(assignmentId, [s]);
      return true;
    }
    list.push(s);
    return list[list.length - 2]!.submittedAt !== s.submittedAt;
  }

  submissionsOf(userId: string): ReadonlyMap<string, readonly Counted[]> | undefined {
    return this.byUser.get(userId);
  }

  /** Replaces one cell's submissions (in submission order) and forgets the author's rows. */
  replaceCell(userId: string, assignmentId: string, subs: Counted[]): void {
    let mine = this.byUser.get(userId);
    if (!mine) this.byUser.set(userId, (mine = new Map()));
    if (subs.length) mine.set(assignmentId, subs);
    else mine.delete(assignmentId);
    for (const v of this.views.values()) v.forget(userId);
  }

  /** Drops every computed view; the submissions stay. */
  forgetViews(): void {
    this.views.clear();
  }

  view(spec: Spec): View {
    let v = this.views.get(spec.key);
    if (v) {
      // most recently used last, so that the oldest is the first key
      this.views.delete(spec.key);
    } else {
      v = new View(spec, this);
      const oldest = this.views.size >= VIEWS_PER_ACTIVITY ? this.views.keys().next().value : undefined;
      if (oldest !== undefined) this.views.delete(oldest);
    }
    this.views.set(spec.key, v);
    return v;
  }
}
