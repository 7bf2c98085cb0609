import { ApiError, PERMISSIONS, PERMISSION_KEYS, isPermission, notFound, type Grant, type Page, type Permission, type Role } from '@judge/contract';
import { and, count, countDistinct, desc, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import { activities, grants, roles, users } from '../../db/schema.js';
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

  private async roleView(q: Q, r: RoleRow): Promise<Role> {
    const held = (await q.select({ n: count() }).from(grants).where(eq(grants.roleId, r.id)))[0]?.n ?? 0;
    const activityName = r.activityId ? await activityNameOf(q, r.activityId) : undefined;
    return compact({
      id: r.id,
      name: r.name,
      description: r.description,
      permissions: r.permissions,
      isBuiltIn: r.builtInKey !== null,
      builtInKey: r.builtInKey,
      activityId: r.activityId,
      activityName,
      grants: held,
      mappedBy: [] as string[],
    }) as Role;
  }

  private roleAudience(r: RoleRow): Audience {
    return r.activityId ? { kind: 'permission', key: 'role:read', activityId: r.activityId } : { kind: 'permission', key: 'role:read', anywhere: true };
  }

  async listRoles(actor: Actor, activityId: string | undefined): Promise<Role[]> {
    await this.d.permissions.require(actor, 'role:read', activityId);
    return this.d.tx.read(async (q) => {
      if (activityId) await activity(q, activityId);
      const rows = await q
        .select()
        .from(roles)
        .where(activityId ? or(isNull(roles.activityId), eq(roles.activityId, activityId)) : isNull(roles.activityId))
        .orderBy(roles.createdAt, roles.id);
      const views: Role[] = [];
      for (const r of rows) views.push(await this.roleView(q, r));
      return views;
    });
  }

  private async checkKeys(q: Q, actor: Actor, keys: string[], activityId: string | null): Promise<string[]> {
    const unknown = keys.filter((k) => !isPermission(k));
    if (unknown.length) {
      throw ApiError.of('grant.permission.unknown', `Unknown permissions: ${unknown.join(', ')}`, { permissions: unknown.map((k) => `unknown permission ${k}`) });
    }
    await this.requireHolds(q, actor, keys as Permission[], activityId);
    return [...new Set(keys)].sort((a, b) => PERMISSION_KEYS.indexOf(a as Permission) - PERMISSION_KEYS.indexOf(b as Permission));
  }

  /** Nobody hands out, or takes away, a key they do not hold themselves (403 grant.excess). */
  private async requireHolds(q: Q, actor: Actor, keys: readonly string[], activityId: string | null): Promise<void> {
    if (await this.d.permissions.isAdministrator(actor.userId, q)) return;
    // in an activity, system-scoped keys confer nothing, so handing them out there costs nothing:
    // a manager may appoint a co-manager with the built-in manager role
    const effectual = activityId ? keys.filter((k) => PERMISSIONS[k as Permission].scope === 'activity') : keys;
    const missing: string[] = [];
    for (const k of effectual) if (!(await this.d.permissions.has(actor.userId, k as Permission, activityId, q))) missing.push(k);
    if (missing.length) throw ApiError.of('grant.excess', `You do not hold ${missing.join(', ')}`);
  }

  private async nameTaken(q: Q, name: string, activityId: string | null, exceptId?: string): Promise<boolean> {
    const key = name.trim().toLowerCase();
    const row = (
      await q
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.nameKey, key), activityId ? eq(roles.activityId, activityId) : isNull(roles.activityId)))
        .limit(1)
    )[0];
    return !!row && row.id !== exceptId;
  }

  /**
   * Role and grant writes check, then write, in one transaction: on PostgreSQL its SERIALIZABLE
   * isolation (retried) keeps two administrators from both passing a check the other's write breaks
   * (the last administrator grant, a role name).
   */
  async createRole(actor: Actor, input: RoleInput): Promise<Role> {
    await this.d.permissions.require(actor, 'role:manage');
    return this.d.tx.write(async (q, out) => {
      const activityId = input.activityId ?? null;
      if (activityId) await activity(q, activityId);
      const keys = await this.checkKeys(q, actor, input.permissions, activityId);
      if (await this.nameTaken(q, input.name, activityId)) throw ApiError.of('role.name.taken', `A role named ${input.name} exists`);
      const [row] = await q
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
        .returning();
      const view = await this.roleView(q, row!);
      out.emit(event('roleChanged', { role: view }, this.roleAudience(row!)));
      return view;
    });
  }

  async updateRole(actor: Actor, id: string, input: RoleInput): Promise<Role> {
    await this.d.permissions.require(actor, 'role:manage');
    return this.d.tx.write(async (q, out) => {
      const r = await role(q, id);
      if (input.activityId !== undefined && input.activityId !== r.activityId) {
        throw ApiError.of('role.activity.mismatch', 'A role cannot move to another activity');
      }
      const keys = await this.checkKeys(q, actor, input.permissions, r.activityId);
      // what is taken away must be held too, or a manager could strip an administrator's role
      await this.requireHolds(q, actor, r.permissions.filter((k) => !keys.includes(k)), r.activityId);
      if (r.builtInKey === 'administrator' && !keys.includes(ADMIN_KEY)) {
        throw ApiError.of('role.builtIn', 'The administrator role keeps system:administrator, or nobody could run the installation');
      }
      if (await this.nameTaken(q, input.name, r.activityId, r.id)) throw ApiError.of('role.name.taken', `A role named ${input.name} exists`);
      const [row] = await q
        .update(roles)
        .set({ name: input.name.trim(), nameKey: input.name.trim().toLowerCase(), description: input.description ?? r.description, permissions: keys })
        .where(eq(roles.id, r.id))
        .returning();
      out.touchPermissions();
      const view = await this.roleView(q, row!);
      out.emit(event('roleChanged', { role: view }, this.roleAudience(row!)));
      return view;
    });
  }

  async deleteRole(actor: Actor, id: string): Promise<void> {
    await this.d.permissions.require(actor, 'role:manage');
    await this.d.tx.write(async (q, out) => {
      const r = await role(q, id);
      if (r.builtInKey) throw ApiError.of('role.builtIn', 'Built-in roles can be edited but not deleted');
      const held = (await q.select({ n: count() }).from(grants).where(eq(grants.roleId, r.id)))[0]?.n ?? 0;
      if (held > 0) throw ApiError.of('role.inUse', `The role is granted ${held} time(s); take those grants away first`);
      await q.delete(roles).where(eq(roles.id, r.id));
      out.emit(event('roleChanged', { deletedId: r.id }, this.roleAudience(r)));
    });
  }

  // ---- grants ----

  private async grantView(q: Q, g: GrantRow): Promise<Grant> {
    const user = (await findUserById(q, g.userId))!;
    const r = await role(q, g.roleId);
    const activityName = g.activityId ? await activityNameOf(q, g.activityId) : undefined;
    return compact({
      id: g.id,
      userId: g.userId,
      userName: displayName(user),
      roleId: g.roleId,
      roleName: r.name,
      activityId: g.activityId,
      activityName,
      overrideSystem: g.overrideSystem,
      permissions: r.permissions,
      createdAt: g.createdAt,
    }) as Grant;
  }

  private grantAudience(g: Pick<GrantRow, 'activityId' | 'userId'>): Audience {
    return { kind: 'permission', key: 'grant:read:all', activityId: g.activityId, alsoUsers: [g.userId] };
  }

  async listGrants(actor: Actor, page: { page: number; pageSize: number; userId?: string | undefined; activityId?: string | undefined }): Promise<Page<Grant>> {
    await this.d.permissions.require(actor, 'grant:read:all', page.activityId);
    const where: SQL[] = [];
    if (page.userId) where.push(eq(grants.userId, page.userId));
    if (page.activityId) where.push(eq(grants.activityId, page.activityId));
    const filter = where.length ? and(...where) : undefined;
    return this.d.tx.read(async (q) => {
      const total = (await q.select({ n: count() }).from(grants).where(filter))[0]?.n ?? 0;
      const rows = await q
        .select()
        .from(grants)
        .where(filter)
        .orderBy(desc(grants.createdAt), desc(grants.id))
        .limit(page.pageSize)
        .offset((page.page - 1) * page.pageSize);
      const items: Grant[] = [];
      for (const g of rows) items.push(await this.grantView(q, g));
      return { items, total, page: page.page, pageSize: page.pageSize };
    });
  }

  async createGrant(actor: Actor, input: GrantInput): Promise<Grant> {
    const activityId = input.activityId ?? null;
    await this.d.permissions.require(actor, 'grant:update', activityId);
    return this.d.tx.write(async (q, out) => {
      if (!(await findUserById(q, input.userId))) throw notFound('user');
      const r = await role(q, input.roleId);
      if (activityId) await activity(q, activityId);
      if (r.activityId && r.activityId !== activityId) throw ApiError.of('role.activity.mismatch', 'This role belongs to another activity');
      if (activityId && r.permissions.includes(ADMIN_KEY)) {
        throw ApiError.of('role.activity.mismatch', 'A role holding system:administrator is granted system-wide only');
      }
      await this.requireHolds(q, actor, r.permissions, activityId);
      const override = activityId ? !!input.overrideSystem : false;
      if (override && input.userId !== actor.userId && (await this.d.permissions.isAdministrator(input.userId, q))) {
        throw ApiError.of('grant.override.administrator', 'Only an administrator may stand down in an activity, on their own grant');
      }
      const now = iso(this.d.clock.now());
      const existing = (
        await q
          .select()
          .from(grants)
          .where(activityId ? and(eq(grants.userId, input.userId), eq(grants.activityId, activityId)) : and(eq(grants.userId, input.userId), eq(grants.roleId, r.id), isNull(grants.activityId)))
          .limit(1)
      )[0];
      let row: GrantRow;
      if (existing) {
        // an activity holds one membership per user: granting again replaces its role
        await this.requireHolds(q, actor, (await role(q, existing.roleId)).permissions, activityId);
        row = (await q.update(grants).set({ roleId: r.id, overrideSystem: override }).where(eq(grants.id, existing.id)).returning())[0]!;
      } else {
        row = (await q.insert(grants).values({ id: newId(), userId: input.userId, roleId: r.id, activityId, overrideSystem: override, createdAt: now }).returning())[0]!;
      }
      out.touchPermissions();
      const view = await this.grantView(q, row);
      out.emit(event('grantChanged', { grant: view }, this.grantAudience(row)));
      return view;
    });
  }

  async deleteGrant(actor: Actor, id: string): Promise<void> {
    await this.d.tx.write(async (q, out) => {
      const g = (await q.select().from(grants).where(eq(grants.id, id)).limit(1))[0];
      if (!g) throw notFound('grant');
      await this.d.permissions.require(actor, 'grant:update', g.activityId, q);
      const r = await role(q, g.roleId);
      await this.requireHolds(q, actor, r.permissions, g.activityId);
      if (!g.activityId && r.permissions.includes(ADMIN_KEY) && (await administrators(q)) <= 1) {
        throw ApiError.of('conflict', 'This is the last administrator grant; give another account the administrator role first');
      }
      await q.delete(grants).where(eq(grants.id, g.id));
      out.touchPermissions();
      out.emit(event('grantChanged', compact({ deletedId: g.id, userId: g.userId, activityId: g.activityId }), this.grantAudience(g)));
    });
  }

  // ---- permissions ----

  catalogue() {
    return PERMISSION_KEYS.map((key) => ({ key, ...PERMISSIONS[key] }));
  }

  /** The users whose grant in an activity lets them manage it (activity:update): its staff, for the CLICS accounts (decisions §25). */
  async staffOf(activityId: string): Promise<string[]> {
    const rows = await this.d.tx.read((q) =>
      q.select({ userId: grants.userId, permissions: roles.permissions }).from(grants).innerJoin(roles, eq(roles.id, grants.roleId)).where(eq(grants.activityId, activityId)),
    );
    return [...new Set(rows.filter((r) => r.permissions.includes('activity:update')).map((r) => r.userId))];
  }

  async mine(actor: Actor, activityId: string | undefined): Promise<string[]> {
    // system-scoped keys count only from system grants, exactly as the checks treat them; and in an
    // activity where the caller's grant has overrideSystem, nothing beyond that grant's keys (decisions §5)
    const there = await this.d.permissions.effective(actor.userId, activityId ?? null);
    const mine: string[] = [];
    for (const k of PERMISSION_KEYS) if (there.has(k) && (await this.d.permissions.has(actor.userId, k, activityId ?? null))) mine.push(k);
    return mine;
  }
}

async function role(q: Q, id: string): Promise<RoleRow> {
  const r = (await q.select().from(roles).where(eq(roles.id, id)).limit(1))[0];
  if (!r) throw notFound('role');
  return r;
}

async function activity(q: Q, id: string): Promise<{ id: string; name: string }> {
  const a = (await q.select({ id: activities.id, name: activities.name }).from(activities).where(eq(activities.id, id)).limit(1))[0];
  if (!a) throw notFound('activity');
  return a;
}

async function activityNameOf(q: Q, id: string): Promise<string | undefined> {
  return (await q.select({ name: activities.name }).from(activities).where(eq(activities.id, id)).limit(1))[0]?.name;
}

/**
 * Accounts, not blocked, holding system:administrator through a system grant. A role's keys are a
 * JSON list; which roles hold the key is decided here rather than in SQL (the two engines read
 * JSON differently), and there are few roles.
 */
async function administrators(q: Q): Promise<number> {
  const adminRoles = (await q.select({ id: roles.id, permissions: roles.permissions }).from(roles))
    .filter((r) => r.permissions.includes(ADMIN_KEY))
    .map((r) => r.id);
  if (!adminRoles.length) return 0;
  const [row] = await q
    .select({ n: countDistinct(grants.userId) })
    .from(grants)
    .innerJoin(users, eq(users.id, grants.userId))
    .where(and(isNull(grants.activityId), isNull(users.blockedAt), inArray(grants.roleId, adminRoles)));
  return row?.n ?? 0;
}

/**
 * Gives a user a built-in role in an activity, replacing the membership they hold there, if any.
 * Creating an activity makes its creator `manager`; enrolling makes a `participant`. Runs inside
 * the caller's transaction; the unique (user, activity) membership decides a race on PostgreSQL.
 */
export async function grantBuiltInRole(q: Q, d: Pick<Deps, 'clock'>, userId: string, key: 'participant' | 'manager', activityId: string, out: Outbox): Promise<Grant> {
  const r = (await q.select().from(roles).where(eq(roles.builtInKey, key)).limit(1))[0];
  // `judge init` creates the built-in roles and nothing deletes them: a missing one is a broken
  // installation, not a request the caller can correct, so it is a 500 rather than a catalogued code
  if (!r) throw new Error(`the ${key} role is missing; the database was not initialised`);
  const existing = (await q.select().from(grants).where(and(eq(grants.userId, userId), eq(grants.activityId, activityId))).limit(1))[0];
  const [row] = existing
    ? await q.update(grants).set({ roleId: r.id }).where(eq(grants.id, existing.id)).returning()
    : await q.insert(grants).values({ id: newId(), userId, roleId: r.id, activityId, overrideSystem: false, createdAt: iso(d.clock.now()) }).returning();
  out.touchPermissions();
  const user = (await findUserById(q, userId))!;
  const name = await activityNameOf(q, activityId);
  const view = compact({
    id: row!.id,
    userId,
    userName: displayName(user),
    roleId: r.id,
    roleName: r.name,
    activityId,
    activityName: name,
    overrideSystem: row!.overrideSystem,
    permissions: r.permissions,
    createdAt: row!.createdAt,
  }) as Grant;
  out.emit(event('grantChanged', { grant: view }, { kind: 'permission', key: 'grant:read:all', activityId, alsoUsers: [userId] }));
  return view;
}
