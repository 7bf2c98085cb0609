import { ops } from '@judge/sdk/browser';
import { call } from '../../api/client';
import { keys } from '../../api/keys';

/** The problem as the participant sees it; the same options wherever it is fetched or prefetched. */
export function problemQuery(activity: string, problem: string) {
  return {
    queryKey: keys.problem(activity, problem),
    queryFn: () => call(ops.getActivityProblem, { params: { idOrSlug: activity, problemSlug: problem } }),
  };
}
