import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES, PERMISSION_KEYS, ops, type Grant } from '@judge/contract';
import { TestJudge, type TestUser } from './harness.js';
import { UNKNOWN_UUID } from './support/ids.js';
import { PARTICIPANT_KEYS, inCatalogueOrder, NOT_A_UUID, uniq, problem, j, admin, builtIn, refused, account, createRole, grant, mine, grantsOf, useAccessServer } from './support/access.js';

/**
 * Roles, grants and the permission catalogue over real HTTP and a real SQLite file (decisions §5):
 * granting roles, listing and revoking grants, and the last administrator grant that cannot go.
 * Shared setup in support/access.ts.
 */

describe('roles, grants and permissions', () => {
  useAccessServer();

  describe('POST /grants', () => {
    it('creates a system grant and an activity grant (201) and the keys arrive at once', async () => {
      const a = await j.insertActivity(uniq('grant-'), 'Grant Course');
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
      const a = await j.insertActivity(uniq('replace-'));
      const helper = await createRole({ name: uniq('Helper '), permissions: ['activity:read', 'question:read:all', 'question:answer'], activityId: a });
      const { u, c } = await account();
      const first = await grant({ userId: u.id, roleId: builtIn.participant.id, activityId: a });
      const before = (await j.count('grants'));
      const second = await grant({ userId: u.id, roleId: helper.id, activityId: a });
      expect((await j.count('grants'))).toBe(before);
      expect(second).toMatchObject({ id: first.id, roleId: helper.id, activityId: a });
      const list = await grantsOf({ userId: u.id, activityId: a });
      expect(list.total).toBe(1);
      expect(list.items[0]).toMatchObject({ id: first.id, roleId: helper.id });
      expect(await mine(c, a)).toEqual(['activity:read', 'question:read:all', 'question:answer']);
    });

    it('answers 404 for an unknown user, role or activity', async () => {
      const a = await j.insertActivity(uniq('unknowns-'));
      const { u } = await account();
      await refused(() => grant({ userId: UNKNOWN_UUID, roleId: builtIn.participant.id, activityId: a }), 404, 'not_found');
      await refused(() => grant({ userId: 'nobody-at-all', roleId: builtIn.participant.id, activityId: a }), 404, 'not_found');
      await refused(() => grant({ userId: u.id, roleId: UNKNOWN_UUID, activityId: a }), 404, 'not_found');
      await refused(() => grant({ userId: u.id, roleId: builtIn.participant.id, activityId: UNKNOWN_UUID }), 404, 'not_found');
    });

    it("refuses an activity's role anywhere else (422 role.activity.mismatch)", async () => {
      const a = await j.insertActivity(uniq('mismatch-a-'));
      const b = await j.insertActivity(uniq('mismatch-b-'));
      const ra = await createRole({ name: uniq('Only A '), permissions: ['activity:read'], activityId: a });
      const { u } = await account();
      await refused(() => grant({ userId: u.id, roleId: ra.id, activityId: b }), 422, 'role.activity.mismatch');
      await refused(() => grant({ userId: u.id, roleId: ra.id }), 422, 'role.activity.mismatch');
      expect(await grant({ userId: u.id, roleId: ra.id, activityId: a })).toMatchObject({ roleId: ra.id, activityId: a });
    });

    it('refuses malformed bodies (422) and changes nothing', async () => {
      const a = await j.insertActivity(uniq('malformed-'));
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
      const a = await j.insertActivity(uniq('mgr-a-'));
      const b = await j.insertActivity(uniq('mgr-b-'));
      const { u: m, c: manager } = await account('manager');
      await grant({ userId: m.id, roleId: builtIn.manager.id, activityId: a });
      const { u: p, c: pc } = await account('participant');

      const g = await grant({ userId: p.id, roleId: builtIn.participant.id, activityId: a }, manager);
      expect(g).toMatchObject({ userId: p.id, roleId: builtIn.participant.id, activityId: a });
      expect(await mine(pc, a)).toEqual(inCatalogueOrder(PARTICIPANT_KEYS));

      // the manager role plus a key the manager lacks
      const deleter = await createRole({ name: uniq('Deleter '), permissions: [...BUILT_IN_ROLES.manager.permissions, 'activity:delete'], activityId: a });
      const e = await refused(() => grant({ userId: p.id, roleId: deleter.id, activityId: a }, manager), 403, 'grant.excess');
      expect(e.detail).toContain('activity:delete');
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
      const { u: q } = await account('deleter');
      await grant({ userId: q.id, roleId: deleter.id, activityId: a });
      await refused(() => grant({ userId: q.id, roleId: builtIn.participant.id, activityId: a }, manager), 403, 'grant.excess');

      // not in another activity, not system-wide
      const f = await refused(() => grant({ userId: p.id, roleId: builtIn.participant.id, activityId: b }, manager), 403, 'forbidden');
      expect(f.detail).toContain('grant:update');
      await refused(() => grant({ userId: p.id, roleId: builtIn.participant.id }, manager), 403, 'forbidden');

      // and a plain participant cannot grant at all
      await refused(() => grant({ userId: m.id, roleId: builtIn.participant.id, activityId: a }, pc), 403, 'forbidden');
    });

    it('refuses overrideSystem on an administrator by someone else (403 grant.override.administrator)', async () => {
      const a = await j.insertActivity(uniq('override-'));
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
      expect((await j.rows('grants')).find((r) => r.id === g.id)?.overrideSystem).toBe(false);
    });
  });

  describe('GET /grants', () => {
    it('filters by activity and by user, newest first, and pages', async () => {
      const c = await j.insertActivity(uniq('paging-'));
      const d = await j.insertActivity(uniq('paging-other-'));
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
      const a = await j.insertActivity(uniq('gr-a-'));
      const b = await j.insertActivity(uniq('gr-b-'));
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

  describe('DELETE /grants/{id}', () => {
    it('takes the membership away (204) and its keys with it', async () => {
      const a = await j.insertActivity(uniq('del-'));
      const { u, c } = await account();
      const g = await grant({ userId: u.id, roleId: builtIn.participant.id, activityId: a });
      expect(await mine(c, a)).toEqual(inCatalogueOrder(PARTICIPANT_KEYS));
      const before = (await j.count('grants'));
      const res = await admin.send(ops.deleteGrant, { params: { id: g.id } });
      expect(res.status).toBe(204);
      expect((await j.count('grants'))).toBe(before - 1);
      expect(await mine(c, a)).toEqual([]);
      expect((await grantsOf({ userId: u.id, activityId: a })).total).toBe(0);
      await refused(() => admin.call(ops.deleteGrant, { params: { id: g.id } }), 404, 'not_found');
      await refused(() => admin.call(ops.deleteGrant, { params: { id: NOT_A_UUID } }), 404, 'not_found');
    });

    it('lets a manager take away only what they could give, and only in their activity', async () => {
      const a = await j.insertActivity(uniq('mdel-a-'));
      const b = await j.insertActivity(uniq('mdel-b-'));
      const { u: m, c: manager } = await account('manager');
      await grant({ userId: m.id, roleId: builtIn.manager.id, activityId: a });
      const printer = await createRole({ name: uniq('Delete desk '), permissions: ['activity:read', 'activity:delete'], activityId: a });
      const { u: x } = await account();
      const { u: y } = await account();
      const gPrinter = await grant({ userId: x.id, roleId: printer.id, activityId: a });
      const gParticipant = await grant({ userId: y.id, roleId: builtIn.participant.id, activityId: a });
      const gElsewhere = await grant({ userId: y.id, roleId: builtIn.participant.id, activityId: b });

      const e = await refused(() => manager.call(ops.deleteGrant, { params: { id: gPrinter.id } }), 403, 'grant.excess');
      expect(e.detail).toContain('activity:delete');
      await refused(() => manager.call(ops.deleteGrant, { params: { id: gElsewhere.id } }), 403, 'forbidden');
      const { c: plain } = await account('plain');
      await refused(() => plain.call(ops.deleteGrant, { params: { id: gParticipant.id } }), 403, 'forbidden');

      await manager.call(ops.deleteGrant, { params: { id: gParticipant.id } });
      expect((await grantsOf({ userId: y.id })).items.map((g) => g.id)).toEqual([gElsewhere.id]);
    });
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

    const before = [await j.count('grants'), JSON.stringify(await j.rows('grants'))];
    const e = await problem(admin.call(ops.deleteGrant, { params: { id: adminGrant.id } }), 409, 'conflict');
    expect(e.detail.length).toBeGreaterThan(0);
    expect([await j.count('grants'), JSON.stringify(await j.rows('grants'))]).toEqual(before);
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
