import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';

/** The system roles (every activity's own roles are listed on that activity's pages). */
export function useRoles(enabled: boolean) {
  return useQuery({ queryKey: keys.roles, queryFn: () => call(ops.listRoles, { query: {} }), enabled });
}

/** The permission catalogue: it changes only with a new version of the judge. */
export function usePermissionCatalogue() {
  return useQuery({ queryKey: keys.permissionCatalogue, queryFn: () => call(ops.listPermissions), staleTime: Infinity });
}

export interface GrantsFilter {
  userId: string;
  activityId: string;
  page: number;
}

export const GRANTS_PAGE_SIZE = 25;

export function useGrants(f: GrantsFilter, enabled: boolean) {
  return useQuery({
    queryKey: keys.grants({ ...f }),
    queryFn: () =>
      call(ops.listGrants, {
        query: { page: f.page, pageSize: GRANTS_PAGE_SIZE, ...(f.userId ? { userId: f.userId } : {}), ...(f.activityId ? { activityId: f.activityId } : {}) },
      }),
    enabled,
    placeholderData: (previous) => previous,
  });
}
