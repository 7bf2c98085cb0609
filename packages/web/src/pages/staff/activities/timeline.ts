import type { Series } from '@judge/contract';

/** One series drawn on the timeline: where its bar starts and ends and where the freeze falls, in percent of the span. */
export interface TimelineBar {
  id: string;
  name: string;
  /** Percent from the left edge. */
  left: number;
  width: number;
  /** Percent from the bar's own left edge, when the series has a freeze inside it. */
  freeze?: number;
  /** No end: the bar runs to the right edge. */
  openEnded: boolean;
  /** No start: the bar starts at the left edge. */
  openStart: boolean;
}

export interface TimelineModel {
  from: number;
  to: number;
  bars: TimelineBar[];
  /** Where now falls, in percent, when it is inside the span. */
  now?: number;
}

const HOUR = 3_600_000;

/**
 * The timeline of an activity's series: the span runs from the earliest date to the latest (now
 * included, so "now" is always on it), with a little air on both sides.
 */
export function timelineOf(series: Series[], now: number): TimelineModel | undefined {
  const dates = series.flatMap((s) => [s.startDate, s.endDate, s.rankingFreezeAt].filter((x): x is string => !!x).map(Date.parse));
  if (!dates.length) return undefined;
  const lo = Math.min(...dates, now);
  const hi = Math.max(...dates, now);
  const air = Math.max((hi - lo) * 0.04, HOUR / 4);
  const from = lo - air;
  const to = hi + air;
  const at = (ms: number) => ((ms - from) / (to - from)) * 100;
  const bars = series.map((s): TimelineBar => {
    const start = s.startDate ? Date.parse(s.startDate) : from;
    const end = s.endDate ? Date.parse(s.endDate) : to;
    const left = at(start);
    const width = Math.max(at(end) - left, 0.5);
    const freezeMs = s.rankingFreezeAt ? Date.parse(s.rankingFreezeAt) : undefined;
    const freeze = freezeMs !== undefined && freezeMs > start && freezeMs < end ? ((freezeMs - start) / (end - start)) * 100 : undefined;
    return { id: s.id, name: s.name, left, width, openEnded: !s.endDate, openStart: !s.startDate, ...(freeze !== undefined ? { freeze } : {}) };
  });
  return { from, to, bars, now: at(now) };
}
