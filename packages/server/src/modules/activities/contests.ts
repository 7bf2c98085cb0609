import { and, asc, isNotNull } from 'drizzle-orm';
import { activities } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { ActivityRow } from '../policy/index.js';

/**
 * Every contest with start and end dates, oldest first: unchecked, for the CLICS API, which
 * decides itself who sees which (decisions §25).
 */
export async function contestRows(q: Q): Promise<ActivityRow[]> {
  const rows = await q.select().from(activities).where(and(isNotNull(activities.startDate), isNotNull(activities.endDate))).orderBy(asc(activities.startDate), asc(activities.id));
  return rows.filter((a) => a.type.startsWith('contest@'));
}
