import type { MessageKey } from '../../i18n/catalogue';
import type { StaffAccess } from '../../app/permissions';

/**
 * The staff pages, in the order their navigation lists them. A page is added here and in the
 * router (App.tsx); both navigations are drawn from these lists, so a page is never reachable
 * without a link or linked without a route.
 */
export interface StaffSection {
  /** Stable name, used by tests and as the React key. */
  key: string;
  /** Path below /staff (global) or below /staff/a/:activity (per activity); '' is the index. */
  path: string;
  label: MessageKey;
  /** Whether the reader gets the link; the server checks every request anyway. */
  shown: (access: StaffAccess) => boolean;
}

const manages = (a: StaffAccess) => a.managed.length > 0;
const holds = (...keys: string[]) => (a: StaffAccess) => keys.some((k) => a.system.has(k));

/** The staff pages that span activities: the header row of /staff. */
export const GLOBAL_SECTIONS: StaffSection[] = [
  { key: 'home', path: '', label: 'staff.home.nav', shown: () => true },
  { key: 'questions', path: 'questions', label: 'staff.nav.questions', shown: manages },
  { key: 'announce', path: 'announce', label: 'staff.nav.announce', shown: manages },
  { key: 'printouts', path: 'printouts', label: 'staff.nav.printouts', shown: (a) => a.printouts },
  { key: 'problems', path: 'problems', label: 'staff.problems.nav', shown: (a) => a.problems },
  { key: 'runners', path: 'runners', label: 'staff.nav.runners', shown: (a) => a.runners },
  { key: 'users', path: 'users', label: 'staff.nav.users', shown: holds('user:read:all') },
  { key: 'roles', path: 'roles', label: 'staff.nav.roles', shown: holds('role:read', 'role:manage', 'grant:read:all') },
  { key: 'instance', path: 'instance', label: 'staff.nav.instance', shown: holds('instance:update') },
  { key: 'providers', path: 'providers', label: 'staff.providers.nav', shown: holds('provider:manage') },
  { key: 'lti', path: 'lti', label: 'staff.lti.nav', shown: holds('provider:manage') },
];

/** Whether a reader may see the pages of one activity they manage. */
export interface ActivityStaffAccess {
  /** Manages the activity (or holds the system-wide staff permissions). */
  manages: boolean;
  /** Handles the activity's printouts. */
  printouts: boolean;
}

export interface ActivitySection {
  key: string;
  path: string;
  label: MessageKey;
  shown: (access: ActivityStaffAccess) => boolean;
}

/** The pages of one activity for its staff: the sidebar of /staff/a/:activity. */
export const ACTIVITY_SECTIONS: ActivitySection[] = [
  { key: 'dashboard', path: '', label: 'staff.dashboard.nav', shown: (a) => a.manages },
  { key: 'settings', path: 'settings', label: 'staff.activities.nav.settings', shown: (a) => a.manages },
  { key: 'series', path: 'series', label: 'staff.activities.nav.series', shown: (a) => a.manages },
  { key: 'problems', path: 'problems', label: 'staff.problems.nav', shown: (a) => a.manages },
  { key: 'submissions', path: 'submissions', label: 'staff.subs.nav', shown: (a) => a.manages },
  { key: 'people', path: 'people', label: 'staff.people.nav', shown: (a) => a.manages },
  { key: 'standings', path: 'standings', label: 'staff.nav.standings', shown: (a) => a.manages },
];
