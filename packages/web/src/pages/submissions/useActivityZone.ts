import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { keys } from '../../api/keys';

const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The activity's time zone (times are shown in it), the reader's own until it is known. */
export function useActivityZone(activity: string): string {
  const q = useQuery({ queryKey: keys.activity(activity), queryFn: () => call(ops.getActivity, { params: { idOrSlug: activity } }) });
  return q.data?.timeZone ?? localZone;
}
