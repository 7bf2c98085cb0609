import { ops, type Grant, type Role } from '@judge/contract';
import type { Command } from 'commander';
import type { JudgeClient } from '@judge/sdk';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { emit, plural, table, when, type JsonOption } from '../output.js';
import { allPages, resolveActivity, resolveUser } from '../resolve.js';
import { sub } from './common.js';

const collect = (v: string, all: string[]) => [...all, ...v.split(',').map((s) => s.trim()).filter(Boolean)];

/** A system role by name (any case) or id. */
async function resolveRole(c: JudgeClient, role: string): Promise<Role> {
  const all = await c.call(ops.listRoles, { query: {} });
  const r = all.find((x) => x.id === role || x.name.toLowerCase() === role.toLowerCase());
  if (!r) throw new CliError(`no role ${role} (there are: ${all.map((x) => x.name).join(', ')})`);
  return r;
}

/** What a co-teacher needs in one activity: the Manager role's keys and the printout queue. */
function coTeacherKeys(roles: Role[]): string[] {
  return [...new Set([...(roles.find((r) => r.builtInKey === 'manager')?.permissions ?? []), 'printout:manage'])];
}

const rolesTable = (list: Role[]) =>
  table(
    ['id', 'name', 'built in', 'grants', 'permissions'],
    list.map((r) => [r.id, r.name, r.isBuiltIn ? 'yes' : '', r.grants, r.permissions.join(' ')]),
  );

export function rolesCommands(program: Command): void {
  const roles = program.command('roles').description('Roles: named sets of permissions (what the Roles staff page does)');
  sub(roles, 'list', 'List the system roles with their permissions').action(async (o: JsonOption) => {
    const list = await (await api()).call(ops.listRoles, { query: {} });
    emit(o, list, () => `${rolesTable(list)}\n${plural(list.length, 'role')}`);
  });
  sub(roles, 'permissions', 'The permission catalogue: every key, its group and what it allows').action(async (o: JsonOption) => {
    const list = await (await api()).call(ops.listPermissions);
    emit(o, list, () => table(['key', 'group', 'scope', 'allows'], list.map((p) => [p.key, p.group, p.scope, p.description])));
  });
  sub(roles, 'create <name>', 'Create a role; --co-teacher starts from what a co-teacher needs (the Manager role and printout:manage)')
    .option('--permission <keys>', 'a permission key, or several separated by commas (repeatable)', collect, [] as string[])
    .option('--co-teacher', "start from the co-teacher template: the Manager role's permissions and printout:manage")
    .option('--description <text>', 'what the role is for')
    .option('--activity <activity>', 'make it a role of this activity only')
    .action(async (name: string, o: JsonOption & { permission: string[]; coTeacher?: boolean; description?: string; activity?: string }) => {
      const c = await api();
      const base = o.coTeacher ? coTeacherKeys(await c.call(ops.listRoles, { query: {} })) : [];
      const permissions = [...new Set([...base, ...o.permission])];
      if (!permissions.length) throw new CliError('a role needs at least one permission: --permission <key> or --co-teacher (judgectl roles permissions lists them)');
      const activityId = o.activity ? (await resolveActivity(c, o.activity)).id : undefined;
      const r = await c.call(ops.createRole, { body: { name, permissions, ...(o.description ? { description: o.description } : {}), ...(activityId ? { activityId } : {}) } });
      emit(o, r, () => `Created the role ${r.name} (${r.id}) with ${plural(r.permissions.length, 'permission')}.`);
    });
  sub(roles, 'edit <role>', 'Rename a role or change its permissions; every grant of it follows')
    .option('--name <name>', 'a new name')
    .option('--description <text>', 'a new description')
    .option('--add <keys>', 'permissions to add (repeatable, or separated by commas)', collect, [] as string[])
    .option('--remove <keys>', 'permissions to take away (repeatable, or separated by commas)', collect, [] as string[])
    .action(async (role: string, o: JsonOption & { name?: string; description?: string; add: string[]; remove: string[] }) => {
      const c = await api();
      const r = await resolveRole(c, role);
      const permissions = [...new Set([...r.permissions, ...o.add])].filter((k) => !o.remove.includes(k));
      const description = o.description ?? r.description;
      const saved = await c.call(ops.updateRole, { params: { id: r.id }, body: { name: o.name ?? r.name, permissions, ...(description ? { description } : {}) } });
      emit(o, saved, () => `Saved the role ${saved.name}: ${plural(saved.permissions.length, 'permission')}.`);
    });
  sub(roles, 'delete <role>', 'Delete a role that is not built in and granted to nobody').action(async (role: string, o: JsonOption) => {
    const c = await api();
    const r = await resolveRole(c, role);
    await c.call(ops.deleteRole, { params: { id: r.id } });
    emit(o, { deleted: r.id }, () => `Deleted the role ${r.name}.`);
  });
}

const grantsTable = (list: Grant[]) =>
  table(
    ['id', 'user', 'role', 'where', 'since'],
    list.map((g) => [g.id, g.userName, g.roleName, g.activityName ?? 'system-wide', when(g.createdAt)]),
  );

export function grantsCommands(program: Command): void {
  const grants = program.command('grants').description('Grants: who holds which role, system-wide or in an activity');
  sub(grants, 'list', 'List grants, of one user or in one activity')
    .option('--user <user>', 'only this user (login or id)')
    .option('--activity <activity>', 'only in this activity')
    .action(async (o: JsonOption & { user?: string; activity?: string }) => {
      const c = await api();
      const userId = o.user ? (await resolveUser(c, o.user)).id : undefined;
      const activityId = o.activity ? (await resolveActivity(c, o.activity)).id : undefined;
      const list = await allPages((page, pageSize) => c.call(ops.listGrants, { query: { page, pageSize, ...(userId ? { userId } : {}), ...(activityId ? { activityId } : {}) } }));
      emit(o, list, () => `${grantsTable(list)}\n${plural(list.length, 'grant')}`);
    });
  sub(grants, 'give <user> <role>', 'Give a user a role, system-wide or with --activity in one activity (replacing the role held there)')
    .option('--activity <activity>', 'in this activity only')
    .action(async (user: string, role: string, o: JsonOption & { activity?: string }) => {
      const c = await api();
      const u = await resolveUser(c, user);
      const r = await resolveRole(c, role);
      const activityId = o.activity ? (await resolveActivity(c, o.activity)).id : undefined;
      const g = await c.call(ops.createGrant, { body: { userId: u.id, roleId: r.id, ...(activityId ? { activityId } : {}) } });
      emit(o, g, () => `${u.username} now holds ${g.roleName} ${g.activityName ? `in ${g.activityName}` : 'system-wide'} (grant ${g.id}).`);
    });
  sub(grants, 'take <grant>', 'Take a grant back (its id: see grants list)').action(async (grant: string, o: JsonOption) => {
    await (await api()).call(ops.deleteGrant, { params: { id: grant } });
    emit(o, { deleted: grant }, () => `Took grant ${grant} back.`);
  });
}
