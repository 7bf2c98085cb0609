import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { keys } from '../../api/keys';

/** The reader's own printout requests in the activity, newest first; printoutStateChanged refetches them. */
export function useOwnPrintouts(slug: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.printouts(slug),
    queryFn: () => call(ops.listOwnPrintouts, { params: { idOrSlug: slug }, query: { pageSize: 100 } }),
    enabled,
  });
}
