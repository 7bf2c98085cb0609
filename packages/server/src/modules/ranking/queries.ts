import { and, asc, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import { grants, problems, roles, series, seriesProblems, submissions, users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
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

/** The submissions that can count: not excluded; failed and cancelled never do. */
const COUNTING = and(inArray(submissions.state, ['queued', 'running', 'completed']), eq(submissions.excluded, false));

/** How a counting submission stands (decisions §9), as an index into KINDS. */
const KIND_SQL = sql<number>`CASE WHEN ${submissions.state} <> 'completed' THEN 0
  WHEN ${submissions.verdict} = 'AC' OR (${submissions.score} IS NOT NULL AND ${submissions.maxScore} > 0 AND ${submissions.score} >= ${submissions.maxScore}) THEN 1
  WHEN ${submissions.verdict} IN ('CE', 'JE') THEN 3 ELSE 2 END`;
const KINDS: readonly Kind[] = ['pending', 'accepted', 'rejected', 'free'];

/**
 * A submission as the model loads it, the outcome classified by SQL: for 50,000 rows turning
 * values into JavaScript (strings above all) costs more than the query.
 */
const SUBMISSION_COLUMNS = {
  userId: submissions.userId,
  assignmentId: submissions.seriesProblemId,
  submittedAt: submissions.submittedAt,
  kind: KIND_SQL.mapWith(Number),
  score: submissions.score,
  maxScore: submissions.maxScore,
};
type SubmissionTuple = { userId: string; assignmentId: string; submittedAt: string; kind: number; score: number | null; maxScore: number | null };

const toCounted = (t: SubmissionTuple): Counted => counted(t.submittedAt, KINDS[t.kind]!, t.score, t.maxScore);

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

/** A value as text with its length before it and -1 for none, so that no two different rows read alike when joined. */
const framed = (c: SQLWrapper) => sql`coalesce(length(${c}), -1) || ':' || coalesce(${c}, '')`;

/**
 * The ranking's reads. The structure (series, assignments, participants) is small and read on
 * every request, so that no other area has to tell the ranking when it changes; the submissions
 * are read once per activity and then one cell at a time.
 */
export class RankingQueries {
  private readonly kept = new Map<string, { key: string; list: readonly Participant[] }>();

  async seriesOf(q: Q, activityId: string): Promise<RankedSeries[]> {
    return q
      .select({
        id: series.id,
        startDate: series.startDate,
        openedAt: series.openedAt,
        rankingFreezeAt: series.rankingFreezeAt,
        rankingRevealAt: series.rankingRevealAt,
        rankingVisibleFrom: series.rankingVisibleFrom,
        rankingVisibleTo: series.rankingVisibleTo,
        importance: series.importance,
        importanceScope: series.importanceScope,
      })
      .from(series)
      .where(eq(series.activityId, activityId))
      .orderBy(asc(series.order), asc(series.id));
  }

  async assignmentsOf(q: Q, activityId: string): Promise<RankedAssignment[]> {
    return q
      .select({
        id: seriesProblems.id,
        seriesId: seriesProblems.seriesId,
        slug: seriesProblems.slug,
        name: sql<string>`coalesce(${seriesProblems.name}, ${problems.name})`,
        maxPoints: seriesProblems.maxPoints,
      })
      .from(seriesProblems)
      .innerJoin(series, eq(series.id, seriesProblems.seriesId))
      .innerJoin(problems, eq(problems.id, seriesProblems.problemId))
      .where(eq(seriesProblems.activityId, activityId))
      .orderBy(asc(series.order), asc(series.id), asc(seriesProblems.order), asc(seriesProblems.id));
  }

  /**
   * The roles that make a member a participant: those that do not manage the activity (as
   * participantCount counts them). Roles are few; their permission lists are read and judged here,
   * once each, rather than by a JSON function that no two engines share.
   */
  private async participantRoles(q: Q): Promise<string[]> {
    const all = await q.select({ id: roles.id, permissions: roles.permissions }).from(roles);
    return all.filter((r) => !r.permissions.includes('activity:update')).map((r) => r.id);
  }

  /**
   * The participants in display order (name, then id), each with its place in it. Kept per
   * activity while the members' text (one string the database builds, compared whole) stays the
   * same: making and sorting a thousand of them by name cost more than the rest of a warm request.
   */
  async participantsOf(q: Q, activityId: string): Promise<readonly Participant[]> {
    const roleIds = await this.participantRoles(q);
    const members = and(eq(grants.activityId, activityId), inArray(grants.roleId, roleIds));
    const [row] = await q
      .select({
        key: sql<string | null>`string_agg(${users.id} || ${framed(users.username)} || ${framed(users.firstName)} || ${framed(users.lastName)}, ',' ORDER BY ${users.id})`,
      })
      .from(grants)
      .innerJoin(users, eq(users.id, grants.userId))
      .where(members);
    const key = row?.key ?? '';
    const kept = this.kept.get(activityId);
    if (kept?.key === key) return kept.list;
    const rows = await q
      .select({ id: users.id, username: users.username, firstName: users.firstName, lastName: users.lastName })
      .from(grants)
      .innerJoin(users, eq(users.id, grants.userId))
      .where(members)
      .orderBy(asc(users.id));
    const list = rows.map((r): Participant => ({ userId: r.id, userName: displayName(r), username: r.username, order: 0 }));
    list.sort(byDisplay);
    list.forEach((p, i) => (p.order = i));
    if (!kept && this.kept.size >= PARTICIPANT_LISTS_KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(activityId, { key, list });
    return list;
  }

  async isParticipant(q: Q, activityId: string, userId: string): Promise<boolean> {
    // the user's own grant first, so that only their role's permissions are read (every report asks)
    const [g] = await q
      .select({ permissions: roles.permissions })
      .from(grants)
      .innerJoin(roles, eq(roles.id, grants.roleId))
      .where(and(eq(grants.activityId, activityId), eq(grants.userId, userId)));
    return !!g && !g.permissions.includes('activity:update');
  }

  /** Loads every counted submission of an activity into `model`, in submission order (by submittedAt, then id). */
  async load(q: Q, activityId: string, model: ActivityModel): Promise<void> {
    const ties: [string, string][] = [];
    // submissions_activity (activity_id, submitted_at) yields them by time without a sort; the rare
    // tie on the instant is ordered by id one cell at a time
    const rows = await q
      .select(SUBMISSION_COLUMNS)
      .from(submissions)
      .where(and(eq(submissions.activityId, activityId), COUNTING))
      .orderBy(asc(submissions.submittedAt));
    for (const t of rows) {
      if (!model.add(t.userId, t.assignmentId, toCounted(t))) ties.push([t.userId, t.assignmentId]);
    }
    for (const [userId, assignmentId] of ties) model.replaceCell(userId, assignmentId, await this.cellOf(q, assignmentId, userId));
  }

  /** One user's counted submissions to one assignment, by submittedAt, then id (submissions_assignment_user; a handful of rows). */
  async cellOf(q: Q, assignmentId: string, userId: string): Promise<Counted[]> {
    const rows = await q
      .select(SUBMISSION_COLUMNS)
      .from(submissions)
      .where(and(eq(submissions.seriesProblemId, assignmentId), eq(submissions.userId, userId), COUNTING))
      .orderBy(asc(submissions.submittedAt), asc(submissions.id));
    return rows.map(toCounted);
  }
}
