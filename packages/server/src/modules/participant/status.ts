import type { ParticipantProblem } from '@judge/contract';
import { and, count, eq } from 'drizzle-orm';
import { submissions } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';

export type ProblemStatus = ParticipantProblem['status'];

/** Where a participant stands on one assignment, as the participant's views show it. */
export interface Standing {
  status: ProblemStatus;
  bestScore?: number;
  maxScore?: number;
  attempts: number;
}

/**
 * One caller's submissions to one assignment, summed up by SQL: how many there are, and the best
 * outcome among those that count. A submission row carries its newest attempt's outcome; it
 * counts toward the best when it is not excluded and has a score on a positive scale.
 */
export interface Aggregate {
  assignmentId: string;
  attempts: number;
  /** The best score ÷ maxScore, or null when no submission counts. */
  best: number | null;
  /** The score and scale of a submission holding `best`. */
  score: number | null;
  maxScore: number | null;
}

/**
 * One caller's submissions in one activity, grouped by assignment and outcome: the columns of
 * submissions_standings (user_id, activity_id, series_problem_id, excluded, score, max_score) in
 * its order, so that the index alone answers it. Identical outcomes come as one row with their
 * count; the best of each assignment is picked in code (`aggregates`), as no portable SQL takes
 * the other columns of the row holding a max(). Exported for the benchmark, which prints its plan.
 */
export function standingsQuery(q: Q, userId: string, activityId: string, assignmentId?: string) {
  return q
    .select({
      assignmentId: submissions.seriesProblemId,
      excluded: submissions.excluded,
      score: submissions.score,
      maxScore: submissions.maxScore,
      n: count(),
    })
    .from(submissions)
    .where(
      and(
        eq(submissions.userId, userId),
        eq(submissions.activityId, activityId),
        assignmentId === undefined ? undefined : eq(submissions.seriesProblemId, assignmentId),
      ),
    )
    .groupBy(submissions.seriesProblemId, submissions.excluded, submissions.score, submissions.maxScore);
}

type OutcomeCount = Awaited<ReturnType<typeof standingsQuery>>[number];

/**
 * Sums the grouped outcomes up by assignment: every submission is an attempt; one counts toward the
 * best when it is not excluded and has a score on a positive scale. Of equal bests the first met
 * is kept (the score and scale shown are of one submission holding the best).
 */
function aggregates(rows: readonly OutcomeCount[]): Map<string, Aggregate> {
  const out = new Map<string, Aggregate>();
  for (const r of rows) {
    let agg = out.get(r.assignmentId);
    if (!agg) out.set(r.assignmentId, (agg = { assignmentId: r.assignmentId, attempts: 0, best: null, score: null, maxScore: null }));
    agg.attempts += r.n;
    if (r.excluded || r.score === null || r.maxScore === null || !(r.maxScore > 0)) continue;
    const fraction = r.score / r.maxScore;
    if (agg.best === null || fraction > agg.best) Object.assign(agg, { best: fraction, score: r.score, maxScore: r.maxScore });
  }
  return out;
}

/** Standings by assignment id; assignments the caller never submitted to are absent (untouched). */
export async function standingsInActivity(q: Q, userId: string, activityId: string): Promise<Map<string, Aggregate>> {
  return aggregates(await standingsQuery(q, userId, activityId));
}

/** The caller's standing on one assignment; the activity lets submissions_standings answer from the index alone. */
export async function standingOnAssignment(q: Q, userId: string, activityId: string, assignmentId: string): Promise<Aggregate | undefined> {
  return aggregates(await standingsQuery(q, userId, activityId, assignmentId)).get(assignmentId);
}

/** How many (caller, activity) standings the series list keeps; the least recently read goes first. */
const STANDINGS_KEPT = 1024;

/**
 * The series list's standings, kept per caller and activity until one of the caller's submissions
 * there changes: the judging flow tells `forget` after every commit that touches a submission
 * (created, judged, rejudged, cancelled, excluded), as it tells the ranking. Grouping a very
 * active participant's submissions is most of what a series list costs.
 */
export class StandingsCache {
  private readonly kept = new Map<string, Map<string, Aggregate>>();
  /** How many times anything was forgotten: a read that saw it change meanwhile keeps nothing (it may be older than the change). */
  private forgets = 0;

  async ofActivity(q: Q, userId: string, activityId: string): Promise<ReadonlyMap<string, Aggregate>> {
    const key = `${userId}\n${activityId}`;
    const found = this.kept.get(key);
    if (found) {
      this.kept.delete(key);
      this.kept.set(key, found);
      return found;
    }
    const before = this.forgets;
    const fresh = await standingsInActivity(q, userId, activityId);
    if (before === this.forgets) {
      if (this.kept.size >= STANDINGS_KEPT) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(key, fresh);
    }
    return fresh;
  }

  forget(userId: string, activityId: string): void {
    this.forgets++;
    this.kept.delete(`${userId}\n${activityId}`);
  }
}

/**
 * What a participant is shown (decisions §9): no submissions is untouched; a best outcome at full
 * marks is solved, above nothing partial, otherwise attempted. The score is rescaled to the
 * assignment's maxPoints when it has them (round(score / maxScore × maxPoints)), else it is the
 * runner's own.
 */
export function standingOf(agg: Aggregate | undefined, maxPoints: number | null): Standing {
  if (!agg || agg.attempts === 0) return { status: 'untouched', attempts: 0 };
  const { best, attempts } = agg;
  const status: ProblemStatus = best === null ? 'attempted' : best >= 1 ? 'solved' : best > 0 ? 'partial' : 'attempted';
  if (best === null) return { status, attempts };
  if (maxPoints !== null) return { status, attempts, bestScore: Math.round(best * maxPoints), maxScore: maxPoints };
  // the runner's own figures; either may be missing (the wire omits it)
  const out: Standing = { status, attempts };
  if (agg.score !== null) out.bestScore = agg.score;
  if (agg.maxScore !== null) out.maxScore = agg.maxScore;
  return out;
}
