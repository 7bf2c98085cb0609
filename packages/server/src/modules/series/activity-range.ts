import { eq } from 'drizzle-orm';
import { activities, series } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
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
export async function followSeries(q: Q, a: ActivityRow, before: Range, after: Range): Promise<ActivityRow | null> {
  const all = await q.select({ startDate: series.startDate, endDate: series.endDate }).from(series).where(eq(series.activityId, a.id));
  const range = followedRange(a, before, after, all);
  if (!range) return null;
  return (await q.update(activities).set(range).where(eq(activities.id, a.id)).returning())[0]!;
}

/** A series as the activity's own dates move it. */
export type SeriesRange = Range & Pick<SeriesRow, 'id' | 'slug'>;

/** What the activity's new dates do to its series: the ones that move with them, and those left outside. */
export interface ActivityMove {
  moved: Map<string, Range>;
  /** Series that would lie outside the activity's new range (or end before they start), with why. */
  outside: { slug: string; why: 'startsBefore' | 'endsAfter' | 'endsBeforeStart'; date: string; bound: string }[];
}

/**
 * The other direction of followedRange (docs/api.md, "Series and the activity's dates"): when the
 * activity's start or end changes, a series start or end equal to the activity's old one moves with
 * it; every series must then still lie within the activity's range, so that the activity's dates
 * and the clock a participant sees never disagree. An open date on either side bounds nothing.
 */
export function seriesFollowing(before: Range, after: Range, all: SeriesRange[]): ActivityMove {
  const moved = new Map<string, Range>();
  const outside: ActivityMove['outside'] = [];
  for (const s of all) {
    let { startDate, endDate } = s;
    if (startDate && startDate === before.startDate && after.startDate) startDate = after.startDate;
    if (endDate && endDate === before.endDate && after.endDate) endDate = after.endDate;
    if (startDate !== s.startDate || endDate !== s.endDate) moved.set(s.id, { startDate, endDate });
    if (startDate && after.startDate && startDate < after.startDate) outside.push({ slug: s.slug, why: 'startsBefore', date: startDate, bound: after.startDate });
    if (endDate && after.endDate && endDate > after.endDate) outside.push({ slug: s.slug, why: 'endsAfter', date: endDate, bound: after.endDate });
    else if (startDate && endDate && endDate < startDate) outside.push({ slug: s.slug, why: 'endsBeforeStart', date: endDate, bound: startDate });
  }
  return { moved, outside };
}
