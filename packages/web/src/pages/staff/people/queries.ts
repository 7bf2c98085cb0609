import type { Grant, ManagedUser, Role } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';

/** Every page of a paged list (the server answers at most 200 a page). */
async function allPages<T>(get: (page: number, pageSize: number) => Promise<{ items: T[]; total: number }>): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const p = await get(page, 200);
    out.push(...p.items);
    if (p.items.length === 0 || out.length >= p.total) return out;
  }
}

/** The activity's memberships (one grant per member), oldest first, as `judgectl activities members` lists them. */
export function useMembers(activityId: string) {
  return useQuery({
    queryKey: keys.staffMembers(activityId),
    queryFn: async () => (await allPages((page, pageSize) => call(ops.listGrants, { query: { activityId, page, pageSize } }))).reverse(),
  });
}

/** The roles that can be granted in the activity: the built-in participant and manager are picked by key. */
export function useActivityRoles(activityId: string) {
  return useQuery({ queryKey: keys.staffRoles(activityId), queryFn: () => call(ops.listRoles, { query: { activityId } }), staleTime: 60_000 });
}

export const builtIn = (roles: Role[] | undefined, key: 'participant' | 'manager') => roles?.find((r) => r.builtInKey === key);

/** Which of the built-in roles a membership is, if either. */
export function memberKind(g: Grant, roles: Role[] | undefined): 'participant' | 'manager' | 'other' {
  const key = roles?.find((r) => r.id === g.roleId)?.builtInKey;
  return key === 'participant' || key === 'manager' ? key : 'other';
}

/** Every account, blocked ones too (a class list is matched against them, as judgectl matches it). */
export function fetchAllUsers(): Promise<ManagedUser[]> {
  return allPages((page, pageSize) => call(ops.listManagedUsers, { query: { includeBlocked: 'true', page, pageSize } }));
}

/** Gives a user a role in the activity; a member's role is replaced (one membership per user). */
export function grantRole(userId: string, roleId: string, activityId: string) {
  return call(ops.createGrant, { body: { userId, roleId, activityId } });
}
