import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { keys } from '../../api/keys';

/** The series of an activity with their problems, for the series and problem pickers. */
export function useActivitySeries(slug: string | undefined) {
  return useQuery({
    queryKey: keys.series(slug ?? ''),
    queryFn: () => call(ops.listActivitySeries, { params: { idOrSlug: slug! } }),
    enabled: !!slug,
  });
}
