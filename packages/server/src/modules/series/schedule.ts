import { asc, eq } from 'drizzle-orm';
import type { EventData } from '@judge/contract';
import type { Outbox } from '../../db/transactor.js';
import { series, seriesProblems, problems } from '../../db/schema.js';
import { event } from '../../events/bus.js';
import type { Deps } from '../../services.js';
import { compact, iso } from '../../util.js';
import type { ActivityRow } from '../activities/queries.js';

export type SeriesRow = typeof series.$inferSelect;
export type SeriesChange = EventData<'seriesChanged'>['change'];

/** Open by its dates and not paused at `now` (CONTRACT §7). */
export function shouldBeOpen(s: Pick<SeriesRow, 'startDate' | 'endDate' | 'pausedAt'>, now: Date): boolean {
  const t = iso(now);
  return !s.pausedAt && (!s.startDate || s.startDate <= t) && (!s.endDate || s.endDate > t);
}

/**
 * Problems of a series are shown to participants when it is open; while paused unless hidden; and
 * after it ended, once it had opened, unless the activity hides ended series. Never before it opened.
 */
export function problemsVisible(s: SeriesRow, a: Pick<ActivityRow, 'hideEndedSeriesProblems'>): boolean {
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
export function announceSeries(d: Deps, a: ActivityRow, s: SeriesRow, change: SeriesChange, out: Outbox): void {
  if (!a.publishedAt) return;
  const data: EventData<'seriesChanged'> = { activityId: a.id, change, series: signal(s) };
  if (change === 'opened') {
    data.problems = d.db
      .select({ id: seriesProblems.id, slug: seriesProblems.slug, name: seriesProblems.name, problemName: problems.name, order: seriesProblems.order })
      .from(seriesProblems)
      .innerJoin(problems, eq(problems.id, seriesProblems.problemId))
      .where(eq(seriesProblems.seriesId, s.id))
      .orderBy(asc(seriesProblems.order))
      .all()
      .map((p) => ({ id: p.id, slug: p.slug, name: p.name ?? p.problemName, order: p.order }));
  }
  out.emit(event('seriesChanged', data, { kind: 'permission', key: 'activity:read', activityId: a.id }));
}

/**
 * Sets `isOpen` to what the dates and the pause say, for a series of a published activity (an
 * unpublished activity's series never open). A series moved back before its start counts as never
 * opened again: its problems hide until it opens, and that opening is announced with them.
 * Returns the row as stored and whether it opened or closed; the caller decides what to announce.
 */
export function reconcile(d: Deps, a: ActivityRow, s: SeriesRow, now: Date): { row: SeriesRow; change: 'opened' | 'closed' | null } {
  const open = !!a.publishedAt && shouldBeOpen(s, now);
  const notStarted = !!s.startDate && s.startDate > iso(now);
  const openedAt = open ? (s.openedAt ?? iso(now)) : notStarted ? null : s.openedAt;
  if (open === s.isOpen && openedAt === s.openedAt) return { row: s, change: null };
  const row = d.db.update(series).set({ isOpen: open, openedAt }).where(eq(series.id, s.id)).returning().get()!;
  return { row, change: open === s.isOpen ? null : open ? 'opened' : 'closed' };
}
