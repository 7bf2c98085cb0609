import { and, asc, count, eq, inArray, max, sql } from 'drizzle-orm';
import type { ActivityAward } from '@judge/contract';
import { activityAwards, questions, series, submissions, users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import { newId } from '../../util.js';
import { unanswered } from '../questions/index.js';
import { displayName } from '../users/index.js';
import type { ComputedAward } from './compute.js';

type AwardRow = typeof activityAwards.$inferSelect;

/** Submissions that will count once judged (queued or running, not excluded): finalising waits for them. */
export async function unjudgedCount(q: Q, activityId: string): Promise<number> {
  const [r] = await q
    .select({ n: count() })
    .from(submissions)
    .where(and(eq(submissions.activityId, activityId), inArray(submissions.state, ['queued', 'running']), eq(submissions.excluded, false)));
  return r?.n ?? 0;
}

export async function unansweredCount(q: Q, activityId: string): Promise<number> {
  const [r] = await q.select({ n: count() }).from(questions).where(and(eq(questions.activityId, activityId), unanswered()));
  return r?.n ?? 0;
}

/** The last end of the activity's series, and whether one of them never ends (then null). */
export async function lastSeriesEnd(q: Q, activityId: string): Promise<string | null> {
  const [r] = await q
    .select({ last: max(series.endDate), open: sql<number>`sum(CASE WHEN ${series.endDate} IS NULL THEN 1 ELSE 0 END)`.mapWith(Number) })
    .from(series)
    .where(eq(series.activityId, activityId));
  return r && !r.open ? (r.last ?? null) : null;
}

/** The user tags of the given users, by id. */
export async function tagsOf(q: Q, userIds: readonly string[]): Promise<Map<string, string[]>> {
  if (!userIds.length) return new Map();
  const rows = await q.select({ id: users.id, tags: users.tags }).from(users).where(inArray(users.id, [...userIds]));
  return new Map(rows.map((r) => [r.id, r.tags]));
}

export function awardRows(q: Q, activityId: string): Promise<AwardRow[]> {
  return q.select().from(activityAwards).where(eq(activityAwards.activityId, activityId)).orderBy(asc(activityAwards.position));
}

/**
 * Replaces the activity's awards with `computed`. A citation staff adjusted stays with its key
 * while the key is still awarded; awards no longer earned go.
 */
export async function storeAwards(q: Q, activityId: string, computed: readonly ComputedAward[], now: string): Promise<void> {
  const adjusted = new Map((await awardRows(q, activityId)).filter((r) => r.adjusted).map((r) => [r.key, r.citation]));
  await q.delete(activityAwards).where(eq(activityAwards.activityId, activityId));
  if (!computed.length) return;
  await q.insert(activityAwards).values(
    computed.map((c, position) => {
      const kept = adjusted.get(c.key);
      return { id: newId(), activityId, key: c.key, citation: kept ?? c.citation, userIds: c.userIds, position, adjusted: kept !== undefined, createdAt: now };
    }),
  );
}

/** The awards as the wire shows them, each with its awardees' display names. */
export async function toAwards(q: Q, rows: readonly AwardRow[]): Promise<ActivityAward[]> {
  const ids = [...new Set(rows.flatMap((r) => r.userIds))];
  const found = ids.length
    ? await q.select({ id: users.id, username: users.username, firstName: users.firstName, lastName: users.lastName }).from(users).where(inArray(users.id, ids))
    : [];
  const names = new Map(found.map((u) => [u.id, displayName(u)]));
  return rows.map((r) => ({ key: r.key, citation: r.citation, userIds: r.userIds, userNames: r.userIds.map((id) => names.get(id) ?? id), adjusted: r.adjusted }));
}
