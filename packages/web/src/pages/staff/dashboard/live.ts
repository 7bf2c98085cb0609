import type { LiveFrame } from '@judge/sdk/browser';

/** The staff events of one activity that change its figures: submissions and judgings, questions, printouts. */
const OF_ACTIVITY = new Set(['submissionChanged', 'questionChanged', 'printoutChanged']);

/**
 * Whether a socket frame changes the dashboard of `activityId`. Runners are the instance's, so
 * every runner event counts (only holders of runner:read hear them; the others' runner figures
 * follow the periodic refetch).
 */
export function changesDashboard(frame: Pick<LiveFrame, 'type' | 'data'>, activityId: string): boolean {
  if (frame.type === 'runnerChanged') return true;
  return OF_ACTIVITY.has(frame.type) && (frame.data as { activityId?: unknown } | undefined)?.activityId === activityId;
}

/**
 * Calls `run` at most once per `ms` for a burst of signals: at once after a quiet spell, else once
 * the interval since the last run is over, so that the last signal of a burst is never lost.
 */
export function throttle(run: () => void, ms: number, now: () => number = Date.now) {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    last = now();
    run();
  };
  return {
    signal(): void {
      if (timer !== undefined) return;
      const wait = last + ms - now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    cancel(): void {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
