import { eq } from 'drizzle-orm';
import { activities } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import { RankingQueries } from './queries.js';
import { icpcCell, pointsCell, type Counted } from './standings.js';
import { activeFreeze } from './windows.js';

/** One participant's result in an activity (or one assignment of it), as a gradebook takes it. */
export interface Grade {
  given: number;
  maximum: number;
  /** Judged submissions counted, and those still waiting for a verdict. */
  judged: number;
  pending: number;
  /** Set while a freeze hides results the grade would tell: the reveal, or null when none is set. */
  frozenUntil?: string | null;
}

const queries = new RankingQueries();

function bestFraction(subs: readonly Counted[]): number {
  return subs.reduce((best, s) => (s.kind === 'pending' ? best : Math.max(best, s.fraction ?? 0)), 0);
}

/**
 * The ranking's arithmetic for one participant, seen through every freeze and window (decisions
 * §9): icpc gives one point a solved problem of the series that count toward the activity; points
 * gives the ranking's points (an assignment without maxPoints counts 1 for full marks, its best
 * fraction otherwise), weighted by the series' importance. With `assignmentId`, that assignment
 * alone. While a counted series' freeze is in force the grade says until when, for the caller to wait.
 */
export async function gradeOf(q: Q, activityId: string, userId: string, now: string, assignmentId?: string | null): Promise<Grade | undefined> {
  const [a] = await q.select({ rankingType: activities.rankingType }).from(activities).where(eq(activities.id, activityId)).limit(1);
  if (!a) return undefined;
  const all = await queries.seriesOf(q, activityId);
  const counted = new Map(all.filter((s) => (assignmentId ? true : s.importanceScope !== 'none')).map((s) => [s.id, s]));
  const columns = (await queries.assignmentsOf(q, activityId)).filter((p) => counted.has(p.seriesId) && (!assignmentId || p.id === assignmentId));
  const grade: Grade = { given: 0, maximum: 0, judged: 0, pending: 0 };
  const frozen = columns.map((p) => counted.get(p.seriesId)!).filter((s) => activeFreeze(s, now) !== null);
  if (frozen.length) grade.frozenUntil = frozen.some((s) => !s.rankingRevealAt) ? null : frozen.map((s) => s.rankingRevealAt!).sort().at(-1)!;
  for (const p of columns) {
    const s = counted.get(p.seriesId)!;
    const subs = await queries.cellOf(q, p.id, userId);
    grade.pending += subs.filter((x) => x.kind === 'pending').length;
    grade.judged += subs.filter((x) => x.kind !== 'pending').length;
    if (a.rankingType !== 'points') {
      grade.given += icpcCell(p.id, subs, null, null).solved ? 1 : 0;
      grade.maximum += 1;
      continue;
    }
    const weight = assignmentId ? 1 : s.importance;
    grade.given += (p.maxPoints !== null ? pointsCell(p.id, subs, p.maxPoints, null).points : bestFraction(subs)) * weight;
    grade.maximum += (p.maxPoints ?? 1) * weight;
  }
  return grade;
}
