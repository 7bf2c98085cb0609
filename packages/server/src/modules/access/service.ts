import { ApiError, PERMISSIONS, PERMISSION_KEYS, isPermission, notFound, type Grant, type Page, type Permission, type Role } from '@judge/contract';
import { and, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import type { Outbox } from '../../db/transactor.js';
import { activities, grants, roles } from '../../db/schema.js';
import { event, type Audience } from '../../events/bus.js';
import type { Deps } from '../../services.js';
import { compact, iso, newId } from '../../util.js';
import { displayName, findUserById } from '../users/index.js';

type RoleRow = typeof roles.$inferSelect;
type GrantRow = typeof grants.$inferSelect;

export interface RoleInput {
  name: string;
  description?: string | undefined;
  permissions: string[];
  activityId?: string | undefined;
}

export interface GrantInput {
  userId: string;
  roleId: string;
  activityId?: string | undefined;
  overrideSystem?: boolean | undefined;
}

const ADMIN_KEY: Permission = 'system:administrator';

/** Roles, grants and the permission catalogue (decisions §5). */
export class AccessService {
  constructor(private readonly d: Deps) {}

  // ---- roles ----

  private roleView(r: RoleRow): Role {
    const count = this.d.db.select({ n: sql<number>`count(*)` }).from(grants).where(eq(grants.roleId, r.id)).get()?.n ?? 0;
    const activityName = r.activityId ? this.d.db.select({ name: activities.name }).from(activities).where(eq(activities.id, r.activityId)).get()?.name : undefined;
    return compact({
      id: r.id,
      name: r.name,
      description: r.description,
      permissions: r.permissions,
      isBuiltIn: r.builtInKey !== null,
      builtInKey: r.builtInKey,
      activityId: r.activityId,
      activityName,
      grants: count,
      mappedBy: [] as string[],
    }) as Role;
  }

  private roleAudience(r: RoleRow): Audience {
    return r.activityId ? { kind: 'permission', key: 'role:read', activityId: r.activityId } : { kind: 'permission', key: 'role:read', anywhere: true };
  }

  listRoles(actor: Actor, activityId: string | undefined): Role[] {
    this.d.permissions.require(actor, 'role:read', activityId);
    if (activityId) this.activity(activityId);
    const rows = this.d.db
      .select()
      .from(roles)
      .where(activityId ? or(isNull(roles.activityId), eq(roles.activityId, activityId)) : isNull(roles.activityId))
      .orderBy(roles.createdAt, roles.id)
      .all();
    return rows.map((r) => this.roleView(r));
  }

  private checkKeys(actor: Actor, keys: string[], activityId: string | null): string[] {
    const unknown = keys.filter((k) => !isPermission(k));
    if (unknown.length) {
      throw ApiError.of('grant.permission.unknown', `Unknown permissions: ${unknown.join(', ')}`, { permissions: unknown.map((k) => `unknown permission ${k}`) });
    }
    this.requireHolds(actor, keys as Permission[], activityId);
    return [...new Set(keys)].sort((a, b) => PERMISSION_KEYS.indexOf(a as Permission) - PERMISSION_KEYS.indexOf(b as Permission));
  }

  /** Nobody hands out, or takes away, a key they do not hold themselves (403 grant.excess). */
  private requireHolds(actor: Actor, keys: readonly string[], activityId: string | null): void {
    if (this.d.permissions.isAdministrator(actor.userId)) return;
    // in an activity, system-scoped keys confer nothing, so handing them out there costs nothing:
    // a manager may appoint a co-manager with the built-in manager role
    const effectual = activityId ? keys.filter((k) => PERMISSIONS[k as Permission].scope === 'activity') : keys;
    const missing = effectual.filter((k) => !this.d.permissions.has(actor.userId, k as Permission, activityId));
    if (missing.length) throw ApiError.of('grant.excess', `You do not hold ${missing.join(', ')}`);
  }

  private role(id: string): RoleRow {
    const r = this.d.db.select().from(roles).where(eq(roles.id, id)).get();
    if (!r) throw notFound('role');
    return r;
  }

  private activity(id: string): { id: string; name: string } {
    const a = this.d.db.select({ id: activities.id, name: activities.name }).from(activities).where(eq(activities.id, id)).get();
    if (!a) throw notFound('activity');
    return a;
  }

  private nameTaken(name: string, activityId: string | null, exceptId?: string): boolean {
    const key = name.trim().toLowerCase();
    const row = this.d.db
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.nameKey, key), activityId ? eq(roles.activityId, activityId) : isNull(roles.activityId)))
      .get();
    return !!row && row.id !== exceptId;
  }

  createRole(actor: Actor, input: RoleInput): Role {
    this.d.permissions.require(actor, 'role:manage');
    return this.d.tx.run((out) => {
      const activityId = input.activityId ?? null;
      if (activityId) this.activity(activityId);
      const keys = this.checkKeys(actor, input.permissions, activityId);
      if (this.nameTaken(input.name, activityId)) throw ApiError.of('role.name.taken', `A role named ${input.name} exists`);
      const row = this.d.db
        .insert(roles)
        .values({
          id: newId(),
          name: input.name.trim(),
          nameKey: input.name.trim().toLowerCase(),
          description: input.description ?? null,
          permissions: keys,
          activityId,
          createdAt: iso(this.d.clock.now()),
        })
        .returning()
        .get();
      const view = this.roleView(row);
      out.emit(event('roleChanged', { role: view }, this.roleAudience(row)));
      return view;
    });
  }

  updateRole(actor: Actor, id: string, input: RoleInput): Role {
    this.d.permissions.require(actor, 'role:manage');
    return this.d.tx.run((out) => {
      const r = this.role(id);
      if (input.activityId !== undefined && input.activityId !== r.activityId) {
        throw ApiError.of('role.activity.mismatch', 'A role cannot move to another activity');
      }
      const keys = this.checkKeys(actor, input.permissions, r.activityId);
      // what is taken away must be held too, or a manager could strip an administrator's role
      this.requireHolds(actor, r.permissions.filter((k) => !keys.includes(k)), r.activityId);
      if (r.builtInKey === 'administrator' && !keys.includes(ADMIN_KEY)) {
        throw ApiError.of('role.builtIn', 'The administrator role keeps system:administrator, or nobody could run the installation');
      }
      if (this.nameTaken(input.name, r.activityId, r.id)) throw ApiError.of('role.name.taken', `A role named ${input.name} exists`);
      const row = this.d.db
        .update(roles)
        .set({ name: input.name.trim(), nameKey: input.name.trim().toLowerCase(), description: input.description ?? r.description, permissions: keys })
        .where(eq(roles.id, r.id))
        .returning()
        .get()!;
      out.touchPermissions();
      const view = this.roleView(row);
      out.emit(event('roleChanged', { role: view }, this.roleAudience(row)));
      return view;
    });
  }

  deleteRole(actor: Actor, id: string): void {
    this.d.permissions.require(actor, 'role:manage');
    this.d.tx.run((out) => {
      const r = this.role(id);
      if (r.builtInKey) throw ApiError.of('role.builtIn', 'Built-in roles can be edited but not deleted');
      const held = this.d.db.select({ n: sql<number>`count(*)` }).from(grants).where(eq(grants.roleId, r.id)).get()?.n ?? 0;
      if (held > 0) throw ApiError.of('role.inUse', `The role is granted ${held} time(s); take those grants away first`);
      this.d.db.delete(roles).where(eq(roles.id, r.id)).run();
      out.emit(event('roleChanged', { deletedId: r.id }, this.roleAudience(r)));
    });
  }

  // ---- grants ----

  private grantView(g: GrantRow): Grant {
    const user = findUserById(this.d.db, g.userId)!;
    const role = this.role(g.roleId);
    const activityName = g.activityId ? this.d.db.select({ name: activities.name }).from(activities).where(eq(activities.id, g.activityId)).get()?.name : undefined;
    return compact({
      id: g.id,
      userId: g.userId,
      userName: displayName(user),
      roleId: g.roleId,
      roleName: role.name,
      activityId: g.activityId,
      activityName,
      overrideSystem: g.overrideSystem,
      permissions: role.permissions,
      createdAt: g.createdAt,
    }) as Grant;
  }

  private grantAudience(g: Pick<GrantRow, 'activityId' | 'userId'>): Audience {
    return { kind: 'permission', key: 'grant:read:all', activityId: g.activityId, alsoUsers: [g.userId] };
  }

  listGrants(actor: Actor, q: { page: number; pageSize: number; userId?: string | undefined; activityId?: string | undefined }): Page<Grant> {
    this.d.permissions.require(actor, 'grant:read:all', q.activityId);
    const where: SQL[] = [];
    if (q.userId) where.push(eq(grants.userId, q.userId));
    if (q.activityId) where.push(eq(grants.activityId, q.activityId));
    const filter = where.length ? and(...where) : undefined;
    const total = this.d.db.select({ n: sql<number>`count(*)` }).from(grants).where(filter).get()?.n ?? 0;
    const rows = this.d.db
      .select()
      .from(grants)
      .where(filter)
      .orderBy(desc(grants.createdAt), desc(grants.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .all();
    return { items: rows.map((g) => this.grantView(g)), total, page: q.page, pageSize: q.pageSize };
  }

  createGrant(actor: Actor, input: GrantInput): Grant {
    const activityId = input.activityId ?? null;
    this.d.permissions.require(actor, 'grant:update', activityId);
    return this.d.tx.run((out) => {
      if (!findUserById(this.d.db, input.userId)) throw notFound('user');
      const role = this.role(input.roleId);
      if (activityId) this.activity(activityId);
      if (role.activityId && role.activityId !== activityId) throw ApiError.of('role.activity.mismatch', 'This role belongs to another activity');
      if (activityId && role.permissions.includes(ADMIN_KEY)) {
        throw ApiError.of('role.activity.mismatch', 'A role holding system:administrator is granted system-wide only');
      }
      this.requireHolds(actor, role.permissions, activityId);
      const override = activityId ? !!input.overrideSystem : false;
      if (override && input.userId !== actor.userId && this.d.permissions.isAdministrator(input.userId)) {
        throw ApiError.of('grant.override.administrator', 'Only an administrator may stand down in an activity, on their own grant');
      }
      const now = iso(this.d.clock.now());
      let row: GrantRow;
      const existing = this.d.db
        .select()
        .from(grants)
        .where(activityId ? and(eq(grants.userId, input.userId), eq(grants.activityId, activityId)) : and(eq(grants.userId, input.userId), eq(grants.roleId, role.id), isNull(grants.activityId)))
        .get();
      if (existing) {
        // an activity holds one membership per user: granting again replaces its role
        this.requireHolds(actor, this.role(existing.roleId).permissions, activityId);
        row = this.d.db.update(grants).set({ roleId: role.id, overrideSystem: override }).where(eq(grants.id, existing.id)).returning().get()!;
      } else {
        row = this.d.db.insert(grants).values({ id: newId(), userId: input.userId, roleId: role.id, activityId, overrideSystem: override, createdAt: now }).returning().get();
      }
      out.touchPermissions();
      const view = this.grantView(row);
      out.emit(event('grantChanged', { grant: view }, this.grantAudience(row)));
      return view;
    });
  }

  deleteGrant(actor: Actor, id: string): void {
    this.d.tx.run((out) => {
      const g = this.d.db.select().from(grants).where(eq(grants.id, id)).get();
      if (!g) throw notFound('grant');
      this.d.permissions.require(actor, 'grant:update', g.activityId);
      const role = this.role(g.roleId);
      this.requireHolds(actor, role.permissions, g.activityId);
      if (!g.activityId && role.permissions.includes(ADMIN_KEY)) {
        const admins = this.d.sqlite
          .prepare(
            `SELECT count(DISTINCT g.user_id) AS n FROM grants g JOIN roles r ON r.id = g.role_id JOIN users u ON u.id = g.user_id
              WHERE g.activity_id IS NULL AND u.blocked_at IS NULL AND EXISTS (SELECT 1 FROM json_each(r.permissions) WHERE value = ?)`,
          )
          .get(ADMIN_KEY) as { n: number };
        if (admins.n <= 1) throw ApiError.of('conflict', 'This is the last administrator grant; give another account the administrator role first');
      }
      this.d.db.delete(grants).where(eq(grants.id, g.id)).run();
      out.touchPermissions();
      out.emit(event('grantChanged', compact({ deletedId: g.id, userId: g.userId, activityId: g.activityId }), this.grantAudience(g)));
    });
  }

  // ---- permissions ----

  catalogue() {
    return PERMISSION_KEYS.map((key) => ({ key, ...PERMISSIONS[key] }));
  }

  mine(actor: Actor, activityId: string | undefined): string[] {
    // system-scoped keys count only from system grants, exactly as the checks treat them; and in an
    // activity where the caller's grant has overrideSystem, nothing beyond that grant's keys (decisions §5)
    const there = this.d.permissions.effective(actor.userId, activityId ?? null);
    return PERMISSION_KEYS.filter((k) => there.has(k) && this.d.permissions.has(actor.userId, k, activityId ?? null));
  }
}

/**
 * Gives a user a built-in role in an activity, replacing the membership they hold there, if any.
 * Creating an activity makes its creator `manager`; enrolling makes a `participant`.
 */
export function grantBuiltInRole(d: Deps, userId: string, key: 'participant' | 'manager', activityId: string, out: Outbox): Grant {
  const role = d.db.select().from(roles).where(eq(roles.builtInKey, key)).get();
  // `judge init` creates the built-in roles and nothing deletes them: a missing one is a broken
  // installation, not a request the caller can correct, so it is a 500 rather than a catalogued code
  if (!role) throw new Error(`the ${key} role is missing; the database was not initialised`);
  const existing = d.db.select().from(grants).where(and(eq(grants.userId, userId), eq(grants.activityId, activityId))).get();
  const row = existing
    ? d.db.update(grants).set({ roleId: role.id }).where(eq(grants.id, existing.id)).returning().get()!
    : d.db.insert(grants).values({ id: newId(), userId, roleId: role.id, activityId, overrideSystem: false, createdAt: iso(d.clock.now()) }).returning().get();
  out.touchPermissions();
  const user = findUserById(d.db, userId)!;
  const activity = d.db.select({ name: activities.name }).from(activities).where(eq(activities.id, activityId)).get();
  const view = compact({
    id: row.id,
    userId,
    userName: displayName(user),
    roleId: role.id,
    roleName: role.name,
    activityId,
    activityName: activity?.name,
    overrideSystem: row.overrideSystem,
    permissions: role.permissions,
    createdAt: row.createdAt,
  }) as Grant;
  out.emit(event('grantChanged', { grant: view }, { kind: 'permission', key: 'grant:read:all', activityId, alsoUsers: [userId] }));
  return view;
}
