import { ops, type Activity, type Grant, type Role } from '@judge/contract';
import { ApiProblem, type JudgeClient } from '@judge/sdk';
import { CliError } from './errors.js';
import { allPages, isId } from './resolve.js';

/** An existing account as the membership commands name it. */
export interface Account {
  id: string;
  username: string;
}

/** Every account by id and by lower-case username; null when the caller may not list accounts. */
export async function accountDirectory(c: JudgeClient): Promise<Map<string, Account> | null> {
  try {
    const all = await allPages((page, pageSize) => c.call(ops.listManagedUsers, { query: { includeBlocked: 'true', page, pageSize } }));
    const byKey = new Map<string, Account>();
    for (const u of all) {
      byKey.set(u.id, { id: u.id, username: u.username });
      byKey.set(`@${u.username.toLowerCase()}`, { id: u.id, username: u.username });
    }
    return byKey;
  } catch (e) {
    if (e instanceof ApiProblem && e.status === 403) return null;
    throw e;
  }
}

/**
 * The accounts named by username or id, each once, in the order given. Every name is checked before
 * the caller changes anything: one unknown name refuses them all. Without user:read:all only ids
 * can be given, and the server checks them as it grants.
 */
export async function resolveAccounts(c: JudgeClient, names: string[]): Promise<Account[]> {
  const directory = await accountDirectory(c);
  const out: Account[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const found = directory ? (directory.get(name) ?? directory.get(`@${name.toLowerCase()}`)) : isId(name) ? { id: name, username: name } : undefined;
    if (!found) unknown.push(name);
    else if (!out.some((a) => a.id === found.id)) out.push(found);
  }
  if (unknown.length && !directory) {
    throw new CliError(`looking accounts up by username needs the permission user:read:all, which you lack: give user ids instead of ${unknown.join(', ')}; nothing changed`);
  }
  if (unknown.length) throw new CliError(`no account ${unknown.join(', ')}; nothing changed`);
  return out;
}

/** A membership of the activity: the grant, its role, and its holder's username when it can be read. */
export interface Membership {
  grant: Grant;
  role: Role | undefined;
  username: string | undefined;
}

/** The activity's roles (system roles and its own), for picking the built-in ones by key. */
export async function activityRoles(c: JudgeClient, a: Activity): Promise<Role[]> {
  return c.call(ops.listRoles, { query: { activityId: a.id } });
}

export function builtInRole(roles: Role[], key: 'participant' | 'manager'): Role {
  const r = roles.find((x) => x.builtInKey === key);
  if (!r) throw new CliError(`the server has no built-in ${key} role; nothing changed`);
  return r;
}

/** Every grant in the activity, oldest first, with what it takes to show it. */
export async function memberships(c: JudgeClient, a: Activity, roles: Role[], directory?: Map<string, Account> | null): Promise<Membership[]> {
  const grants = await allPages((page, pageSize) => c.call(ops.listGrants, { query: { activityId: a.id, page, pageSize } }));
  const names = directory === undefined && grants.length ? await accountDirectory(c) : directory;
  return grants.reverse().map((grant) => ({ grant, role: roles.find((r) => r.id === grant.roleId), username: names?.get(grant.userId)?.username }));
}

/** What a membership's role is called in the commands' output: `participant`, `manager`, or the role's name. */
export function roleLabel(m: Membership): string {
  return m.role?.builtInKey ?? m.grant.roleName;
}
