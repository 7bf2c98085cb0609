import type { Series } from '@judge/contract';

/** Every date of a series but its start: what moves with the start when the series keeps its length. */
export const WITH_START = ['endDate', 'rankingFreezeAt', 'rankingRevealAt', 'rankingVisibleFrom', 'rankingVisibleTo'] as const;

export type StartMove = { startDate: string } & Partial<Record<(typeof WITH_START)[number], string>>;

/**
 * The update body that moves a series' start to `start`. Unless `keepEnd`, its end and ranking
 * dates move by as much, so that a contest opened early or late keeps its length and its freeze
 * stays as far from the end (docs/running-a-contest.md, "Running a contest"). judgectl's
 * `series open` and the web's "Open now" both send it.
 */
export function startMovedTo(s: Pick<Series, 'startDate' | (typeof WITH_START)[number]>, start: string, keepEnd: boolean): StartMove {
  const body: StartMove = { startDate: start };
  if (keepEnd || !s.startDate) return body;
  const ms = Date.parse(start) - Date.parse(s.startDate);
  for (const k of WITH_START) {
    const v = s[k];
    if (v) body[k] = new Date(Date.parse(v) + ms).toISOString();
  }
  return body;
}

/** Whether a series with a start never opened yet (its start is to come, or it was paused before it): opening it now is a late start. */
export function neverOpened(s: Pick<Series, 'startDate' | 'pausedAt'>, now: string): boolean {
  return !!s.startDate && (s.startDate > now || (!!s.pausedAt && s.pausedAt < s.startDate));
}
