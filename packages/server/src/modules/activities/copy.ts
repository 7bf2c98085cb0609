import { eq, inArray, sql } from 'drizzle-orm';
import type { Q } from '../../db/storage.js';
import { series, seriesProblems } from '../../db/schema.js';
import { newId } from '../../util.js';
import type { ActivityRow } from '../policy/index.js';

/** A date moved by `ms`, as a copy of an activity moves all of them. */
export const shifted = (t: string | null, ms: number): string | null => (t ? new Date(Date.parse(t) + ms).toISOString() : null);

/** Where the copy's dates move: the earliest series start (else the activity's start) lands on `startsAt`. */
export async function copyShift(q: Q, source: ActivityRow, startsAt: string): Promise<number> {
  const [row] = await q
    .select({ t: sql<string | null>`min(${series.startDate})` })
    .from(series)
    .where(eq(series.activityId, source.id));
  const anchor = row?.t ?? source.startDate;
  return anchor ? Date.parse(startsAt) - Date.parse(anchor) : 0;
}

/**
 * Copies the series of an activity with their assignments, dates moved by `ms`, closed as if they
 * had never opened, inside the caller's transaction. The copies' ids are made here, so the series
 * and then all the assignments go in one statement each.
 */
export async function copySeries(q: Q, fromActivityId: string, toActivityId: string, ms: number, now: string): Promise<void> {
  const all = await q.select().from(series).where(eq(series.activityId, fromActivityId));
  if (!all.length) return;
  const copyOf = new Map(all.map((s) => [s.id, newId()]));
  await q.insert(series).values(
    all.map((s) => ({
      ...s,
      id: copyOf.get(s.id)!,
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
    })),
  );
  const assigned = await q.select().from(seriesProblems).where(inArray(seriesProblems.seriesId, [...copyOf.keys()]));
  if (assigned.length) {
    await q
      .insert(seriesProblems)
      .values(assigned.map((p) => ({ ...p, id: newId(), seriesId: copyOf.get(p.seriesId)!, activityId: toActivityId, createdAt: now })));
  }
}
