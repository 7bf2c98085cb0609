import type Database from 'better-sqlite3';

/**
 * The one read of the ranking that still runs synchronously: the judging flow builds a result's
 * `rankingChanged` events inside its synchronous SQLite transactions (judging/outcome.ts), where
 * nothing can be awaited. This file goes once that flow runs in `tx.write` and calls
 * `RankingService.resultEventsIn(q, id)` instead; until then it reads what resultEventsIn reads,
 * with the same columns, on the one SQLite connection.
 */
export class SyncResultReader {
  private readonly byId: Database.Statement<[string], SyncResultRow>;
  private readonly member: Database.Statement<[string, string], { n: number }>;

  constructor(sqlite: Database.Database) {
    this.byId = sqlite.prepare(
      `SELECT s.id, s.user_id AS userId, s.activity_id AS activityId, s.series_id AS seriesId, s.series_problem_id AS problemId, sp.slug AS problemSlug,
              s.submitted_at AS submittedAt, s.state, s.verdict, s.score, s.max_score AS maxScore, s.excluded, sp.max_points AS maxPoints,
              se.start_date AS startDate, se.ranking_freeze_at AS rankingFreezeAt, se.ranking_reveal_at AS rankingRevealAt,
              se.ranking_visible_from AS rankingVisibleFrom, se.ranking_visible_to AS rankingVisibleTo,
              a.score_visibility AS scoreVisibility, a.published_at AS publishedAt
       FROM submissions s
       JOIN series_problems sp ON sp.id = s.series_problem_id
       JOIN series se ON se.id = s.series_id
       JOIN activities a ON a.id = s.activity_id
       WHERE s.id = ?`,
    );
    this.member = sqlite.prepare(
      `SELECT count(*) AS n FROM grants g JOIN roles r ON r.id = g.role_id
       WHERE g.activity_id = ? AND g.user_id = ? AND NOT EXISTS (SELECT 1 FROM json_each(r.permissions) WHERE value = 'activity:update')`,
    );
  }

  row(submissionId: string): (Omit<SyncResultRow, 'excluded'> & { excluded: boolean }) | undefined {
    const r = this.byId.get(submissionId);
    return r && { ...r, excluded: r.excluded === 1 };
  }

  isParticipant(activityId: string, userId: string): boolean {
    return (this.member.get(activityId, userId)?.n ?? 0) > 0;
  }
}

interface SyncResultRow {
  id: string;
  userId: string;
  activityId: string;
  seriesId: string;
  problemId: string;
  problemSlug: string;
  submittedAt: string;
  state: string;
  verdict: string | null;
  score: number | null;
  maxScore: number | null;
  excluded: number;
  maxPoints: number | null;
  startDate: string | null;
  rankingFreezeAt: string | null;
  rankingRevealAt: string | null;
  rankingVisibleFrom: string | null;
  rankingVisibleTo: string | null;
  scoreVisibility: string;
  publishedAt: string | null;
}
