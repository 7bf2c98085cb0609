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

/** The staff pages that span activities: the header row of /staff. */
export const GLOBAL_SECTIONS: StaffSection[] = [
  { key: 'questions', path: 'questions', label: 'staff.nav.questions', shown: manages },
  { key: 'announce', path: 'announce', label: 'staff.nav.announce', shown: manages },
  { key: 'printouts', path: 'printouts', label: 'staff.nav.printouts', shown: (a) => a.printouts },
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
  { key: 'submissions', path: 'submissions', label: 'staff.subs.nav', shown: (a) => a.manages },
];
