import { eq } from 'drizzle-orm';
import { ApiError } from '@judge/contract';
import { activities } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { ActivityRow } from './activities.js';

/**
 * "Finalised standings are final" (decisions §24): once an activity is finalised nothing that
 * would change its results is taken — submissions, rejudging, exclusions, cancellations, changes
 * of scoring — until staff reopen it. One guard that every such write path asks. A run on the
 * samples is never a submission and changes no result: it is still taken. A submission is checked
 * when planned and again inside its write, since a finalisation may come between the two. An
 * activity's ranking type and start (where penalty minutes count from) decide its results.
 */
export function requireNotFinalized(a: Pick<ActivityRow, 'finalizedAt'>): void {
  if (a.finalizedAt) throw ApiError.of('activity.finalized', 'The activity is finalised: its standings are final. Reopen it first');
}

/** requireNotFinalized for a write that knows only the activity's id; reads it with the writer's `q`. */
export async function requireResultsOpen(q: Q, activityId: string): Promise<void> {
  const [a] = await q.select({ finalizedAt: activities.finalizedAt }).from(activities).where(eq(activities.id, activityId)).limit(1);
  if (a) requireNotFinalized(a);
}

/**
 * Refuses a patch of a finalised activity's row (activity, series, assignment) when it changes a
 * member the results depend on; other members (names, descriptions) may still change.
 */
export function requireScoringKept<T extends object>(a: Pick<ActivityRow, 'finalizedAt'>, before: T, set: Partial<T>, members: readonly (keyof T)[]): void {
  if (!a.finalizedAt) return;
  for (const k of members) {
    if (set[k] !== undefined && JSON.stringify(set[k]) !== JSON.stringify(before[k])) requireNotFinalized(a);
  }
}
