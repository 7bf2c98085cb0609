import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES, PERMISSIONS, PERMISSION_KEYS, ops, type Grant, type Role } from '@judge/contract';
import { ApiProblem, type JudgeClient } from '@judge/sdk';
import { refusedWith } from './expect.js';
import { TestJudge, raw, type TestUser } from './harness.js';

/**
 * Roles, grants and the permission catalogue over real HTTP and a real SQLite file (CONTRACT §5):
 * who may read and change them, what every refusal leaves untouched, and how a grant's keys reach
 * the caller at once, OverrideSystem included.
 */

const PARTICIPANT_KEYS = [...BUILT_IN_ROLES.participant.permissions];
const inCatalogueOrder = (keys: readonly string[]) => [...keys].sort((a, b) => PERMISSION_KEYS.indexOf(a as never) - PERMISSION_KEYS.indexOf(b as never));
const NOT_A_UUID = 'not-a-uuid';
const UNKNOWN_UUID = '0190f5d2-6c3a-7b4e-8f00-000000000000';

let seq = 0;
const uniq = (prefix: string) => `${prefix}${++seq}`;

const problem = refusedWith;

describe('roles, grants and permissions', () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let builtIn: Record<'participant' | 'manager' | 'administrator', Role>;

  /** Every row of roles and grants, so a refusal is shown to change nothing at all. */
  const snapshot = () =>
    JSON.stringify([
      j.app.deps.sqlite.prepare('SELECT * FROM roles ORDER BY id').all(),
      j.app.deps.sqlite.prepare('SELECT * FROM grants ORDER BY id').all(),
    ]);

  /** The call must fail with this status and code, and leave roles and grants exactly as they were. */
  async function refused(call: () => Promise<unknown>, status: number, code: string): Promise<ApiProblem> {
    const before = snapshot();
    const counts = [j.count('roles'), j.count('grants')];
    const e = await problem(call(), status, code);
    expect([j.count('roles'), j.count('grants')]).toEqual(counts);
    expect(snapshot()).toBe(before);
    return e;
  }

  async function account(prefix = 'user'): Promise<{ u: TestUser; c: JudgeClient }> {
    const u = await j.user(uniq(prefix));
    return { u, c: await j.signIn(u) };
  }

  async function createRole(body: { name: string; permissions: string[]; activityId?: string; description?: string }, as: JudgeClient = admin): Promise<Role> {
    return as.call(ops.createRole, { body });
  }

  const grant = (body: { userId: string; roleId: string; activityId?: string; overrideSystem?: boolean }, as: JudgeClient = admin): Promise<Grant> =>
    as.call(ops.createGrant, { body });

  const mine = (c: JudgeClient, activityId?: string) => c.call(ops.myPermissions, { query: activityId ? { activityId } : {} });

  const grantsOf = (q: { userId?: string; activityId?: string; page?: number; pageSize?: number }, as: JudgeClient = admin) => as.call(ops.listGrants, { query: q });

  async function rolesNow(activityId?: string): Promise<Role[]> {
    return admin.call(ops.listRoles, { query: activityId ? { activityId } : {} });
  }

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    const roles = await rolesNow();
    builtIn = Object.fromEntries(roles.filter((r) => r.builtInKey).map((r) => [r.builtInKey, r])) as typeof builtIn;
  });
  afterAll(() => j.stop());

  // ---------------------------------------------------------------- GET /roles

  describe('GET /roles', () => {
    it('lists the three built-in roles with their keys and grant counts (fresh server)', async () => {
      const roles = await rolesNow();
      expect(roles.map((r) => r.builtInKey).sort()).toEqual(['administrator', 'manager', 'participant']);
      for (const r of roles) {
        const key = r.builtInKey as keyof typeof BUILT_IN_ROLES;
        expect(r).toMatchObject({ isBuiltIn: true, name: BUILT_IN_ROLES[key].name, mappedBy: [] });
        expect(r.activityId).toBeUndefined();
        expect(r.activityName).toBeUndefined();
        expect(r.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        expect([...r.permissions].sort()).toEqual([...BUILT_IN_ROLES[key].permissions].sort());
      }
      const byKey = Object.fromEntries(roles.map((r) => [r.builtInKey, r])) as typeof builtIn;
      expect(byKey).toEqual(builtIn);
      expect(builtIn.administrator.grants).toBe(1); // the seeded admin
      expect(builtIn.participant.grants).toBe(0);
      expect(builtIn.manager.grants).toBe(0);
      expect(builtIn.manager.permissions).toEqual(expect.arrayContaining([...PARTICIPANT_KEYS, 'grant:update', 'role:read', 'user:create:temporary']));

      // the count follows the grants
      const a = j.insertActivity(uniq('count-'));
      const { u } = await account();
      await grant({ userId: u.id, roleId: builtIn.participant.id, activityId: a });
      expect((await rolesNow()).find((r) => r.builtInKey === 'participant')!.grants).toBe(1);
    });

    it("with activityId also lists that activity's own roles, and only those", async () => {
      const a = j.insertActivity(uniq('roles-a-'), 'Course A');
      const b = j.insertActivity(uniq('roles-b-'), 'Course B');
      const ra = await createRole({ name: uniq('Tutor A'), permissions: ['activity:read'], activityId: a });
      const rb = await createRole({ name: uniq('Tutor B'), permissions: ['activity:read'], activityId: b });
      expect(ra).toMatchObject({ activityId: a, activityName: 'Course A', isBuiltIn: false, grants: 0, mappedBy: [] });

      const system = await rolesNow();
      expect(system.map((r) => r.id)).not.toContain(ra.id);
      expect(system.map((r) => r.id)).not.toContain(rb.id);
      expect(system.every((r) => r.activityId === undefined)).toBe(true);

      const inA = await rolesNow(a);
      const ids = inA.map((r) => r.id);
      expect(ids).toEqual(expect.arrayContaining([builtIn.participant.id, builtIn.manager.id, builtIn.administrator.id, ra.id]));
      expect(ids).not.toContain(rb.id);
      expect(inA.find((r) => r.id === ra.id)).toMatchObject({ activityId: a, activityName: 'Course A', permissions: ['activity:read'] });
      expect(inA.filter((r) => r.activityId !== undefined).map((r) => r.id)).toEqual([ra.id]);
    });

    it('refuses a non-UUID activityId (422) and an unknown activity (404)', async () => {
      const bad = await problem(admin.call(ops.listRoles, { query: { activityId: NOT_A_UUID } }), 422, 'validation_failed');
      expect(Object.keys(bad.errors ?? {})).toContain('activityId');
      await problem(admin.call(ops.listRoles, { query: { activityId: UNKNOWN_UUID } }), 404, 'not_found');
    });

    it('needs role:read: a plain user is refused, a manager may list only within their activity', async () => {
      const a = j.insertActivity(uniq('roles-perm-a-'));
      const b = j.insertActivity(uniq('roles-perm-b-'));
      const { c: plain } = await account('plain');
      const e = await problem(plain.call(ops.listRoles, { query: {} }), 403, 'forbidden');
      expect(e.detail).toContain('role:read');
      await problem(plain.call(ops.listRoles, { query: { activityId: a } }), 403, 'forbidden');

      const { u: m, c: manager } = await account('manager');
      await grant({ userId: m.id, roleId: builtIn.manager.id, activityId: a });
      const listed = await manager.call(ops.listRoles, { query: { activityId: a } });
      expect(listed.map((r) => r.builtInKey)).toEqual(expect.arrayContaining(['participant', 'manager', 'administrator']));
      await problem(manager.call(ops.listRoles, { query: {} }), 403, 'forbidden');
      await problem(manager.call(ops.listRoles, { query: { activityId: b } }), 403, 'forbidden');

      await problem(j.anonymous().call(ops.listRoles, { query: {} }), 401, 'unauthenticated');
    });
  });

  // ---------------------------------------------------------------- POST /roles

  describe('POST /roles', () => {
    it('creates a role: 201, Location, trimmed name, keys deduplicated in catalogue order', async () => {
      const name = uniq('Auditor ');
      const res = await admin.send(ops.createRole, {
        body: { name: `  ${name}  `, description: 'Reads things', permissions: ['user:read:all', 'role:read', 'user:read:all'] },
      });
      expect(res.status).toBe(201);
      const role = (await res.json()) as Role;
      expect(res.headers.get('location')).toBe(`/api/v1/roles/${role.id}`);
      expect(role).toEqual({ id: role.id, name, description: 'Reads things', permissions: ['user:read:all', 'role:read'], isBuiltIn: false, grants: 0, mappedBy: [] });
      expect((await rolesNow()).find((r) => r.id === role.id)).toEqual(role);
    });

    it('refuses an unknown permission (422 grant.permission.unknown) and changes nothing', async () => {
      const e = await refused(() => createRole({ name: uniq('Bogus'), permissions: ['activity:read', 'root:everything'] }), 422, 'grant.permission.unknown');
      expect(e.detail).toContain('root:everything');
      expect(Object.keys(e.errors ?? {})).toContain('permissions');
    });

    it('refuses a name already taken, whatever its case (409 role.name.taken)', async () => {
      const name = uniq('Judges');
      await createRole({ name, permissions: [] });
      await refused(() => createRole({ name: name.toUpperCase(), permissions: ['role:read'] }), 409, 'role.name.taken');
      await refused(() => createRole({ name: `  ${name.toLowerCase()} `, permissions: [] }), 409, 'role.name.taken');
      // the built-in names are taken too
      await refused(() => createRole({ name: 'ADMINISTRATOR', permissions: [] }), 409, 'role.name.taken');
    });

    it('refuses an activity role for an unknown activity (404)', async () => {
      await refused(() => createRole({ name: uniq('Ghost'), permissions: ['activity:read'], activityId: UNKNOWN_UUID }), 404, 'not_found');
    });

    it('needs role:manage', async () => {
      const { c: plain } = await account('plain');
      const e = await refused(() => createRole({ name: uniq('Mine'), permissions: [] }, plain), 403, 'forbidden');
      expect(e.detail).toContain('role:manage');
      // an activity manager does not hold role:manage either
      const a = j.insertActivity(uniq('rm-'));
      const { u: m, c: manager } = await account('manager');
      await grant({ userId: m.id, roleId: builtIn.manager.id, activityId: a });
      await refused(() => createRole({ name: uniq('Mine'), permissions: ['activity:read'], activityId: a }, manager), 403, 'forbidden');
    });

    it('lets a non-administrator holding role:manage hand out only keys they hold (403 grant.excess)', async () => {
      const keeper = await createRole({ name: uniq('Role keeper '), permissions: ['role:manage'] });
      const { u, c } = await account('keeper');
      await grant({ userId: u.id, roleId: keeper.id });

      const ok = await createRole({ name: uniq('Sub keeper '), permissions: ['role:manage'] }, c);
      expect(ok.permissions).toEqual(['role:manage']);

      const e = await refused(() => createRole({ name: uniq('Blocker '), permissions: ['role:manage', 'user:block'] }, c), 403, 'grant.excess');
      expect(e.detail).toContain('user:block');
      await refused(() => createRole({ name: uniq('Admin2 '), permissions: ['system:administrator'] }, c), 403, 'grant.excess');
      // nor by editing a role that carries keys they lack
      await refused(
        () => c.call(ops.updateRole, { params: { id: builtIn.participant.id }, body: { name: builtIn.participant.name, permissions: [...builtIn.participant.permissions, 'role:manage'] } }),
        403,
        'grant.excess',
      );
    });

    it('refuses malformed bodies with 422 validation_failed and changes nothing', async () => {
      const cases: [unknown, string][] = [
        [{ name: uniq('X'), permissions: 'role:read' }, 'permissions'],
        [{ name: uniq('X'), permissions: [1, 2] }, 'permissions.0'],
        [{ name: uniq('X') }, 'permissions'],
        [{ name: '', permissions: [] }, 'name'],
        [{ name: '    ', permissions: [] }, 'name'],
        [{ permissions: [] }, 'name'],
        [{ name: 42, permissions: [] }, 'name'],
        [{ name: uniq('X'), permissions: [], activityId: NOT_A_UUID }, 'activityId'],
      ];
      for (const [body, field] of cases) {
        const e = await refused(() => admin.call(ops.createRole, { body: body as never }), 422, 'validation_failed');
        expect(Object.keys(e.errors ?? {}), JSON.stringify(body)).toContain(field);
      }
    });
  });

  // ---------------------------------------------------------------- PUT /roles/{id}

  describe('PUT /roles/{id}', () => {
    it('renames a role and changes its keys; its grants follow at once', async () => {
      const role = await createRole({ name: uniq('Reader '), permissions: ['role:read'] });
      const { u, c } = await account('reader');
      await grant({ userId: u.id, roleId: role.id });
      expect(await mine(c)).toEqual(['role:read']);
      expect((await c.call(ops.listRoles, { query: {} })).length).toBeGreaterThanOrEqual(3);

      const newName = uniq('Lister ');
      const updated = await admin.call(ops.updateRole, { params: { id: role.id }, body: { name: newName, permissions: ['user:read:all'] } });
      expect(updated).toMatchObject({ id: role.id, name: newName, permissions: ['user:read:all'], grants: 1, isBuiltIn: false });
      // the same session, immediately: the key is gone and the new one is there
      expect(await mine(c)).toEqual(['user:read:all']);
      await problem(c.call(ops.listRoles, { query: {} }), 403, 'forbidden');
      const g = await grantsOf({ userId: u.id });
      expect(g.items).toHaveLength(1);
      expect(g.items[0]).toMatchObject({ roleId: role.id, roleName: newName, permissions: ['user:read:all'] });

      await admin.call(ops.updateRole, { params: { id: role.id }, body: { name: newName, permissions: ['role:read', 'user:read:all'] } });
      expect(await mine(c)).toEqual(['user:read:all', 'role:read']);
      expect((await c.call(ops.listRoles, { query: {} })).some((r) => r.id === role.id)).toBe(true);
    });

    it('keeps names unique (case-insensitive), but a role may recase its own name', async () => {
      const a = await createRole({ name: uniq('Alpha '), permissions: [] });
      const b = await createRole({ name: uniq('Beta '), permissions: [] });
      await refused(() => admin.call(ops.updateRole, { params: { id: b.id }, body: { name: a.name.toLowerCase(), permissions: [] } }), 409, 'role.name.taken');
      const recased = await admin.call(ops.updateRole, { params: { id: b.id }, body: { name: b.name.toUpperCase(), permissions: [] } });
      expect(recased.name).toBe(b.name.toUpperCase());
    });

    it('edits built-in roles, and their holders follow', async () => {
      const a = j.insertActivity(uniq('builtin-edit-'));
      const { u, c } = await account('participant');
      await grant({ userId: u.id, roleId: builtIn.participant.id, activityId: a });
      expect(await mine(c, a)).toEqual(inCatalogueOrder(PARTICIPANT_KEYS));

      const edited = await admin.call(ops.updateRole, {
        params: { id: builtIn.participant.id },
        body: { name: 'Contestant', permissions: [...PARTICIPANT_KEYS, 'question:read:all'] },
      });
      expect(edited).toMatchObject({ id: builtIn.participant.id, name: 'Contestant', isBuiltIn: true, builtInKey: 'participant' });
      expect(await mine(c, a)).toEqual(inCatalogueOrder([...PARTICIPANT_KEYS, 'question:read:all']));

      const restored = await admin.call(ops.updateRole, { params: { id: builtIn.participant.id }, body: { name: BUILT_IN_ROLES.participant.name, permissions: PARTICIPANT_KEYS } });
      expect(restored).toMatchObject({ name: BUILT_IN_ROLES.participant.name, isBuiltIn: true, builtInKey: 'participant' });
      expect(await mine(c, a)).toEqual(inCatalogueOrder(PARTICIPANT_KEYS));

      // the administrator role may be renamed and extended, but keeps system:administrator
      const renamed = await admin.call(ops.updateRole, { params: { id: builtIn.administrator.id }, body: { name: 'Superuser', permissions: ['system:administrator', 'user:read:all'] } });
      expect(renamed).toMatchObject({ name: 'Superuser', builtInKey: 'administrator' });
      await admin.call(ops.updateRole, { params: { id: builtIn.administrator.id }, body: { name: BUILT_IN_ROLES.administrator.name, permissions: ['system:administrator'] } });
    });

    it('refuses to take system:administrator from the administrator role (409 role.builtIn)', async () => {
      const e = await refused(
        () => admin.call(ops.updateRole, { params: { id: builtIn.administrator.id }, body: { name: 'Administrator', permissions: ['user:read:all', 'role:manage'] } }),
        409,
        'role.builtIn',
      );
      expect(e.detail).toContain('system:administrator');
      await refused(() => admin.call(ops.updateRole, { params: { id: builtIn.administrator.id }, body: { name: 'Administrator', permissions: [] } }), 409, 'role.builtIn');
      // the admin is still the admin
      expect(await mine(admin)).toEqual(PERMISSION_KEYS);
    });

    it('refuses to move a role to another activity (422 role.activity.mismatch)', async () => {
      const a = j.insertActivity(uniq('move-a-'));
      const b = j.insertActivity(uniq('move-b-'));
      const ra = await createRole({ name: uniq('Helper '), permissions: ['activity:read'], activityId: a });
      await refused(() => admin.call(ops.updateRole, { params: { id: ra.id }, body: { name: ra.name, permissions: ['activity:read'], activityId: b } }), 422, 'role.activity.mismatch');
      const sys = await createRole({ name: uniq('Sys '), permissions: [] });
      await refused(() => admin.call(ops.updateRole, { params: { id: sys.id }, body: { name: sys.name, permissions: [], activityId: a } }), 422, 'role.activity.mismatch');
      // naming its own activity, or none, is fine
      const same = await admin.call(ops.updateRole, { params: { id: ra.id }, body: { name: ra.name, permissions: ['activity:read', 'ranking:read'], activityId: a } });
      expect(same).toMatchObject({ activityId: a, permissions: ['activity:read', 'ranking:read'] });
      const none = await admin.call(ops.updateRole, { params: { id: ra.id }, body: { name: ra.name, permissions: ['activity:read'] } });
      expect(none.activityId).toBe(a);
    });

    it('answers 404 for an unknown or malformed id, 403 without role:manage, 422 for a malformed body', async () => {
      await refused(() => admin.call(ops.updateRole, { params: { id: UNKNOWN_UUID }, body: { name: uniq('Nobody'), permissions: [] } }), 404, 'not_found');
      await refused(() => admin.call(ops.updateRole, { params: { id: NOT_A_UUID }, body: { name: uniq('Nobody'), permissions: [] } }), 404, 'not_found');
      const role = await createRole({ name: uniq('Target '), permissions: [] });
      const { c: plain } = await account('plain');
      await refused(() => plain.call(ops.updateRole, { params: { id: role.id }, body: { name: role.name, permissions: [] } }), 403, 'forbidden');
      await refused(() => admin.call(ops.updateRole, { params: { id: role.id }, body: { name: role.name, permissions: 'role:read' } as never }), 422, 'validation_failed');
      await refused(() => admin.call(ops.updateRole, { params: { id: role.id }, body: { name: '', permissions: [] } }), 422, 'validation_failed');
      await refused(() => admin.call(ops.updateRole, { params: { id: role.id }, body: { name: role.name, permissions: ['nope:nope'] } }), 422, 'grant.permission.unknown');
    });
  });

  // ---------------------------------------------------------------- DELETE /roles/{id}

  describe('DELETE /roles/{id}', () => {
    it('deletes an unused role (204); it is gone afterwards', async () => {
      const role = await createRole({ name: uniq('Temp '), permissions: ['role:read'] });
      const before = j.count('roles');
      const res = await admin.send(ops.deleteRole, { params: { id: role.id } });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      expect(j.count('roles')).toBe(before - 1);
      expect((await rolesNow()).map((r) => r.id)).not.toContain(role.id);
      await refused(() => admin.call(ops.deleteRole, { params: { id: role.id } }), 404, 'not_found');
      // the name is free again
      await createRole({ name: role.name, permissions: [] });
    });

    it('never deletes a built-in role (409 role.builtIn)', async () => {
      for (const key of ['participant', 'manager', 'administrator'] as const) {
        await refused(() => admin.call(ops.deleteRole, { params: { id: builtIn[key].id } }), 409, 'role.builtIn');
      }
    });

    it('refuses to delete a granted role (409 role.inUse) until its grants are gone', async () => {
      const role = await createRole({ name: uniq('Held '), permissions: ['role:read'] });
      const { u } = await account();
      const g = await grant({ userId: u.id, roleId: role.id });
      await refused(() => admin.call(ops.deleteRole, { params: { id: role.id } }), 409, 'role.inUse');
      await admin.call(ops.deleteGrant, { params: { id: g.id } });
      await admin.call(ops.deleteRole, { params: { id: role.id } });
      expect((await rolesNow()).map((r) => r.id)).not.toContain(role.id);
    });

    it('answers 404 for unknown and malformed ids, 403 without role:manage', async () => {
      await refused(() => admin.call(ops.deleteRole, { params: { id: UNKNOWN_UUID } }), 404, 'not_found');
      await refused(() => admin.call(ops.deleteRole, { params: { id: NOT_A_UUID } }), 404, 'not_found');
      const role = await createRole({ name: uniq('Kept '), permissions: [] });
      const { c: plain } = await account('plain');
      await refused(() => plain.call(ops.deleteRole, { params: { id: role.id } }), 403, 'forbidden');
    });
  });

  // ---------------------------------------------------------------- POST /grants

  describe('POST /grants', () => {
    it('creates a system grant and an activity grant (201) and the keys arrive at once', async () => {
      const a = j.insertActivity(uniq('grant-'), 'Grant Course');
      const role = await createRole({ name: uniq('Runner watcher '), permissions: ['runner:read'] });
      const { u, c } = await account('grantee');
      expect(await mine(c)).toEqual([]);

      const res = await admin.send(ops.createGrant, { body: { userId: u.id, roleId: role.id } });
      expect(res.status).toBe(201);
      expect(res.headers.get('location')).toBeTruthy();
      const sys = (await res.json()) as Grant;
      expect(sys).toMatchObject({ userId: u.id, userName: expect.any(String), roleId: role.id, roleName: role.name, overrideSystem: false, permissions: ['runner:read'] });
      expect(sys.activityId).toBeUndefined();
      expect(sys.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(await mine(c)).toEqual(['runner:read']);

      const act = await grant({ userId: u.id, roleId: builtIn.participant.id, activityId: a });
      expect(act).toMatchObject({ userId: u.id, roleId: builtIn.participant.id, activityId: a, activityName: 'Grant Course', overrideSystem: false });
      expect([...act.permissions].sort()).toEqual([...PARTICIPANT_KEYS].sort());
      // activity keys in the activity, plus the system grant; still only the system key system-wide
      expect(await mine(c, a)).toEqual(inCatalogueOrder([...PARTICIPANT_KEYS, 'runner:read']));
      expect(await mine(c)).toEqual(['runner:read']);
      expect((await grantsOf({ userId: u.id })).total).toBe(2);

      // granting the same system role again does not duplicate it
      await grant({ userId: u.id, roleId: role.id });
      expect((await grantsOf({ userId: u.id })).total).toBe(2);
    });

    it('granting again in the same activity replaces the role: still one membership', async () => {
      const a = j.insertActivity(uniq('replace-'));
      const helper = await createRole({ name: uniq('Helper '), permissions: ['activity:read', 'question:read:all', 'question:answer'], activityId: a });
      const { u, c } = await account();
      const first = await grant({ userId: u.id, roleId: builtIn.participant.id, activityId: a });
      const before = j.count('grants');
      const second = await grant({ userId: u.id, roleId: helper.id, activityId: a });
      expect(j.count('grants')).toBe(before);
      expect(second).toMatchObject({ id: first.id, roleId: helper.id, activityId: a });
      const list = await grantsOf({ userId: u.id, activityId: a });
      expect(list.total).toBe(1);
      expect(list.items[0]).toMatchObject({ id: first.id, roleId: helper.id });
      expect(await mine(c, a)).toEqual(['activity:read', 'question:read:all', 'question:answer']);
    });

    it('answers 404 for an unknown user, role or activity', async () => {
      const a = j.insertActivity(uniq('unknowns-'));
      const { u } = await account();
      await refused(() => grant({ userId: UNKNOWN_UUID, roleId: builtIn.participant.id, activityId: a }), 404, 'not_found');
      await refused(() => grant({ userId: 'nobody-at-all', roleId: builtIn.participant.id, activityId: a }), 404, 'not_found');
      await refused(() => grant({ userId: u.id, roleId: UNKNOWN_UUID, activityId: a }), 404, 'not_found');
      await refused(() => grant({ userId: u.id, roleId: builtIn.participant.id, activityId: UNKNOWN_UUID }), 404, 'not_found');
    });

    it("refuses an activity's role anywhere else (422 role.activity.mismatch)", async () => {
      const a = j.insertActivity(uniq('mismatch-a-'));
      const b = j.insertActivity(uniq('mismatch-b-'));
      const ra = await createRole({ name: uniq('Only A '), permissions: ['activity:read'], activityId: a });
      const { u } = await account();
      await refused(() => grant({ userId: u.id, roleId: ra.id, activityId: b }), 422, 'role.activity.mismatch');
      await refused(() => grant({ userId: u.id, roleId: ra.id }), 422, 'role.activity.mismatch');
      expect(await grant({ userId: u.id, roleId: ra.id, activityId: a })).toMatchObject({ roleId: ra.id, activityId: a });
    });

    it('refuses malformed bodies (422) and changes nothing', async () => {
      const a = j.insertActivity(uniq('malformed-'));
      const { u } = await account();
      const cases: [unknown, string][] = [
        [{ userId: u.id, roleId: NOT_A_UUID, activityId: a }, 'roleId'],
        [{ userId: u.id, activityId: a }, 'roleId'],
        [{ roleId: builtIn.participant.id, activityId: a }, 'userId'],
        [{ userId: u.id, roleId: builtIn.participant.id, activityId: 'activity-a' }, 'activityId'],
        [{ userId: u.id, roleId: builtIn.participant.id, activityId: a, overrideSystem: 'yes' }, 'overrideSystem'],
      ];
      for (const [body, field] of cases) {
        const e = await refused(() => admin.call(ops.createGrant, { body: body as never }), 422, 'validation_failed');
        expect(Object.keys(e.errors ?? {}), JSON.stringify(body)).toContain(field);
      }
    });

    it('lets a manager grant only in their activity and only keys they hold', async () => {
      const a = j.insertActivity(uniq('mgr-a-'));
      const b = j.insertActivity(uniq('mgr-b-'));
      const { u: m, c: manager } = await account('manager');
      await grant({ userId: m.id, roleId: builtIn.manager.id, activityId: a });
      const { u: p, c: pc } = await account('participant');

      const g = await grant({ userId: p.id, roleId: builtIn.participant.id, activityId: a }, manager);
      expect(g).toMatchObject({ userId: p.id, roleId: builtIn.participant.id, activityId: a });
      expect(await mine(pc, a)).toEqual(inCatalogueOrder(PARTICIPANT_KEYS));

      // the manager role plus a key the manager lacks
      const printer = await createRole({ name: uniq('Printer '), permissions: [...BUILT_IN_ROLES.manager.permissions, 'printout:manage'], activityId: a });
      const e = await refused(() => grant({ userId: p.id, roleId: printer.id, activityId: a }, manager), 403, 'grant.excess');
      expect(e.detail).toContain('printout:manage');
      // the administrator role means nothing inside one activity: refused even to an administrator
      await refused(() => grant({ userId: p.id, roleId: builtIn.administrator.id, activityId: a }, manager), 422, 'role.activity.mismatch');
      await refused(() => grant({ userId: p.id, roleId: builtIn.administrator.id, activityId: a }), 422, 'role.activity.mismatch');

      // a co-manager: the built-in manager role carries problem keys that count only system-wide,
      // so they confer nothing here and do not stand in the way
      const { u: co, c: coc } = await account('comanager');
      await grant({ userId: co.id, roleId: builtIn.manager.id, activityId: a }, manager);
      expect(await mine(coc, a)).toEqual(await mine(manager, a));
      expect(await mine(coc)).toEqual([]);

      // nor replace a membership whose role holds keys the manager lacks
      const { u: q } = await account('printer');
      await grant({ userId: q.id, roleId: printer.id, activityId: a });
      await refused(() => grant({ userId: q.id, roleId: builtIn.participant.id, activityId: a }, manager), 403, 'grant.excess');

      // not in another activity, not system-wide
      const f = await refused(() => grant({ userId: p.id, roleId: builtIn.participant.id, activityId: b }, manager), 403, 'forbidden');
      expect(f.detail).toContain('grant:update');
      await refused(() => grant({ userId: p.id, roleId: builtIn.participant.id }, manager), 403, 'forbidden');

      // and a plain participant cannot grant at all
      await refused(() => grant({ userId: m.id, roleId: builtIn.participant.id, activityId: a }, pc), 403, 'forbidden');
    });

    it('refuses overrideSystem on an administrator by someone else (403 grant.override.administrator)', async () => {
      const a = j.insertActivity(uniq('override-'));
      const { u: other } = await account('otheradmin');
      await grant({ userId: other.id, roleId: builtIn.administrator.id });
      const e = await refused(() => grant({ userId: other.id, roleId: builtIn.participant.id, activityId: a, overrideSystem: true }), 403, 'grant.override.administrator');
      expect(e.code).toBe('grant.override.administrator');
      // without the flag the admin may enrol them
      expect(await grant({ userId: other.id, roleId: builtIn.participant.id, activityId: a })).toMatchObject({ overrideSystem: false });
      // a non-administrator may be given the flag
      const { u } = await account();
      expect(await grant({ userId: u.id, roleId: builtIn.participant.id, activityId: a, overrideSystem: true })).toMatchObject({ overrideSystem: true });
    });

    it('ignores overrideSystem on a system grant', async () => {
      const role = await createRole({ name: uniq('Sys override '), permissions: ['runner:read'] });
      const { u } = await account();
      const g = await grant({ userId: u.id, roleId: role.id, overrideSystem: true });
      expect(g.overrideSystem).toBe(false);
      expect((j.app.deps.sqlite.prepare('SELECT override_system AS o FROM grants WHERE id = ?').get(g.id) as { o: number }).o).toBe(0);
    });
  });

  // ---------------------------------------------------------------- GET /grants

  describe('GET /grants', () => {
    it('filters by activity and by user, newest first, and pages', async () => {
      const c = j.insertActivity(uniq('paging-'));
      const d = j.insertActivity(uniq('paging-other-'));
      const users: TestUser[] = [];
      const made: Grant[] = [];
      for (let i = 0; i < 5; i++) {
        const { u } = await account('pager');
        users.push(u);
        made.push(await grant({ userId: u.id, roleId: builtIn.participant.id, activityId: c }));
      }
      await grant({ userId: users[0]!.id, roleId: builtIn.participant.id, activityId: d });

      const all = await grantsOf({ activityId: c });
      expect(all).toMatchObject({ total: 5, page: 1, pageSize: 20 });
      expect(all.items.map((g) => g.id).sort()).toEqual(made.map((g) => g.id).sort());
      expect(all.items.every((g) => g.activityId === c)).toBe(true);
      const times = all.items.map((g) => g.createdAt);
      expect(times).toEqual([...times].sort().reverse());
      expect(all.items[0]!.id).toBe(made[4]!.id);

      const p1 = await grantsOf({ activityId: c, page: 1, pageSize: 2 });
      const p2 = await grantsOf({ activityId: c, page: 2, pageSize: 2 });
      const p3 = await grantsOf({ activityId: c, page: 3, pageSize: 2 });
      expect([p1.items.length, p2.items.length, p3.items.length]).toEqual([2, 2, 1]);
      expect(p2).toMatchObject({ total: 5, page: 2, pageSize: 2 });
      expect([...p1.items, ...p2.items, ...p3.items].map((g) => g.id)).toEqual(all.items.map((g) => g.id));
      expect((await grantsOf({ activityId: c, page: 4, pageSize: 2 })).items).toEqual([]);

      // paging is clamped and echoed
      expect(await grantsOf({ activityId: c, pageSize: 0 })).toMatchObject({ pageSize: 1, total: 5 });
      expect(await grantsOf({ activityId: c, pageSize: 1000 })).toMatchObject({ pageSize: 200 });
      expect(await grantsOf({ activityId: c, page: 0 })).toMatchObject({ page: 1 });

      const byUser = await grantsOf({ userId: users[0]!.id });
      expect(byUser.total).toBe(2);
      expect(byUser.items.map((g) => g.activityId).sort()).toEqual([c, d].sort());
      const both = await grantsOf({ userId: users[0]!.id, activityId: d });
      expect(both.total).toBe(1);
      expect(both.items[0]).toMatchObject({ userId: users[0]!.id, activityId: d });

      await problem(grantsOf({ activityId: NOT_A_UUID }), 422, 'validation_failed');
      await problem(grantsOf({ activityId: c, page: 'x' as never }), 422, 'validation_failed');
    });

    it('needs grant:read:all where it reads', async () => {
      const a = j.insertActivity(uniq('gr-a-'));
      const b = j.insertActivity(uniq('gr-b-'));
      const { u: p, c: plain } = await account('plain');
      await grant({ userId: p.id, roleId: builtIn.participant.id, activityId: a });
      const e = await problem(grantsOf({}, plain), 403, 'forbidden');
      expect(e.detail).toContain('grant:read:all');
      await problem(grantsOf({ activityId: a }, plain), 403, 'forbidden');
      await problem(grantsOf({ userId: p.id }, plain), 403, 'forbidden');

      const { u: m, c: manager } = await account('manager');
      await grant({ userId: m.id, roleId: builtIn.manager.id, activityId: a });
      const seen = await grantsOf({ activityId: a }, manager);
      expect(seen.items.map((g) => g.userId).sort()).toEqual([p.id, m.id].sort());
      await problem(grantsOf({}, manager), 403, 'forbidden');
      await problem(grantsOf({ userId: p.id }, manager), 403, 'forbidden');
      await problem(grantsOf({ activityId: b }, manager), 403, 'forbidden');
    });
  });

  // ---------------------------------------------------------------- DELETE /grants/{id}

  describe('DELETE /grants/{id}', () => {
    it('takes the membership away (204) and its keys with it', async () => {
      const a = j.insertActivity(uniq('del-'));
      const { u, c } = await account();
      const g = await grant({ userId: u.id, roleId: builtIn.participant.id, activityId: a });
      expect(await mine(c, a)).toEqual(inCatalogueOrder(PARTICIPANT_KEYS));
      const before = j.count('grants');
      const res = await admin.send(ops.deleteGrant, { params: { id: g.id } });
      expect(res.status).toBe(204);
      expect(j.count('grants')).toBe(before - 1);
      expect(await mine(c, a)).toEqual([]);
      expect((await grantsOf({ userId: u.id, activityId: a })).total).toBe(0);
      await refused(() => admin.call(ops.deleteGrant, { params: { id: g.id } }), 404, 'not_found');
      await refused(() => admin.call(ops.deleteGrant, { params: { id: NOT_A_UUID } }), 404, 'not_found');
    });

    it('lets a manager take away only what they could give, and only in their activity', async () => {
      const a = j.insertActivity(uniq('mdel-a-'));
      const b = j.insertActivity(uniq('mdel-b-'));
      const { u: m, c: manager } = await account('manager');
      await grant({ userId: m.id, roleId: builtIn.manager.id, activityId: a });
      const printer = await createRole({ name: uniq('Print desk '), permissions: ['activity:read', 'printout:manage'], activityId: a });
      const { u: x } = await account();
      const { u: y } = await account();
      const gPrinter = await grant({ userId: x.id, roleId: printer.id, activityId: a });
      const gParticipant = await grant({ userId: y.id, roleId: builtIn.participant.id, activityId: a });
      const gElsewhere = await grant({ userId: y.id, roleId: builtIn.participant.id, activityId: b });

      const e = await refused(() => manager.call(ops.deleteGrant, { params: { id: gPrinter.id } }), 403, 'grant.excess');
      expect(e.detail).toContain('printout:manage');
      await refused(() => manager.call(ops.deleteGrant, { params: { id: gElsewhere.id } }), 403, 'forbidden');
      const { c: plain } = await account('plain');
      await refused(() => plain.call(ops.deleteGrant, { params: { id: gParticipant.id } }), 403, 'forbidden');

      await manager.call(ops.deleteGrant, { params: { id: gParticipant.id } });
      expect((await grantsOf({ userId: y.id })).items.map((g) => g.id)).toEqual([gElsewhere.id]);
    });
  });

  // ---------------------------------------------------------------- permissions

  describe('GET /permissions and /permissions/mine', () => {
    it('serves the whole catalogue to any signed-in user', async () => {
      const { c } = await account();
      const list = await c.call(ops.listPermissions, {});
      expect(list.map((p) => p.key)).toEqual(PERMISSION_KEYS);
      for (const p of list) {
        const def = PERMISSIONS[p.key as keyof typeof PERMISSIONS];
        expect(p).toEqual({ key: p.key, group: def.group, scope: def.scope, description: def.description });
        expect(['system', 'activity']).toContain(p.scope);
        expect(p.description.length).toBeGreaterThan(0);
      }
      expect(list.find((p) => p.key === 'system:administrator')).toMatchObject({ scope: 'system' });
      expect(list.find((p) => p.key === 'submission:create')).toMatchObject({ scope: 'activity', group: 'submission' });
      await problem(j.anonymous().call(ops.listPermissions, {}), 401, 'unauthenticated');
    });

    it("tells each caller their effective keys: participant in their activity only, admin everywhere", async () => {
      const a = j.insertActivity(uniq('mine-a-'));
      const b = j.insertActivity(uniq('mine-b-'));
      const { u, c } = await account('participant');
      expect(await mine(c)).toEqual([]);
      expect(await mine(c, a)).toEqual([]);
      await grant({ userId: u.id, roleId: builtIn.participant.id, activityId: a });
      expect(await mine(c, a)).toEqual(inCatalogueOrder(PARTICIPANT_KEYS));
      expect(await mine(c)).toEqual([]);
      expect(await mine(c, b)).toEqual([]);

      expect(await mine(admin)).toEqual(PERMISSION_KEYS);
      expect(await mine(admin, a)).toEqual(PERMISSION_KEYS);

      await problem(c.call(ops.myPermissions, { query: { activityId: NOT_A_UUID } }), 422, 'validation_failed');
      await problem(j.anonymous().call(ops.myPermissions, { query: {} }), 401, 'unauthenticated');
    });

    it('OverrideSystem: an administrator who stands down in A has exactly the participant keys there, and everything elsewhere', async () => {
      const a = j.insertActivity(uniq('standdown-a-'));
      const b = j.insertActivity(uniq('standdown-b-'));
      const { u: s, c: sc } = await account('admin');
      await grant({ userId: s.id, roleId: builtIn.administrator.id });
      expect(await mine(sc, a)).toEqual(PERMISSION_KEYS);

      // they set the flag on themselves
      const g = await grant({ userId: s.id, roleId: builtIn.participant.id, activityId: a, overrideSystem: true }, sc);
      expect(g).toMatchObject({ userId: s.id, activityId: a, overrideSystem: true });

      expect(await mine(sc, a)).toEqual(inCatalogueOrder(PARTICIPANT_KEYS));
      const e = await problem(grantsOf({ activityId: a }, sc), 403, 'forbidden');
      expect(e.detail).toContain('grant:read:all');
      await problem(sc.call(ops.listRoles, { query: { activityId: a } }), 403, 'forbidden');
      await problem(grant({ userId: s.id, roleId: builtIn.manager.id, activityId: a }, sc), 403, 'forbidden');

      // system-wide and in any other activity they are still the administrator
      expect(await mine(sc)).toEqual(PERMISSION_KEYS);
      expect(await mine(sc, b)).toEqual(PERMISSION_KEYS);
      expect((await grantsOf({ activityId: b }, sc)).total).toBe(0);
      expect((await grantsOf({ userId: s.id }, sc)).total).toBe(2);
      expect((await sc.call(ops.listRoles, { query: { activityId: b } })).length).toBeGreaterThanOrEqual(3);
      await createRole({ name: uniq('Made by stood-down admin '), permissions: ['runner:read'] }, sc);

      // the staff view of A is back once another admin replaces the grant without the flag
      await grant({ userId: s.id, roleId: builtIn.participant.id, activityId: a });
      expect(await mine(sc, a)).toEqual(PERMISSION_KEYS);
      expect((await grantsOf({ activityId: a }, sc)).total).toBe(1);
    });

    it('OverrideSystem narrows a non-administrator too: system grants no longer reach that activity', async () => {
      const a = j.insertActivity(uniq('standdown-user-'));
      const watcher = await createRole({ name: uniq('Question watcher '), permissions: ['question:read:all', 'runner:read'] });
      const { u, c } = await account();
      await grant({ userId: u.id, roleId: watcher.id });
      await grant({ userId: u.id, roleId: builtIn.participant.id, activityId: a });
      expect(await mine(c, a)).toEqual(inCatalogueOrder([...PARTICIPANT_KEYS, 'question:read:all', 'runner:read']));
      await grant({ userId: u.id, roleId: builtIn.participant.id, activityId: a, overrideSystem: true });
      // exactly the grant's keys in A (CONTRACT §5), neither the system role's activity key nor its system key
      expect(await mine(c, a)).toEqual(inCatalogueOrder(PARTICIPANT_KEYS));
      expect(await mine(c)).toEqual(['runner:read', 'question:read:all'].sort((x, y) => PERMISSION_KEYS.indexOf(x as never) - PERMISSION_KEYS.indexOf(y as never)));
    });
  });

  // ---------------------------------------------------------------- raw HTTP

  it('refuses a body that is not JSON (400) and a non-JSON media type (415), changing nothing', async () => {
    const token = admin.accessToken!;
    const before = snapshot();
    const bad = await raw(`${j.url}/api/v1/roles`, { method: 'POST', token, headers: { 'content-type': 'application/json' }, body: '{"name": "x", ' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'request.malformed' });
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    const media = await raw(`${j.url}/api/v1/grants`, { method: 'POST', token, headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(media.status).toBe(415);
    const arr = await raw(`${j.url}/api/v1/roles`, { method: 'POST', token, headers: { 'content-type': 'application/json' }, body: '[]' });
    expect(arr.status).toBe(422);
    expect(snapshot()).toBe(before);
  });
});

describe('the last administrator grant', () => {
  let j: TestJudge;
  beforeAll(async () => {
    j = await TestJudge.start();
  });
  afterAll(() => j.stop());

  it('cannot be taken away (409 conflict), while one of two can', async () => {
    const admin = await j.admin();
    const roles = await admin.call(ops.listRoles, { query: {} });
    const adminRole = roles.find((r) => r.builtInKey === 'administrator')!;
    const own = (await admin.call(ops.listGrants, { query: {} })).items.filter((g) => g.roleId === adminRole.id && !g.activityId);
    expect(own).toHaveLength(1);
    const adminGrant = own[0]!;

    const before = [j.count('grants'), JSON.stringify(j.app.deps.sqlite.prepare('SELECT * FROM grants ORDER BY id').all())];
    const e = await problem(admin.call(ops.deleteGrant, { params: { id: adminGrant.id } }), 409, 'conflict');
    expect(e.detail.length).toBeGreaterThan(0);
    expect([j.count('grants'), JSON.stringify(j.app.deps.sqlite.prepare('SELECT * FROM grants ORDER BY id').all())]).toEqual(before);
    expect(await admin.call(ops.myPermissions, { query: {} })).toEqual(PERMISSION_KEYS);

    // with a second administrator one of the two grants may go, then the other is the last again
    const second = await j.user('second-admin');
    const third = await j.user('third-admin');
    const g2 = await j.grant(second.id, 'administrator');
    const sc = await j.signIn(second);
    await sc.call(ops.deleteGrant, { params: { id: adminGrant.id } });
    expect(await admin.call(ops.myPermissions, { query: {} })).toEqual([]);
    await problem(sc.call(ops.deleteGrant, { params: { id: g2.id } }), 409, 'conflict');
    expect(await sc.call(ops.myPermissions, { query: {} })).toEqual(PERMISSION_KEYS);

    // an administrator key in a custom role counts as an administrator too
    const custom = await sc.call(ops.createRole, { body: { name: 'Root', permissions: ['system:administrator', 'user:read:all'] } });
    await sc.call(ops.createGrant, { body: { userId: third.id, roleId: custom.id } });
    await sc.call(ops.deleteGrant, { params: { id: g2.id } });
    expect(await sc.call(ops.myPermissions, { query: {} })).toEqual([]);
  });
});
