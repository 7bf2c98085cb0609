import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { keys } from '../../api/keys';

/** The series of an activity with their problems, for the series and problem pickers. */
export function useActivitySeries(slug: string | undefined) {
  return useQuery({ ...activitySeriesQuery(slug ?? ''), enabled: !!slug });
}

/** The query behind useActivitySeries, the same wherever it is fetched or prefetched. */
export function activitySeriesQuery(slug: string) {
  return { queryKey: keys.series(slug), queryFn: () => call(ops.listActivitySeries, { params: { idOrSlug: slug } }) };
}
