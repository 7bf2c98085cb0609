import { describe, expect, it } from 'vitest';
import { PERMISSIONS, PERMISSION_KEYS, ops } from '@judge/contract';
import { PARTICIPANT_KEYS, inCatalogueOrder, NOT_A_UUID, uniq, problem, j, admin, builtIn, account, createRole, grant, mine, grantsOf, useAccessServer } from './support/access.js';

/**
 * Roles, grants and the permission catalogue over real HTTP and a real SQLite file (decisions §5):
 * how a grant's keys reach the caller at once, OverrideSystem included. Shared setup in
 * support/access.ts.
 */

describe('roles, grants and permissions', () => {
  useAccessServer();

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
      const a = await j.insertActivity(uniq('mine-a-'));
      const b = await j.insertActivity(uniq('mine-b-'));
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
      const a = await j.insertActivity(uniq('standdown-a-'));
      const b = await j.insertActivity(uniq('standdown-b-'));
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
      const a = await j.insertActivity(uniq('standdown-user-'));
      const watcher = await createRole({ name: uniq('Question watcher '), permissions: ['question:read:all', 'runner:read'] });
      const { u, c } = await account();
      await grant({ userId: u.id, roleId: watcher.id });
      await grant({ userId: u.id, roleId: builtIn.participant.id, activityId: a });
      expect(await mine(c, a)).toEqual(inCatalogueOrder([...PARTICIPANT_KEYS, 'question:read:all', 'runner:read']));
      await grant({ userId: u.id, roleId: builtIn.participant.id, activityId: a, overrideSystem: true });
      // exactly the grant's keys in A (decisions §5), neither the system role's activity key nor its system key
      expect(await mine(c, a)).toEqual(inCatalogueOrder(PARTICIPANT_KEYS));
      expect(await mine(c)).toEqual(['runner:read', 'question:read:all'].sort((x, y) => PERMISSION_KEYS.indexOf(x as never) - PERMISSION_KEYS.indexOf(y as never)));
    });
  });
});
