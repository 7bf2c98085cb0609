import { and, asc, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { activities, series } from '../db/schema.js';
import { event } from '../events/bus.js';
import { managerAudience } from '../modules/activities/queries.js';
import { announceSeries, reconcile } from '../modules/series/schedule.js';
import type { Deps } from '../services.js';
import { iso } from '../util.js';
import { IntervalWorker } from './interval.js';

export interface SeriesTransition {
  activityId: string;
  seriesId: string;
  change: 'opened' | 'closed';
}

/**
 * Opens and closes the series of published, unarchived activities as their dates pass (CONTRACT §7),
 * telling members (`seriesChanged`) and managers (`managerSeriesChanged`) once per transition.
 * `tick(now)` is what tests call with a fake clock.
 */
export class SeriesScheduler extends IntervalWorker<SeriesTransition[]> {
  constructor(d: Deps) {
    super(d, 'series scheduler');
  }

  override start(intervalMs = 15_000): void {
    super.start(intervalMs);
  }

  /** Ids of the series whose `isOpen` disagrees with their dates and pause at `now`. */
  private due(now: string): { seriesId: string; activityId: string }[] {
    const started = or(isNull(series.startDate), sql`${series.startDate} <= ${now}`)!;
    const notEnded = or(isNull(series.endDate), sql`${series.endDate} > ${now}`)!;
    const shouldOpen = and(eq(series.isOpen, false), isNull(series.pausedAt), started, notEnded);
    const shouldClose = and(eq(series.isOpen, true), or(isNotNull(series.pausedAt), sql`${series.startDate} > ${now}`, sql`${series.endDate} <= ${now}`));
    return this.d.db
      .select({ seriesId: series.id, activityId: series.activityId })
      .from(series)
      .innerJoin(activities, eq(activities.id, series.activityId))
      .where(and(isNotNull(activities.publishedAt), isNull(activities.archivedAt), or(shouldOpen, shouldClose)))
      .orderBy(asc(activities.id), asc(series.order))
      .all();
  }

  /**
   * Each due series is read again and reconciled in its own transaction: reconcile changes only
   * what still disagrees, so a series that a concurrent write already settled is announced by
   * nobody twice.
   */
  tick(now: Date): SeriesTransition[] {
    const done: SeriesTransition[] = [];
    for (const { seriesId, activityId } of this.due(iso(now))) {
      const change = this.d.tx.run((out) => {
        const a = this.d.db.select().from(activities).where(eq(activities.id, activityId)).get();
        const s = this.d.db.select().from(series).where(eq(series.id, seriesId)).get();
        if (!a || !s || !a.publishedAt || a.archivedAt) return null;
        const r = reconcile(this.d, a, s, now);
        if (!r.change) return null;
        announceSeries(this.d, a, r.row, r.change, out);
        out.emit(event('managerSeriesChanged', { activityId, seriesId }, managerAudience(activityId)));
        return r.change;
      });
      if (change) done.push({ activityId, seriesId, change });
    }
    return done;
  }
}
