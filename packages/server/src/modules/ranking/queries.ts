import type Database from 'better-sqlite3';
import type { ActivityModel, Participant } from './model.js';
import { counted, type Counted, type Kind } from './standings.js';

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

/**
 * A submission row as the model loads it: raw arrays, and the outcome classified by SQL, since
 * for 50,000 rows turning values into JavaScript (strings above all) costs more than the query.
 */
type SubmissionTuple = [userId: string, assignmentId: string, submittedAt: string, kind: number, score: number | null, maxScore: number | null];

/** The submissions that can count: not excluded; failed and cancelled never do. */
const COUNTING = `state IN ('queued', 'running', 'completed') AND excluded = 0`;

/** How a counting submission stands (decisions §9), as an index into KINDS. */
const KIND_SQL = `CASE WHEN state <> 'completed' THEN 0
  WHEN verdict = 'AC' OR (score IS NOT NULL AND max_score > 0 AND score >= max_score) THEN 1
  WHEN verdict IN ('CE', 'JE') THEN 3 ELSE 2 END`;
const KINDS: readonly Kind[] = ['pending', 'accepted', 'rejected', 'free'];

const SUBMISSION_COLUMNS = `user_id, series_problem_id, submitted_at, ${KIND_SQL}, score, max_score`;

const toCounted = (t: SubmissionTuple): Counted => counted(t[2], KINDS[t[3]]!, t[4], t[5]);

/** Participant lists kept (see participantsOf), as many as the activities whose submissions stay in memory. */
const PARTICIPANT_LISTS_KEPT = 32;

const names = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Display order: by name as people read it, then by id. */
function byDisplay(a: Participant, b: Participant): number {
  return names.compare(a.userName, b.userName) || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);
}

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
  private readonly membersKey: Database.Statement<[string], string | null>;
  private readonly kept = new Map<string, { key: string; list: readonly Participant[] }>();
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
    // the same rows as one text, every value quoted (so nothing two different lists give can match)
    this.membersKey = sqlite
      .prepare<[string], string | null>(
        `SELECT group_concat(quote(u.id) || quote(u.username) || quote(u.first_name) || quote(u.last_name), ',' ORDER BY u.id)
         FROM grants g JOIN users u ON u.id = g.user_id
         WHERE g.activity_id = ? AND g.role_id IN (${participantRoles})`,
      )
      .pluck(true);
    // the user's own grants first, so that only their roles' permissions are read (every report asks)
    this.member = sqlite.prepare(
      `SELECT count(*) AS n FROM grants g JOIN roles r ON r.id = g.role_id
       WHERE g.activity_id = ? AND g.user_id = ? AND NOT EXISTS (SELECT 1 FROM json_each(r.permissions) WHERE value = 'activity:update')`,
    );
    // submissions_activity (activity_id, submitted_at) yields them by time without a sort; the rare
    // tie on the instant is ordered by id one cell at a time (see eachCounted)
    this.all = sqlite.prepare<[string], SubmissionTuple>(`SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE activity_id = ? AND ${COUNTING} ORDER BY submitted_at`).raw(true);
    // submissions_assignment_user (series_problem_id, user_id); a handful of rows to sort
    this.cell = sqlite
      .prepare<[string, string], SubmissionTuple>(`SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE series_problem_id = ? AND user_id = ? AND ${COUNTING} ORDER BY submitted_at, id`)
      .raw(true);
  }

  seriesOf(activityId: string): RankedSeries[] {
    return this.series.all(activityId);
  }

  assignmentsOf(activityId: string): RankedAssignment[] {
    return this.assignments.all(activityId);
  }

  /**
   * The participants in display order (name, then id), each with its place in it. Kept per
   * activity while the members' text (one string SQLite builds, compared whole) stays the same:
   * making and sorting a thousand of them by name cost more than the rest of a warm request.
   */
  participantsOf(activityId: string): readonly Participant[] {
    const key = this.membersKey.get(activityId) ?? '';
    const kept = this.kept.get(activityId);
    if (kept?.key === key) return kept.list;
    const list = this.members.all(activityId).map((r): Participant => ({ userId: r.id, userName: displayName(r), username: r.username, order: 0 }));
    list.sort(byDisplay);
    list.forEach((p, i) => (p.order = i));
    if (!kept && this.kept.size >= PARTICIPANT_LISTS_KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(activityId, { key, list });
    return list;
  }

  isParticipant(activityId: string, userId: string): boolean {
    return (this.member.get(activityId, userId)?.n ?? 0) > 0;
  }

  /** Loads every counted submission of an activity into `model`, in submission order (by submittedAt, then id). */
  load(activityId: string, model: ActivityModel): void {
    const ties: [string, string][] = [];
    // row by row: each tuple dies young instead of surviving (and being copied) until the last is read
    for (const t of this.all.iterate(activityId)) {
      if (!model.add(t[0], t[1], toCounted(t))) ties.push([t[0], t[1]]);
    }
    for (const [userId, assignmentId] of ties) model.replaceCell(userId, assignmentId, this.cellOf(assignmentId, userId));
  }

  /** One user's counted submissions to one assignment, by submittedAt, then id. */
  cellOf(assignmentId: string, userId: string): Counted[] {
    return this.cell.all(assignmentId, userId).map(toCounted);
  }
}
