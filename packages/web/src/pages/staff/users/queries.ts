import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';

export const USERS_PAGE_SIZE = 25;

export interface UsersFilter {
  search: string;
  includeBlocked: boolean;
  page: number;
}

/** One page of accounts with their administrative fields. */
export function useManagedUsers(f: UsersFilter) {
  return useQuery({
    queryKey: keys.managedUsers({ ...f }),
    queryFn: () =>
      call(ops.listManagedUsers, {
        query: { page: f.page, pageSize: USERS_PAGE_SIZE, ...(f.search.trim() ? { search: f.search.trim() } : {}), ...(f.includeBlocked ? { includeBlocked: 'true' } : {}) },
      }),
    placeholderData: (previous) => previous,
  });
}

/** One account, as the page of one user shows it. */
export function useManagedUser(id: string, enabled = true) {
  return useQuery({ queryKey: keys.managedUser(id), queryFn: () => call(ops.getManagedUser, { params: { id } }), enabled });
}

/** The account's live sessions; blocking or a new password ends them, so those refetch it. */
export function useUserSessions(id: string) {
  return useQuery({ queryKey: keys.userSessions(id), queryFn: () => call(ops.listUserSessions, { params: { userId: id } }) });
}

/** The roles the account holds, system-wide and per activity. */
export function useUserGrants(userId: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.grants({ userId }),
    queryFn: () => call(ops.listGrants, { query: { userId, pageSize: 200 } }),
    enabled,
  });
}

/** The merges the account was the source or the target of, newest first (user:merge). */
export function useUserMerges(id: string, enabled: boolean) {
  return useQuery({ queryKey: keys.userMerges(id), queryFn: () => call(ops.listUserMerges, { params: { id } }), enabled });
}

/** What merging the account into the target would move, and what stands in the way (a read, though a POST). */
export function useMergePreview(sourceId: string, targetId: string | undefined) {
  return useQuery({
    queryKey: keys.mergePreview(sourceId, targetId ?? ''),
    queryFn: () => call(ops.previewMerge, { params: { id: sourceId }, body: { targetUserId: targetId! } }),
    enabled: !!targetId,
  });
}

/** The reader's own time zone: accounts belong to no activity, so their times are the reader's. */
export const OWN_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
