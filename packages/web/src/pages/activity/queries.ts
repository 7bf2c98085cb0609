import type { ParticipantActivity } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { keys } from '../../api/keys';
import { serverNow } from '../../clock/serverClock';
import { awaitingOpening } from './clockPhase';

/** Whether the caller may read the activity's series and problems: members and managers. */
export function mayBrowse(a: ParticipantActivity | undefined): boolean {
  return !!a && (a.enrolled || a.canManage);
}

export function useActivity(slug: string) {
  return useQuery(activityQuery(slug));
}

/** The activity by its slug; the same options wherever it is fetched or prefetched. */
export function activityQuery(slug: string) {
  return { queryKey: keys.activity(slug), queryFn: () => call(ops.getActivity, { params: { idOrSlug: slug } }) };
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
