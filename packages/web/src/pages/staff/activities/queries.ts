import { ops } from '@judge/sdk/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';

/** One activity with every setting (what its managers may change). */
export function useManagedActivity(slug: string) {
  return useQuery({ queryKey: keys.staffActivity(slug), queryFn: () => call(ops.getManagedActivity, { params: { idOrSlug: slug } }) });
}

/** The series of an activity with every date, in order. */
export function useManagedSeries(slug: string, enabled = true) {
  return useQuery({ queryKey: keys.staffSeries(slug), queryFn: () => call(ops.listManagedSeries, { params: { idOrSlug: slug } }), enabled: enabled && !!slug });
}

/**
 * After a change: everything that shows an activity or its series is fetched again (a series
 * moves its activity's dates, an activity's dates move its series), here and on the participant
 * pages the reader may open next. The socket says so too, but the writer should not wait for it.
 */
export function useRefetchActivity() {
  const qc = useQueryClient();
  return () =>
    Promise.all(
      (['staffActivity', 'staffSeries', 'activity', 'activities', 'series'] as const).map((family) => qc.invalidateQueries({ queryKey: [family] })),
    ).then(() => undefined);
}
