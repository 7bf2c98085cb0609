import { and, asc, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { EventData } from '@judge/contract';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import { activities, series, seriesProblems, problems } from '../../db/schema.js';
import { event } from '../../events/bus.js';
import type { Deps } from '../../services.js';
import { compact, iso } from '../../util.js';
import { managerAudience, type ActivityRow } from '../policy/index.js';

export type SeriesRow = typeof series.$inferSelect;
export type SeriesChange = EventData<'seriesChanged'>['change'];

/** A series the clock opened or closed. */
export interface SeriesTransition {
  activityId: string;
  seriesId: string;
  change: 'opened' | 'closed';
}

/** Open by its dates and not paused at `now` (decisions §7). */
export function shouldBeOpen(s: Pick<SeriesRow, 'startDate' | 'endDate' | 'pausedAt'>, now: Date): boolean {
  const t = iso(now);
  return !s.pausedAt && (!s.startDate || s.startDate <= t) && (!s.endDate || s.endDate > t);
}

/**
 * Problems of a series are shown to participants when it is open; while paused unless hidden; and
 * after it ended, once it had opened, unless the activity hides ended series. Never before it opened.
 */
export function problemsVisible(s: Pick<SeriesRow, 'openedAt' | 'isOpen' | 'pausedAt' | 'hideProblemsWhilePaused'>, a: Pick<ActivityRow, 'hideEndedSeriesProblems'>): boolean {
  if (!s.openedAt) return false;
  if (s.isOpen) return true;
  if (s.pausedAt) return !s.hideProblemsWhilePaused;
  return !a.hideEndedSeriesProblems;
}

/** Submissions are taken while open and not paused. */
export function acceptsSubmissions(s: SeriesRow): boolean {
  return s.isOpen && !s.pausedAt;
}

function signal(s: SeriesRow): EventData<'seriesChanged'>['series'] {
  return compact({ id: s.id, slug: s.slug, name: s.name, order: s.order, startDate: s.startDate, endDate: s.endDate, isOpen: s.isOpen, pausedAt: s.pausedAt }) as EventData<'seriesChanged'>['series'];
}

/** Tells the members of a published activity that a series changed; `opened` carries its problems. */
export async function announceSeries(q: Q, a: ActivityRow, s: SeriesRow, change: SeriesChange, out: Outbox): Promise<void> {
  if (!a.publishedAt) return;
  const data: EventData<'seriesChanged'> = { activityId: a.id, change, series: signal(s) };
  if (change === 'opened') {
    const rows = await q
      .select({ id: seriesProblems.id, slug: seriesProblems.slug, name: seriesProblems.name, problemName: problems.name, order: seriesProblems.order })
      .from(seriesProblems)
      .innerJoin(problems, eq(problems.id, seriesProblems.problemId))
      .where(eq(seriesProblems.seriesId, s.id))
      .orderBy(asc(seriesProblems.order));
    data.series.problems = rows.map((p) => ({ id: p.id, slug: p.slug, name: p.name ?? p.problemName, order: p.order }));
  }
  out.emit(event('seriesChanged', data, { kind: 'permission', key: 'activity:read', activityId: a.id }));
}

/**
 * Sets `isOpen` to what the dates and the pause say, for a series of a published activity (an
 * unpublished activity's series never open). A series moved back before its start counts as never
 * opened again: its problems hide until it opens, and that opening is announced with them.
 * Returns the row as stored and whether it opened or closed; the caller decides what to announce.
 */
export async function reconcile(q: Q, a: ActivityRow, s: SeriesRow, now: Date): Promise<{ row: SeriesRow; change: 'opened' | 'closed' | null }> {
  const open = !!a.publishedAt && shouldBeOpen(s, now);
  const notStarted = !!s.startDate && s.startDate > iso(now);
  const openedAt = open ? (s.openedAt ?? iso(now)) : notStarted ? null : s.openedAt;
  if (open === s.isOpen && openedAt === s.openedAt) return { row: s, change: null };
  const [row] = await q.update(series).set({ isOpen: open, openedAt }).where(eq(series.id, s.id)).returning();
  return { row: row!, change: open === s.isOpen ? null : open ? 'opened' : 'closed' };
}

/**
 * Brings every series of the activity to the state its dates and the publication say, at once:
 * members hear of those that opened; managers of every one that changed.
 */
export async function settleActivity(d: Deps, q: Q, a: ActivityRow, out: Outbox): Promise<void> {
  const now = d.clock.now();
  const all = await q.select().from(series).where(eq(series.activityId, a.id)).orderBy(asc(series.order));
  for (const s of all) {
    const { row, change } = await reconcile(q, a, s, now);
    if (!change) continue;
    if (change === 'opened') await announceSeries(q, a, row, 'opened', out);
    out.emit(event('managerSeriesChanged', { activityId: a.id, seriesId: row.id }, managerAudience(a.id)));
  }
}

/** Ids of the series of published, unarchived activities whose `isOpen` disagrees with their dates and pause at `now`. */
function due(q: Q, now: string): Promise<{ seriesId: string; activityId: string }[]> {
  const started = or(isNull(series.startDate), sql`${series.startDate} <= ${now}`)!;
  const notEnded = or(isNull(series.endDate), sql`${series.endDate} > ${now}`)!;
  const shouldOpen = and(eq(series.isOpen, false), isNull(series.pausedAt), started, notEnded);
  const shouldClose = and(eq(series.isOpen, true), or(isNotNull(series.pausedAt), sql`${series.startDate} > ${now}`, sql`${series.endDate} <= ${now}`));
  return q
    .select({ seriesId: series.id, activityId: series.activityId })
    .from(series)
    .innerJoin(activities, eq(activities.id, series.activityId))
    .where(and(isNotNull(activities.publishedAt), isNull(activities.archivedAt), or(shouldOpen, shouldClose)))
    .orderBy(asc(activities.id), asc(series.order));
}

/**
 * Opens and closes the series whose dates passed, telling members (`seriesChanged`) and managers
 * (`managerSeriesChanged`) once per transition. Each due series is read again and reconciled in its
 * own transaction: reconcile changes only what still disagrees, so a series that a concurrent write
 * already settled is announced by nobody twice. On PostgreSQL the same holds under the write's
 * SERIALIZABLE isolation: of two servers settling one series, one commits and the other, retried,
 * finds nothing left to change (and the scheduler runs on the cluster's leader alone).
 */
export async function settleDue(d: Deps, now: Date): Promise<SeriesTransition[]> {
  const done: SeriesTransition[] = [];
  for (const { seriesId, activityId } of await d.tx.read((q) => due(q, iso(now)))) {
    const change = await d.tx.write(async (q, out) => {
      const [a] = await q.select().from(activities).where(eq(activities.id, activityId)).limit(1);
      const [s] = await q.select().from(series).where(eq(series.id, seriesId)).limit(1);
      if (!a || !s || !a.publishedAt || a.archivedAt) return null;
      const r = await reconcile(q, a, s, now);
      if (!r.change) return null;
      await announceSeries(q, a, r.row, r.change, out);
      out.emit(event('managerSeriesChanged', { activityId, seriesId }, managerAudience(activityId)));
      return r.change;
    });
    if (change) done.push({ activityId, seriesId, change });
  }
  return done;
}
