import type Database from 'better-sqlite3';
import type { Aggregate } from './status.js';

/*
 * The one read of the participant's standings that still runs synchronously, and nothing in this
 * area uses it: the judging flow tells the author their new standing from inside its synchronous
 * SQLite transactions (judging/outcome.ts, judging/sync-bridge.ts), where nothing can be awaited.
 * This file goes once that flow calls `standingOnAssignment(q, …)` (status.ts) instead.
 */

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
 * from the index alone, in GROUP BY order.
 */
const STANDINGS_IN_ACTIVITY = `${AGGREGATE} WHERE user_id = ? AND activity_id = ? GROUP BY series_problem_id`;

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
