import type { Role } from '@judge/contract';
import type { MessageKey } from '../../../i18n/catalogue';

export interface PermissionInfo {
  key: string;
  group: string;
  scope: 'system' | 'activity';
  description: string;
}

export interface PermissionGroup {
  group: string;
  entries: PermissionInfo[];
}

/** The catalogue's entries by group, groups in the catalogue's own order (GET /permissions). */
export function groupPermissions(catalogue: readonly PermissionInfo[]): PermissionGroup[] {
  const groups = new Map<string, PermissionInfo[]>();
  for (const p of catalogue) {
    const list = groups.get(p.group) ?? [];
    list.push(p);
    groups.set(p.group, list);
  }
  return [...groups].map(([group, entries]) => ({ group, entries }));
}

const GROUP_LABELS: Record<string, MessageKey> = {
  activity: 'staff.roles.group.activity',
  problem: 'staff.roles.group.problem',
  submission: 'staff.roles.group.submission',
  result: 'staff.roles.group.result',
  question: 'staff.roles.group.question',
  ranking: 'staff.roles.group.ranking',
  printout: 'staff.roles.group.printout',
  user: 'staff.roles.group.user',
  grant: 'staff.roles.group.grant',
  role: 'staff.roles.group.role',
  runner: 'staff.roles.group.runner',
  instance: 'staff.roles.group.instance',
  provider: 'staff.roles.group.provider',
  system: 'staff.roles.group.system',
};

/** Our words for a group of the catalogue; a group added later shows under its own key until named here. */
export function groupLabel(group: string): MessageKey | undefined {
  return GROUP_LABELS[group];
}

/**
 * What a co-teacher needs in one activity: everything the built-in Manager role holds there, and
 * the printout queue (printout:manage), so that a co-teacher does everything staff do in that
 * activity, printouts included (docs/web-pages.md, "Staff pages: administration").
 */
export function coTeacherPermissions(roles: readonly Role[]): string[] {
  const manager = roles.find((r) => r.builtInKey === 'manager');
  return [...new Set([...(manager?.permissions ?? []), 'printout:manage'])];
}

/** The built-in roles first, then the rest by name. */
export function sortRoles(roles: readonly Role[]): Role[] {
  return [...roles].sort((a, b) => Number(b.isBuiltIn) - Number(a.isBuiltIn) || a.name.localeCompare(b.name));
}
