/**
 * What a contest clock shows at a moment, from the series' windows (or the activity's own dates
 * when the series are not readable, e.g. before joining): the time to the next start, the time
 * left of what runs now, or that everything ended; and whether the ranking is frozen.
 */

export interface Window {
  startDate?: string | undefined;
  endDate?: string | undefined;
  pausedAt?: string | undefined;
  rankingFreezeAt?: string | undefined;
  rankingRevealAt?: string | undefined;
}

export type Phase =
  | { kind: 'none' }
  | { kind: 'before'; at: number }
  | { kind: 'running'; until?: number; paused: boolean }
  | { kind: 'ended' };

export interface ClockState {
  phase: Phase;
  frozen: boolean;
}

const time = (iso: string | undefined): number | undefined => (iso ? Date.parse(iso) : undefined);

function running(w: Window, now: number): boolean {
  const start = time(w.startDate);
  const end = time(w.endDate);
  return start !== undefined && start <= now && (end === undefined || now < end);
}

function frozenAt(w: Window, now: number): boolean {
  const freeze = time(w.rankingFreezeAt);
  const reveal = time(w.rankingRevealAt);
  return freeze !== undefined && freeze <= now && (reveal === undefined || now < reveal);
}

/** The clock at `now` (ms, server time) over the windows; the one that ends first wins among those running. */
export function clockState(windows: Window[], now: number): ClockState {
  const frozen = windows.some((w) => time(w.startDate) !== undefined && (time(w.startDate) ?? 0) <= now && frozenAt(w, now));
  const live = windows.filter((w) => running(w, now));
  if (live.length) {
    const ends = live.map((w) => time(w.endDate)).filter((e): e is number => e !== undefined);
    const until = ends.length === live.length ? Math.min(...ends) : undefined;
    const paused = live.every((w) => !!w.pausedAt);
    return { phase: until === undefined ? { kind: 'running', paused } : { kind: 'running', until, paused }, frozen };
  }
  const starts = windows.map((w) => time(w.startDate)).filter((s): s is number => s !== undefined && s > now);
  if (starts.length) return { phase: { kind: 'before', at: Math.min(...starts) }, frozen };
  if (windows.some((w) => time(w.endDate) !== undefined)) return { phase: { kind: 'ended' }, frozen };
  return { phase: { kind: 'none' }, frozen };
}

/** A short name of the phase, to tell when it changes (what the page announces and reacts to). */
export function phaseKey(p: Phase): string {
  return p.kind === 'running' && p.paused ? 'paused' : p.kind;
}
