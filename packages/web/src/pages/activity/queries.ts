import type { ParticipantActivity, ParticipantSeries } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { keys } from '../../api/keys';
import { serverNow } from '../../clock/serverClock';

/** Whether the caller may read the activity's series and problems: members and managers. */
export function mayBrowse(a: ParticipantActivity | undefined): boolean {
  return !!a && (a.enrolled || a.canManage);
}

export function useActivity(slug: string) {
  return useQuery({ queryKey: keys.activity(slug), queryFn: () => call(ops.getActivity, { params: { idOrSlug: slug } }) });
}

/** How long after a start the list is asked again while the server has not opened that series yet. */
const OPENING_GRACE_MS = 60_000;

/**
 * A series whose start passed a moment ago but whose problems are still withheld: the server's
 * scheduler opens it within a second or two, and its event may be lost with a socket that is down.
 */
export function awaitingOpening(list: ParticipantSeries[] | undefined, now: number): boolean {
  return !!list?.some((s) => {
    const start = s.startDate ? Date.parse(s.startDate) : NaN;
    return !s.problems && !s.pausedAt && start <= now && now - start < OPENING_GRACE_MS;
  });
}

/** The series of an activity with the caller's problems and statuses; only asked once the caller may browse. */
export function useSeries(slug: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.series(slug),
    queryFn: () => call(ops.listActivitySeries, { params: { idOrSlug: slug } }),
    enabled,
    refetchInterval: (q) => (awaitingOpening(q.state.data, serverNow()) ? 1500 : false),
  });
}
