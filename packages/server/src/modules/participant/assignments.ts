import { asc, eq, sql, type SQLWrapper } from 'drizzle-orm';
import { problems, seriesProblems } from '../../db/schema.js';
import { prepared, type Q } from '../../db/storage.js';

/** What the series list needs of an assignment. */
export interface ListedAssignment {
  id: string;
  seriesId: string;
  slug: string;
  name: string | null;
  problemName: string;
  order: number;
  maxPoints: number | null;
}

/** How many activities' assignment lists are kept; the least recently read goes first. */
const LISTS_KEPT = 64;

/** A value as text with its length before it and -1 for none, so that no two different lists read alike when joined. */
const framed = (c: SQLWrapper) => sql`coalesce(length(${c}), -1) || ':' || coalesce(${c}, '')`;

/** The whole list of an activity as one text (see AssignmentLists), on every series list: built once per `q` (storage.ts, prepared()). */
const listKey = prepared((q) => {
  const sp = seriesProblems;
  return q
    .select({
      key: sql<string | null>`string_agg(${sp.id} || ${sp.seriesId} || ${framed(sp.slug)} || ${framed(sp.name)} || ${framed(problems.name)} || '/' || ${sp.order} || '/' || coalesce(${sp.maxPoints}, -1), ',' ORDER BY ${sp.order}, ${sp.id})`,
    })
    .from(sp)
    .innerJoin(problems, eq(problems.id, sp.problemId))
    .where(eq(sp.activityId, sql.placeholder('activityId')))
    .prepare();
});

/**
 * The assignments of an activity with their problems' names, grouped by series, in order. The
 * series list is the participant's most frequent request and a large course has a few hundred
 * assignments: turning each of their cells into JavaScript cost more than the query. So the
 * database first gives the whole list as one text (every value framed by its length), and the rows
 * are read and grouped only when that text differs from the one kept for the activity; nobody has
 * to tell this cache of a change, as with the ranking's participants.
 */
export class AssignmentLists {
  private readonly kept = new Map<string, { key: string; bySeries: Map<string, ListedAssignment[]> }>();

  async bySeries(q: Q, activityId: string): Promise<Map<string, ListedAssignment[]>> {
    const [row] = await listKey(q, { activityId });
    const key = row?.key ?? '';
    const kept = this.kept.get(activityId);
    if (kept?.key === key) {
      this.kept.delete(activityId);
      this.kept.set(activityId, kept);
      return kept.bySeries;
    }
    const bySeries = await readAssignments(q, activityId);
    this.kept.delete(activityId);
    if (this.kept.size >= LISTS_KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(activityId, { key, bySeries });
    return bySeries;
  }
}

/** The assignments of an activity, grouped by series, in order: one query. */
async function readAssignments(q: Q, activityId: string): Promise<Map<string, ListedAssignment[]>> {
  const rows = await q
    .select({
      id: seriesProblems.id,
      seriesId: seriesProblems.seriesId,
      slug: seriesProblems.slug,
      name: seriesProblems.name,
      problemName: problems.name,
      order: seriesProblems.order,
      maxPoints: seriesProblems.maxPoints,
    })
    .from(seriesProblems)
    .innerJoin(problems, eq(problems.id, seriesProblems.problemId))
    .where(eq(seriesProblems.activityId, activityId))
    .orderBy(asc(seriesProblems.order), asc(seriesProblems.id));
  const out = new Map<string, ListedAssignment[]>();
  for (const r of rows) {
    const list = out.get(r.seriesId);
    if (list) list.push(r);
    else out.set(r.seriesId, [r]);
  }
  return out;
}
