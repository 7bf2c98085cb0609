import type { ParticipantProblem } from '@judge/contract';
import type Database from 'better-sqlite3';

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
  /** The score and scale of the submission holding `best` (SQLite's bare columns of max()). */
  score: number | null;
  maxScore: number | null;
}

type AggregateTuple = [assignmentId: string, attempts: number, best: number | null, score: number | null, maxScore: number | null];

/*
 * SQLite takes the bare columns of an aggregate query with a single max() from the row that
 * holds the maximum (https://sqlite.org/lang_select.html#bareagg): score and max_score below are
 * those of the best submission whenever one counts. When none counts `best` is null and the two
 * are ignored.
 */
const AGGREGATE = `
  SELECT series_problem_id AS assignmentId,
         count(*) AS attempts,
         max(CASE WHEN excluded = 0 AND score IS NOT NULL AND max_score > 0 THEN score / max_score END) AS best,
         score,
         max_score AS maxScore
  FROM submissions`;

/**
 * Every submission of one user in one activity, by assignment (parameters: user id, activity id).
 * submissions_standings (user_id, activity_id, series_problem_id, excluded, score, max_score) answers it
 * from the index alone, in GROUP BY order. Exported for the benchmark, which prints its query plan.
 */
export const STANDINGS_IN_ACTIVITY = `${AGGREGATE} WHERE user_id = ? AND activity_id = ? GROUP BY series_problem_id`;

/**
 * The caller's standing per assignment, read with one grouped query for a whole activity (or for
 * one assignment). Statements are prepared once per database.
 */
export class Standings {
  private readonly inActivityRaw: Database.Statement<[string, string], AggregateTuple>;
  private readonly onAssignment: Database.Statement<[string, string, string], Aggregate>;

  constructor(sqlite: Database.Database) {
    this.inActivityRaw = sqlite.prepare<[string, string], AggregateTuple>(STANDINGS_IN_ACTIVITY).raw(true);
    // the activity lets submissions_standings answer from the index alone, as for a whole activity
    this.onAssignment = sqlite.prepare(`${AGGREGATE} WHERE user_id = ? AND activity_id = ? AND series_problem_id = ? GROUP BY series_problem_id`);
  }

  /** Standings by assignment id; assignments the caller never submitted to are absent (untouched). */
  ofActivity(userId: string, activityId: string): Map<string, Aggregate> {
    // raw rows: better-sqlite3 builds a row object property by property, several times what this literal costs
    const out = new Map<string, Aggregate>();
    for (const r of this.inActivityRaw.all(userId, activityId)) {
      out.set(r[0], { assignmentId: r[0], attempts: r[1], best: r[2], score: r[3], maxScore: r[4] });
    }
    return out;
  }

  ofAssignment(userId: string, activityId: string, assignmentId: string): Aggregate | undefined {
    return this.onAssignment.get(userId, activityId, assignmentId);
  }
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

  constructor(private readonly standings: Standings) {}

  ofActivity(userId: string, activityId: string): ReadonlyMap<string, Aggregate> {
    const key = `${userId}\n${activityId}`;
    let found = this.kept.get(key);
    if (found) this.kept.delete(key);
    else {
      found = this.standings.ofActivity(userId, activityId);
      if (this.kept.size >= STANDINGS_KEPT) this.kept.delete(this.kept.keys().next().value!);
    }
    this.kept.set(key, found);
    return found;
  }

  forget(userId: string, activityId: string): void {
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
