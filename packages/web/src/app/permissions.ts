import type { ParticipantActivity, Permission } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { keys } from '../api/keys';
import { useAccount } from './session';

/** The permissions that make someone staff: what the staff pages let them do. */
export const STAFF_KEYS = ['question:read:all', 'question:answer', 'question:publish', 'announcement:create', 'printout:manage'] as const;
export type StaffKey = (typeof STAFF_KEYS)[number];

/** The system-wide permissions of the administration pages (users, roles and grants, instance, sign-in providers and LTI). */
export const ADMIN_KEYS = ['user:read:all', 'role:read', 'role:manage', 'grant:read:all', 'instance:update', 'provider:manage'] as const;
/** The system-wide keys that open the problem library (problem keys have effect only system-wide). */
export const LIBRARY_KEYS = ['problem:read:own', 'problem:read:all', 'problem:create'] as const;

/**
 * What the signed-in user may do, system-wide or in one activity (`GET /permissions/mine`),
 * cached a minute and refetched when a grant or role changes. It only decides what the pages
 * offer; the server checks every request itself.
 */
export function useMyPermissions(activityId?: string) {
  const account = useAccount();
  return useQuery({ ...permissionsQuery(activityId), enabled: !!account.data });
}

/** The query behind useMyPermissions, the same wherever it is fetched or prefetched. */
export function permissionsQuery(activityId?: string) {
  return {
    queryKey: keys.permissions(activityId),
    queryFn: async () => new Set(await call(ops.myPermissions, { query: activityId ? { activityId } : {} })),
    staleTime: 60_000,
  };
}

/** Whether the user holds key in the activity: true, false, or undefined while it is not known yet. */
export function useMay(activityId: string | undefined, key: Permission): boolean | undefined {
  const q = useMyPermissions(activityId);
  return q.data?.has(key);
}

/** The activities the caller sees, every page of them (staff pickers list them by name). */
export function useAllActivities(enabled = true) {
  return useQuery({ ...allActivitiesQuery, enabled });
}

export const allActivitiesQuery = { queryKey: keys.activities, queryFn: () => call(ops.listActivities, { query: { pageSize: 200 } }), staleTime: 60_000 };

/** The activities whose printouts the caller may handle; none (not an error) for everybody else. */
export function usePrintoutActivities(enabled = true) {
  return useQuery({ ...printoutActivitiesQuery, enabled });
}

export const printoutActivitiesQuery = {
  queryKey: keys.printoutActivities,
  queryFn: () => call(ops.listPrintoutActivities).catch(() => []),
  staleTime: 60_000,
};

const NO_KEYS: ReadonlySet<string> = new Set();

export interface StaffAccess {
  /** Still asking the server. */
  pending: boolean;
  /** Any staff permission anywhere: the Staff entry shows and /staff opens. */
  any: boolean;
  /** The activities where the caller may work questions and announcements. */
  managed: ParticipantActivity[];
  /** Whether some activity's printouts are the caller's to handle. */
  printouts: boolean;
  /** The caller's system-wide permissions (the administration pages show by them). */
  system: ReadonlySet<string>;
  /** Whether the caller may see the runners (runner:read, system-wide). */
  runners: boolean;
  /** Whether the caller may create activities (/staff/new). */
  creates: boolean;
  /** Whether the caller may read or add problems of the library. */
  problems: boolean;
}

/**
 * Whether the user is staff: a system-wide staff permission (the administrator), or managing some
 * activity, or handling some activity's printouts (a role that gives only printout:manage).
 */
export function useStaffAccess(): StaffAccess {
  const account = useAccount();
  const signedIn = !!account.data;
  const system = useMyPermissions();
  const activities = useAllActivities(signedIn);
  const printouts = usePrintoutActivities(signedIn);
  const systemStaff = STAFF_KEYS.some((k) => system.data?.has(k));
  const administers = ADMIN_KEYS.some((k) => system.data?.has(k));
  const managed = (activities.data?.items ?? []).filter((a) => systemStaff || a.canManage);
  const printoutStaff = (printouts.data?.length ?? 0) > 0;
  const runners = !!system.data?.has('runner:read');
  const creates = !!system.data?.has('activity:create');
  const library = LIBRARY_KEYS.some((k) => system.data?.has(k));
  return {
    pending: account.isPending || (signedIn && (system.isPending || activities.isPending || printouts.isPending)),
    any: systemStaff || administers || managed.length > 0 || printoutStaff || runners || creates || library,
    managed,
    printouts: printoutStaff,
    system: system.data ?? NO_KEYS,
    runners,
    creates,
    problems: library,
  };
}
