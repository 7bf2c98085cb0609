import { eq } from 'drizzle-orm';
import { activities, series } from '../../db/schema.js';
import type { Deps } from '../../services.js';
import type { ActivityRow } from '../policy/index.js';
import type { SeriesRow } from './schedule.js';

type Range = Pick<SeriesRow, 'startDate' | 'endDate'>;

/**
 * The activity's own start and end after one of its series moved from `before` to `after` (README,
 * "Series and the activity's dates"): a start or end equal to the series' old one moves with it, then
 * the range widens to take in every series of the activity, so that it never ends narrower than them.
 * An open end (null) stays open. Answers null when nothing changes.
 */
export function followedRange(a: Range, before: Range, after: Range, all: Range[]): Range | null {
  let { startDate, endDate } = a;
  if (startDate && before.startDate === startDate && after.startDate) startDate = after.startDate;
  if (endDate && before.endDate === endDate && after.endDate) endDate = after.endDate;
  for (const s of all) {
    if (startDate && s.startDate && s.startDate < startDate) startDate = s.startDate;
    if (endDate && s.endDate && s.endDate > endDate) endDate = s.endDate;
  }
  // a start pulled past an end it did not share stays a valid range
  if (startDate && endDate && endDate < startDate) endDate = startDate;
  return startDate === a.startDate && endDate === a.endDate ? null : { startDate, endDate };
}

/** Moves the activity's dates after a series write, inside the caller's transaction; answers the row when it changed. */
export function followSeries(d: Deps, a: ActivityRow, before: Range, after: Range): ActivityRow | null {
  const all = d.db.select({ startDate: series.startDate, endDate: series.endDate }).from(series).where(eq(series.activityId, a.id)).all();
  const range = followedRange(a, before, after, all);
  if (!range) return null;
  return d.db.update(activities).set(range).where(eq(activities.id, a.id)).returning().get()!;
}
