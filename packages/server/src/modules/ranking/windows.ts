import type { RankedSeries } from './queries.js';

/**
 * When a series shows in the ranking, and when its freeze hides results (decisions §9). Instants
 * are RFC 3339 UTC text with milliseconds, which compare as they read. Holders of
 * ranking:read:unfrozen are exempt from both; the callers decide that.
 */

type Window = Pick<RankedSeries, 'startDate' | 'rankingVisibleFrom' | 'rankingVisibleTo'>;
type Freeze = Pick<RankedSeries, 'rankingFreezeAt' | 'rankingRevealAt'>;

/** The series counts from rankingVisibleFrom (else its start) until rankingVisibleTo. */
export function windowOpen(s: Window, now: string): boolean {
  const from = s.rankingVisibleFrom ?? s.startDate;
  return (!from || from <= now) && (!s.rankingVisibleTo || s.rankingVisibleTo > now);
}

/** The freeze instant while the freeze is in force at `now`, else null. */
export function activeFreeze(s: Freeze, now: string): string | null {
  const at = s.rankingFreezeAt;
  if (!at || at > now) return null;
  return !s.rankingRevealAt || s.rankingRevealAt > now ? at : null;
}
