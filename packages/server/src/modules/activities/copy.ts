import { eq, sql } from 'drizzle-orm';
import { series, seriesProblems } from '../../db/schema.js';
import type { Deps } from '../../services.js';
import { newId } from '../../util.js';
import type { ActivityRow } from '../policy/index.js';

/** A date moved by `ms`, as a copy of an activity moves all of them. */
export const shifted = (t: string | null, ms: number): string | null => (t ? new Date(Date.parse(t) + ms).toISOString() : null);

/** Where the copy's dates move: the earliest series start (else the activity's start) lands on `startsAt`. */
export function copyShift(d: Deps, source: ActivityRow, startsAt: string): number {
  const earliest = d.db
    .select({ t: sql<string | null>`min(${series.startDate})` })
    .from(series)
    .where(eq(series.activityId, source.id))
    .get()?.t;
  const anchor = earliest ?? source.startDate;
  return anchor ? Date.parse(startsAt) - Date.parse(anchor) : 0;
}

/** Copies the series of an activity with their assignments, dates moved by `ms`, closed as if they had never opened. */
export function copySeries(d: Deps, fromActivityId: string, toActivityId: string, ms: number, now: string): void {
  const all = d.db.select().from(series).where(eq(series.activityId, fromActivityId)).all();
  for (const s of all) {
    const copy = d.db
      .insert(series)
      .values({
        ...s,
        id: newId(),
        activityId: toActivityId,
        startDate: shifted(s.startDate, ms),
        endDate: shifted(s.endDate, ms),
        rankingFreezeAt: shifted(s.rankingFreezeAt, ms),
        rankingRevealAt: shifted(s.rankingRevealAt, ms),
        rankingVisibleFrom: shifted(s.rankingVisibleFrom, ms),
        rankingVisibleTo: shifted(s.rankingVisibleTo, ms),
        isOpen: false,
        openedAt: null,
        pausedAt: null,
        createdAt: now,
      })
      .returning()
      .get();
    const assigned = d.db.select().from(seriesProblems).where(eq(seriesProblems.seriesId, s.id)).all();
    if (assigned.length) {
      d.db
        .insert(seriesProblems)
        .values(assigned.map((p) => ({ ...p, id: newId(), seriesId: copy.id, activityId: toActivityId, createdAt: now })))
        .run();
    }
  }
}
