import type { Role } from '@judge/contract';
import { describe, expect, it } from 'vitest';
import { coTeacherPermissions, groupLabel, groupPermissions, sortRoles } from './model';

const role = (over: Partial<Role>): Role => ({ id: 'r', name: 'R', permissions: [], isBuiltIn: false, grants: 0, mappedBy: [], ...over });

describe('the roles page model', () => {
  it('groups the catalogue in its own order, keeping each group together', () => {
    const groups = groupPermissions([
      { key: 'activity:read', group: 'activity', scope: 'activity', description: 'a' },
      { key: 'problem:create', group: 'problem', scope: 'system', description: 'b' },
      { key: 'activity:update', group: 'activity', scope: 'activity', description: 'c' },
    ]);
    expect(groups.map((g) => [g.group, g.entries.map((e) => e.key)])).toEqual([
      ['activity', ['activity:read', 'activity:update']],
      ['problem', ['problem:create']],
    ]);
  });

  it("makes the co-teacher template from the Manager role's permissions plus printout:manage, once", () => {
    const roles = [role({ builtInKey: 'participant', permissions: ['activity:read'] }), role({ builtInKey: 'manager', permissions: ['activity:read', 'question:answer'] })];
    expect(coTeacherPermissions(roles)).toEqual(['activity:read', 'question:answer', 'printout:manage']);
    expect(coTeacherPermissions([role({ builtInKey: 'manager', permissions: ['printout:manage', 'activity:read'] })])).toEqual(['printout:manage', 'activity:read']);
  });

  it('lists built-in roles first, then by name, and names every group of the catalogue', () => {
    const sorted = sortRoles([role({ name: 'b' }), role({ name: 'Manager', isBuiltIn: true }), role({ name: 'a' })]);
    expect(sorted.map((r) => r.name)).toEqual(['Manager', 'a', 'b']);
    expect(groupLabel('printout')).toBe('staff.roles.group.printout');
    expect(groupLabel('no-such-group')).toBeUndefined();
  });
});
