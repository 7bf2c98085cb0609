/**
 * The permission catalogue (decisions §5). `scope` says where a grant carrying the key has effect:
 * `system` keys are checked only against system-wide grants, `activity` keys in an activity
 * (system grants included, since they apply everywhere).
 */
export const PERMISSIONS = {
  'activity:read': { group: 'activity', scope: 'activity', description: 'See an activity, its series and problems' },
  'activity:create': { group: 'activity', scope: 'system', description: 'Create activities' },
  'activity:update': { group: 'activity', scope: 'activity', description: 'Edit an activity, its series and documents' },
  'activity:archive': { group: 'activity', scope: 'activity', description: 'Archive and unarchive an activity' },
  'activity:delete': { group: 'activity', scope: 'activity', description: 'Delete an activity without submissions' },
  'activity:enroll': { group: 'activity', scope: 'activity', description: 'Enrol others in an activity' },
  'trial:run': { group: 'activity', scope: 'activity', description: 'Run package trials' },
  'problem:read:own': { group: 'problem', scope: 'system', description: 'List own problems' },
  'problem:read:all': { group: 'problem', scope: 'system', description: 'Read every problem' },
  'problem:create': { group: 'problem', scope: 'system', description: 'Create problems' },
  'problem:update': { group: 'problem', scope: 'system', description: 'Edit problems and publish versions' },
  'problem:delete': { group: 'problem', scope: 'system', description: 'Delete problems' },
  'problem:share': { group: 'problem', scope: 'system', description: 'Change problem visibility' },
  'problem:archive': { group: 'problem', scope: 'system', description: 'Archive problems' },
  'problem:attach': { group: 'problem', scope: 'activity', description: 'Attach problems to series' },
  'problem:import:external': { group: 'problem', scope: 'system', description: 'Fetch files from external hosts' },
  'submission:read:own': { group: 'submission', scope: 'activity', description: 'Read own submissions' },
  'submission:read:all': { group: 'submission', scope: 'activity', description: "Read everybody's submissions" },
  'submission:create': { group: 'submission', scope: 'activity', description: 'Submit solutions' },
  'submission:source:read:all': { group: 'submission', scope: 'activity', description: "Read everybody's source files" },
  'submission:rejudge': { group: 'submission', scope: 'activity', description: 'Rejudge submissions' },
  'submission:cancel': { group: 'submission', scope: 'activity', description: 'Cancel attempts' },
  'submission:exclude': { group: 'submission', scope: 'activity', description: 'Exclude submissions from the ranking' },
  'result:read:own': { group: 'result', scope: 'activity', description: 'Read own results' },
  'result:read:all': { group: 'result', scope: 'activity', description: "Read everybody's results" },
  'result:log:read:all': { group: 'result', scope: 'activity', description: 'Read judge logs and per-test details' },
  'question:read:own': { group: 'question', scope: 'activity', description: 'Read own and published questions' },
  'question:read:all': { group: 'question', scope: 'activity', description: 'Read every question' },
  'question:create': { group: 'question', scope: 'activity', description: 'Ask questions' },
  'question:answer': { group: 'question', scope: 'activity', description: 'Answer questions' },
  'question:publish': { group: 'question', scope: 'activity', description: 'Publish questions' },
  'announcement:create': { group: 'question', scope: 'activity', description: 'Make announcements' },
  'ranking:read': { group: 'ranking', scope: 'activity', description: 'Read the ranking' },
  'ranking:read:unfrozen': { group: 'ranking', scope: 'activity', description: 'See the ranking through a freeze' },
  'printout:create': { group: 'printout', scope: 'activity', description: 'Request printouts' },
  'printout:manage': { group: 'printout', scope: 'activity', description: 'Work the printout queue' },
  'user:read:all': { group: 'user', scope: 'system', description: 'Look up and list users' },
  'user:create': { group: 'user', scope: 'system', description: 'Create accounts' },
  'user:update': { group: 'user', scope: 'system', description: 'Edit accounts and reset passwords' },
  'user:block': { group: 'user', scope: 'system', description: 'Block and unblock accounts' },
  'user:merge': { group: 'user', scope: 'system', description: 'Merge accounts' },
  'user:create:temporary': { group: 'user', scope: 'activity', description: 'Create temporary accounts' },
  'grant:read:all': { group: 'grant', scope: 'activity', description: 'Read grants' },
  'grant:update': { group: 'grant', scope: 'activity', description: 'Give and take grants' },
  'role:read': { group: 'role', scope: 'activity', description: 'Read roles' },
  'role:manage': { group: 'role', scope: 'system', description: 'Create, edit and delete roles' },
  'runner:read': { group: 'runner', scope: 'system', description: 'See runners' },
  'runner:approve': { group: 'runner', scope: 'system', description: 'Approve runners' },
  'runner:revoke': { group: 'runner', scope: 'system', description: 'Revoke and forget runners' },
  'runner:update': { group: 'runner', scope: 'system', description: 'Tag runners' },
  'instance:update': { group: 'instance', scope: 'system', description: 'Change instance settings' },
  'provider:manage': { group: 'provider', scope: 'system', description: 'Manage identity providers and LTI platforms' },
  'system:administrator': { group: 'system', scope: 'system', description: 'Everything, everywhere' },
} as const satisfies Record<string, { group: string; scope: 'system' | 'activity'; description: string }>;

export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_KEYS = Object.keys(PERMISSIONS) as Permission[];

export function isPermission(key: string): key is Permission {
  return Object.prototype.hasOwnProperty.call(PERMISSIONS, key);
}

const PARTICIPANT: Permission[] = [
  'activity:read',
  'submission:read:own',
  'submission:create',
  'result:read:own',
  'question:read:own',
  'question:create',
  'ranking:read',
  'printout:create',
];

const MANAGER: Permission[] = [
  ...PARTICIPANT,
  'activity:update',
  'activity:archive',
  'activity:enroll',
  'trial:run',
  'problem:read:own',
  'problem:create',
  'problem:update',
  'problem:share',
  'problem:archive',
  'problem:attach',
  'submission:read:all',
  'submission:source:read:all',
  'submission:rejudge',
  'submission:cancel',
  'submission:exclude',
  'result:read:all',
  'result:log:read:all',
  'question:read:all',
  'question:answer',
  'question:publish',
  'announcement:create',
  'ranking:read:unfrozen',
  'grant:read:all',
  'grant:update',
  'role:read',
  'user:create:temporary',
  // a co-manager works the activity's printout queue as well (decisions §5: staff of an activity)
  'printout:manage',
];

/** Roles seeded at `judge init`; editable, never deletable. */
export const BUILT_IN_ROLES = {
  participant: { name: 'Participant', description: 'Takes part in an activity', permissions: PARTICIPANT },
  manager: { name: 'Manager', description: 'Runs a course or contest', permissions: MANAGER },
  administrator: { name: 'Administrator', description: 'Runs the installation', permissions: ['system:administrator'] as Permission[] },
} as const;

export type BuiltInRoleKey = keyof typeof BUILT_IN_ROLES;
