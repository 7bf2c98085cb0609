import type Database from 'better-sqlite3';
import type { Participant } from './model.js';
import { bySubmission, counted, type Counted } from './standings.js';

/** The series columns the ranking reads. */
export interface RankedSeries {
  id: string;
  startDate: string | null;
  openedAt: string | null;
  rankingFreezeAt: string | null;
  rankingRevealAt: string | null;
  rankingVisibleFrom: string | null;
  rankingVisibleTo: string | null;
  importance: number;
  importanceScope: string;
}

export interface RankedAssignment {
  id: string;
  seriesId: string;
  slug: string;
  name: string;
  maxPoints: number | null;
}

interface ParticipantRow {
  id: string;
  username: string;
  firstName: string | null;
  lastName: string | null;
}

/** A submission row as the model loads it; raw arrays, since 50,000 objects with names cost more than the query. */
type SubmissionTuple = [userId: string, assignmentId: string, id: string, submittedAt: string, state: string, verdict: string | null, score: number | null, maxScore: number | null];

/** The submission states that can count; failed and cancelled never do. */
const COUNTING = `state IN ('queued', 'running', 'completed') AND excluded = 0`;

/** "first last", else the login (the ranking's userName). */
export function displayName(r: Pick<ParticipantRow, 'username' | 'firstName' | 'lastName'>): string {
  return [r.firstName?.trim(), r.lastName?.trim()].filter(Boolean).join(' ') || r.username;
}

/**
 * The ranking's reads, prepared once. The structure (series, assignments, participants) is small
 * and read on every request, so that no other area has to tell the ranking when it changes; the
 * submissions are read once per activity and then one cell at a time.
 */
export class RankingQueries {
  private readonly series: Database.Statement<[string], RankedSeries>;
  private readonly assignments: Database.Statement<[string], RankedAssignment>;
  private readonly members: Database.Statement<[string], ParticipantRow>;
  private readonly member: Database.Statement<[string, string], { n: number }>;
  private readonly all: Database.Statement<[string], SubmissionTuple>;
  private readonly cell: Database.Statement<[string, string], SubmissionTuple>;

  constructor(sqlite: Database.Database) {
    this.series = sqlite.prepare(
      `SELECT id, start_date AS startDate, opened_at AS openedAt, ranking_freeze_at AS rankingFreezeAt, ranking_reveal_at AS rankingRevealAt,
              ranking_visible_from AS rankingVisibleFrom, ranking_visible_to AS rankingVisibleTo, importance, importance_scope AS importanceScope
       FROM series WHERE activity_id = ? ORDER BY "order", id`,
    );
    this.assignments = sqlite.prepare(
      `SELECT sp.id, sp.series_id AS seriesId, sp.slug, coalesce(sp.name, p.name) AS name, sp.max_points AS maxPoints
       FROM series_problems sp JOIN series s ON s.id = sp.series_id JOIN problems p ON p.id = sp.problem_id
       WHERE sp.activity_id = ? ORDER BY s."order", s.id, sp."order", sp.id`,
    );
    // participants: members whose role does not manage the activity (as participantCount counts them);
    // the roles are judged once each, not once per grant
    const participantRoles = `SELECT r.id FROM roles r WHERE NOT EXISTS (SELECT 1 FROM json_each(r.permissions) WHERE value = 'activity:update')`;
    this.members = sqlite.prepare(
      `SELECT u.id, u.username, u.first_name AS firstName, u.last_name AS lastName
       FROM grants g JOIN users u ON u.id = g.user_id
       WHERE g.activity_id = ? AND g.role_id IN (${participantRoles}) ORDER BY u.id`,
    );
    this.member = sqlite.prepare(`SELECT count(*) AS n FROM grants g WHERE g.activity_id = ? AND g.user_id = ? AND g.role_id IN (${participantRoles})`);
    // submissions_activity (activity_id, submitted_at) yields them in submission order
    this.all = sqlite
      .prepare<[string], SubmissionTuple>(
        `SELECT user_id, series_problem_id, id, submitted_at, state, verdict, score, max_score FROM submissions
         WHERE activity_id = ? AND ${COUNTING} ORDER BY submitted_at, id`,
      )
      .raw(true);
    // submissions_assignment_user (series_problem_id, user_id)
    this.cell = sqlite
      .prepare<[string, string], SubmissionTuple>(
        `SELECT user_id, series_problem_id, id, submitted_at, state, verdict, score, max_score FROM submissions
         WHERE series_problem_id = ? AND user_id = ? AND ${COUNTING}`,
      )
      .raw(true);
  }

  seriesOf(activityId: string): RankedSeries[] {
    return this.series.all(activityId);
  }

  assignmentsOf(activityId: string): RankedAssignment[] {
    return this.assignments.all(activityId);
  }

  participantsOf(activityId: string): Participant[] {
    return this.members.all(activityId).map((r) => ({ userId: r.id, userName: displayName(r) }));
  }

  isParticipant(activityId: string, userId: string): boolean {
    return (this.member.get(activityId, userId)?.n ?? 0) > 0;
  }

  /** Every counted submission of the activity, in submission order. */
  eachCounted(activityId: string, fn: (userId: string, assignmentId: string, s: Counted) => void): void {
    for (const [userId, assignmentId, id, at, state, verdict, score, maxScore] of this.all.iterate(activityId)) {
      const c = counted(id, at, state, verdict, score, maxScore);
      if (c) fn(userId, assignmentId, c);
    }
  }

  /** One user's counted submissions to one assignment, in submission order. */
  cellOf(assignmentId: string, userId: string): Counted[] {
    const out: Counted[] = [];
    for (const [, , id, at, state, verdict, score, maxScore] of this.cell.all(assignmentId, userId)) {
      const c = counted(id, at, state, verdict, score, maxScore);
      if (c) out.push(c);
    }
    return out.sort(bySubmission);
  }
}
