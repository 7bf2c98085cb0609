import { describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES, PERMISSION_KEYS, ops, type Role } from '@judge/contract';
import { raw } from './harness.js';
import { UNKNOWN_UUID } from './support/ids.js';
import { PARTICIPANT_KEYS, inCatalogueOrder, NOT_A_UUID, uniq, problem, j, admin, builtIn, snapshot, refused, account, createRole, grant, mine, grantsOf, rolesNow, useAccessServer } from './support/access.js';

/**
 * Roles, grants and the permission catalogue over real HTTP and a real SQLite file (decisions §5):
 * reading, creating, changing and deleting roles, who may do each, and what every refusal leaves
 * untouched. Shared setup in support/access.ts.
 */

describe('roles, grants and permissions', () => {
  useAccessServer();

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
      const a = await j.insertActivity(uniq('count-'));
      const { u } = await account();
      await grant({ userId: u.id, roleId: builtIn.participant.id, activityId: a });
      expect((await rolesNow()).find((r) => r.builtInKey === 'participant')!.grants).toBe(1);
    });

    it("with activityId also lists that activity's own roles, and only those", async () => {
      const a = await j.insertActivity(uniq('roles-a-'), 'Course A');
      const b = await j.insertActivity(uniq('roles-b-'), 'Course B');
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
      const a = await j.insertActivity(uniq('roles-perm-a-'));
      const b = await j.insertActivity(uniq('roles-perm-b-'));
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
      const a = await j.insertActivity(uniq('rm-'));
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
      const a = await j.insertActivity(uniq('builtin-edit-'));
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
      const a = await j.insertActivity(uniq('move-a-'));
      const b = await j.insertActivity(uniq('move-b-'));
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

  describe('DELETE /roles/{id}', () => {
    it('deletes an unused role (204); it is gone afterwards', async () => {
      const role = await createRole({ name: uniq('Temp '), permissions: ['role:read'] });
      const before = (await j.count('roles'));
      const res = await admin.send(ops.deleteRole, { params: { id: role.id } });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      expect((await j.count('roles'))).toBe(before - 1);
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

  it('refuses a body that is not JSON (400) and a non-JSON media type (415), changing nothing', async () => {
    const token = admin.accessToken!;
    const before = await snapshot();
    const bad = await raw(`${j.url}/api/v1/roles`, { method: 'POST', token, headers: { 'content-type': 'application/json' }, body: '{"name": "x", ' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'request.malformed' });
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    const media = await raw(`${j.url}/api/v1/grants`, { method: 'POST', token, headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(media.status).toBe(415);
    const arr = await raw(`${j.url}/api/v1/roles`, { method: 'POST', token, headers: { 'content-type': 'application/json' }, body: '[]' });
    expect(arr.status).toBe(422);
    expect(await snapshot()).toBe(before);
  });
});
