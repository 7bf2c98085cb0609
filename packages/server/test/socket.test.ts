import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ops, type Role } from '@judge/contract';
import { ApiProblem, EventStream, JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, onPostgres, TestJudge, type TestUser } from './harness.js';
import { sleep } from './support/wait.js';
import { wsUrl, rawFrames, open, handshake, hasNull, barrier, types } from './support/socket.js';
import { instanceSettings } from '../src/db/schema.js';

/**
 * The event socket over real HTTP and real WebSockets (decisions §4, §10, §12): who may connect, who
 * is told what, live connection counts, and what ending a session does to sockets. Shared helpers
 * in support/socket.ts.
 */

describe('the event socket', () => {
  let j: TestJudge;
  let admin: JudgeClient; // bearer, for setup and barriers
  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    // participants edit their own names below (account-names.test.ts: only where the instance lets them)
    await admin.call(ops.updateInstance, { body: { allowRenameStaffAccounts: true } });
  });
  afterAll(() => j.stop());

  describe('handshake', () => {
    let u: TestUser;
    let cookie: string;
    let origin: string;
    beforeAll(async () => {
      u = await j.user('shaker');
      cookie = (await j.signIn(u, 'cookie')).cookie!;
      origin = new URL(j.url).origin;
    });

    it('refuses a handshake without a cookie with 401', async () => {
      expect(await handshake(j, { origin })).toMatchObject({ status: 401, body: { code: 'unauthenticated' } });
    });

    it('refuses a garbage or foreign cookie with 401', async () => {
      expect((await handshake(j, { origin, cookie: 'judge_session=not-a-session' })).status).toBe(401);
      expect((await handshake(j, { origin, cookie: `other=${cookie}` })).status).toBe(401);
      expect((await handshake(j, { origin, cookie: 'judge_session=' })).status).toBe(401);
    });

    it('does not take a bearer token instead of the cookie, in a header, a cookie or the query', async () => {
      const bearer = await j.signIn(u, 'bearer');
      const token = bearer.accessToken!;
      // the token is good for REST
      expect(await bearer.call(ops.getAccount)).toMatchObject({ username: 'shaker' });
      expect((await handshake(j, { origin, authorization: `Bearer ${token}` })).status).toBe(401);
      expect((await handshake(j, { origin, cookie: `judge_session=${token}` })).status).toBe(401);
      expect((await handshake(j, { origin }, `/api/v1/ws?access_token=${token}`)).status).toBe(401);
    });

    it('refuses a valid cookie from a foreign or missing Origin with 403', async () => {
      expect(await handshake(j, { cookie: `judge_session=${cookie}`, origin: 'http://evil.example' })).toMatchObject({ status: 403, body: { code: 'csrf.origin' } });
      expect((await handshake(j, { cookie: `judge_session=${cookie}`, origin: origin.replace('127.0.0.1', 'localhost') })).status).toBe(403);
      expect((await handshake(j, { cookie: `judge_session=${cookie}` })).status).toBe(403);
      // the SDK's stream reports the refusal too
      const s = new EventStream({ url: wsUrl(j), cookie, origin: 'https://evil.example' });
      await expect(s.opened).rejects.toMatchObject({ status: 403 });
    });

    it('opens with the session cookie and the right Origin', async () => {
      expect(await handshake(j, { cookie: `judge_session=${cookie}`, origin })).toEqual({ status: 101 });
      // among other cookies, and with a browser-session (non-persistent) cookie too
      expect(await handshake(j, { cookie: `theme=dark; judge_session=${cookie}; lang=en`, origin })).toEqual({ status: 101 });
      const browser = j.anonymous();
      await browser.loginWithCookie(u.username, u.password, false);
      expect(await handshake(j, { cookie: `judge_session=${browser.cookie}`, origin })).toEqual({ status: 101 });
      const s = await open(new JudgeClient({ baseUrl: j.url, cookie }));
      expect(s.socket.readyState).toBe(WebSocket.OPEN);
      s.close();
    });

    it('serves nothing but /api/v1/ws', async () => {
      expect((await handshake(j, { cookie: `judge_session=${cookie}`, origin }, '/api/v1/socket')).status).toBe(404);
    });
  });

  describe('audience', () => {
    let A: string;
    let B: string;
    let participantRoleId: string;
    let adminC: JudgeClient, managerC: JudgeClient, managerBC: JudgeClient, p1C: JudgeClient, p2C: JudgeClient;
    let m: TestUser, mb: TestUser, p1: TestUser, p2: TestUser;
    let S: { admin: EventStream; manager: EventStream; managerB: EventStream; p1: EventStream; p2: EventStream };
    let all: EventStream[];
    /** Frames each party received before the barrier, by name. */
    const settle = async () => {
      const got = await barrier(admin, all);
      return { admin: types(got[0]!), manager: types(got[1]!), managerB: types(got[2]!), p1: types(got[3]!), p2: types(got[4]!), frames: got };
    };

    beforeAll(async () => {
      A = await j.insertActivity('course-a', 'Course A');
      B = await j.insertActivity('course-b', 'Course B');
      [m, mb, p1, p2] = await Promise.all([j.user('manager-a'), j.user('manager-b'), j.user('part-1'), j.user('part-2')]);
      await j.grant(m.id, 'manager', A);
      await j.grant(mb.id, 'manager', B);
      await j.grant(p1.id, 'participant', A);
      participantRoleId = (await admin.call(ops.listRoles, { query: {} })).find((r) => r.builtInKey === 'participant')!.id;
      adminC = await j.signIn({ username: 'admin', password: ADMIN_PASSWORD }, 'cookie');
      [managerC, managerBC, p1C, p2C] = await Promise.all([j.signIn(m, 'cookie'), j.signIn(mb, 'cookie'), j.signIn(p1, 'cookie'), j.signIn(p2, 'cookie')]);
      S = { admin: await open(adminC), manager: await open(managerC), managerB: await open(managerBC), p1: await open(p1C), p2: await open(p2C) };
      all = [S.admin, S.manager, S.managerB, S.p1, S.p2];
      await barrier(admin, all); // nothing left over from the setup
    });

    it('tells every signed-in session about the instance settings, and nothing else unasked', async () => {
      const got = await settle();
      expect(got).toMatchObject({ admin: [], manager: [], managerB: [], p1: [], p2: [] });
    });

    it('sends a system role to holders of role:read anywhere, as GET /roles?activityId lets them read it', async () => {
      // the resolver: manager holds role:read in an activity, so anywhere; participants do not
      expect(await j.app.deps.permissions.holdsAnywhere(m.id, 'role:read')).toBe(true);
      expect(await j.app.deps.permissions.has(m.id, 'role:read')).toBe(false);
      expect(await j.app.deps.permissions.holdsAnywhere(p1.id, 'role:read')).toBe(false);

      const role = await adminC.call(ops.createRole, { body: { name: 'Reader', permissions: ['activity:read'] } });
      let got = await settle();
      expect(got).toMatchObject({ admin: ['roleChanged'], manager: ['roleChanged'], managerB: ['roleChanged'], p1: [], p2: [] });
      expect(got.frames[0]![0]!.data).toEqual({ role });
      expect(got.frames[1]![0]!.data).toEqual({ role });

      // REST agrees: the manager of A reads system roles through A, a participant reads no roles
      expect((await managerC.call(ops.listRoles, { query: { activityId: A } })).map((r) => r.id)).toContain(role.id);
      await expect(p1C.call(ops.listRoles, { query: { activityId: A } })).rejects.toMatchObject({ status: 403 });
      await expect(p1C.call(ops.listRoles, { query: {} })).rejects.toMatchObject({ status: 403 });

      const edited = await adminC.call(ops.updateRole, { params: { id: role.id }, body: { name: 'Reader 2', permissions: ['activity:read', 'ranking:read'] } });
      got = await settle();
      expect(got).toMatchObject({ admin: ['roleChanged'], manager: ['roleChanged'], managerB: ['roleChanged'], p1: [], p2: [] });
      expect((got.frames[1]![0]!.data as { role: Role }).role).toMatchObject({ id: role.id, name: 'Reader 2', permissions: edited.permissions });

      await adminC.call(ops.deleteRole, { params: { id: role.id } });
      got = await settle();
      expect(got).toMatchObject({ admin: ['roleChanged'], manager: ['roleChanged'], managerB: ['roleChanged'], p1: [], p2: [] });
      expect(got.frames[0]![0]!.data).toEqual({ deletedId: role.id });
    });

    it('sends an activity role only to holders of role:read in that activity', async () => {
      const role = await adminC.call(ops.createRole, { body: { name: 'A helper', permissions: ['activity:read'], activityId: A } });
      let got = await settle();
      expect(got).toMatchObject({ admin: ['roleChanged'], manager: ['roleChanged'], managerB: [], p1: [], p2: [] });
      expect(got.frames[1]![0]!.data).toEqual({ role });
      // REST agrees: the manager of B may not list A's roles
      await expect(managerBC.call(ops.listRoles, { query: { activityId: A } })).rejects.toMatchObject({ status: 403 });

      await adminC.call(ops.updateRole, { params: { id: role.id }, body: { name: 'A helper 2', permissions: ['activity:read'] } });
      got = await settle();
      expect(got).toMatchObject({ admin: ['roleChanged'], manager: ['roleChanged'], managerB: [], p1: [], p2: [] });
    });

    it('sends nothing for a write that was refused (events leave after commit only)', async () => {
      await adminC.call(ops.createRole, { body: { name: 'Twice', permissions: [] } });
      await settle();
      await expect(adminC.call(ops.createRole, { body: { name: 'twice', permissions: [] } })).rejects.toMatchObject({ code: 'role.name.taken' });
      // a manager may not hand out keys it does not hold: refused inside the transaction
      await expect(managerC.call(ops.createGrant, { body: { userId: p2.id, roleId: (await admin.call(ops.listRoles, { query: {} })).find((r) => r.builtInKey === 'administrator')!.id, activityId: A } })).rejects.toBeInstanceOf(ApiProblem);
      let got = await settle();
      expect(got).toMatchObject({ admin: [], manager: [], managerB: [], p1: [], p2: [] });

      // a transaction that emitted and then rolled back publishes nothing
      await expect(
        j.app.deps.tx.write(async (q, out) => {
          await q.update(instanceSettings).set({ updatedAt: 'x' });
          out.emit({ type: 'instanceChanged', data: { instance: { name: 'never' } } as never, audience: { kind: 'signedIn' } });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      // and a committed write reaches the bus only once the transaction is over (on PostgreSQL the
      // bus is fed by the event log's reader, which only sees committed rows: cluster/event-log.ts)
      const inTx: boolean[] = [];
      const off = j.app.deps.bus.subscribe((m) => void (m.kind === 'event' && inTx.push(onPostgres ? false : j.app.deps.sqlite.inTransaction)));
      await adminC.call(ops.createRole, { body: { name: 'Committed', permissions: [] } });
      await j.delivered();
      off();
      expect(inTx).toEqual([false]);
      got = await settle();
      expect(got).toMatchObject({ admin: ['roleChanged'], manager: ['roleChanged'], managerB: ['roleChanged'], p1: [], p2: [] });
    });

    it('sends a grant in an activity to grant:read:all holders there and to the user it names', async () => {
      const grant = await managerC.call(ops.createGrant, { body: { userId: p2.id, roleId: participantRoleId, activityId: A } });
      let got = await settle();
      expect(got).toMatchObject({ admin: ['grantChanged'], manager: ['grantChanged'], managerB: [], p1: [], p2: ['grantChanged'] });
      expect(got.frames[4]![0]!.data).toEqual({ grant });

      await managerC.call(ops.deleteGrant, { params: { id: grant.id } });
      got = await settle();
      expect(got).toMatchObject({ admin: ['grantChanged'], manager: ['grantChanged'], managerB: [], p1: [], p2: ['grantChanged'] });
      expect(got.frames[1]![0]!.data).toEqual({ deletedId: grant.id, userId: p2.id, activityId: A });
    });

    it('sends a system grant to system-wide grant:read:all holders and the user it names only', async () => {
      const role = await adminC.call(ops.createRole, { body: { name: 'Sys extra', permissions: ['activity:read'] } });
      await settle();
      const grant = await adminC.call(ops.createGrant, { body: { userId: p1.id, roleId: role.id } });
      const got = await settle();
      expect(got).toMatchObject({ admin: ['grantChanged'], manager: [], managerB: [], p1: ['grantChanged'], p2: [] });
      expect(got.frames[3]![0]!.data).toEqual({ grant });
      await adminC.call(ops.deleteGrant, { params: { id: grant.id } });
      expect(await settle()).toMatchObject({ admin: ['grantChanged'], manager: [], managerB: [], p1: ['grantChanged'], p2: [] });
    });

    it('sends userChanged to holders of user:read:all only', async () => {
      const issued = await adminC.call(ops.createUser, { body: { username: 'newcomer', firstName: 'New' } });
      let got = await settle();
      expect(got).toMatchObject({ admin: ['userChanged'], manager: [], managerB: [], p1: [], p2: [] });
      expect(got.frames[0]![0]!.data).toMatchObject({ user: { id: issued.userId, username: 'newcomer', firstName: 'New' } });

      // a user editing their own account does not get told either: they lack user:read:all
      await p2C.call(ops.updateAccount, { body: { firstName: 'Second' } });
      got = await settle();
      expect(got).toMatchObject({ admin: ['userChanged'], manager: [], managerB: [], p1: [], p2: [] });
    });

    it('follows a permission change at once: a participant made manager is told what managers are told', async () => {
      const managerRoleId = (await admin.call(ops.listRoles, { query: {} })).find((r) => r.builtInKey === 'manager')!.id;
      const grant = await adminC.call(ops.createGrant, { body: { userId: p1.id, roleId: managerRoleId, activityId: A } });
      expect(await settle()).toMatchObject({ admin: ['grantChanged'], manager: ['grantChanged'], p1: ['grantChanged'], p2: [] });
      await adminC.call(ops.createRole, { body: { name: 'A second', permissions: [], activityId: A } });
      expect(await settle()).toMatchObject({ admin: ['roleChanged'], manager: ['roleChanged'], managerB: [], p1: ['roleChanged'], p2: [] });
      // and back
      await adminC.call(ops.createGrant, { body: { userId: p1.id, roleId: participantRoleId, activityId: A } });
      await settle();
      await adminC.call(ops.createRole, { body: { name: 'A third', permissions: [], activityId: A } });
      expect(await settle()).toMatchObject({ admin: ['roleChanged'], manager: ['roleChanged'], managerB: [], p1: [], p2: [] });
      expect(grant.activityId).toBe(A);
    });

    it('tells staff who stood down in an activity (overrideSystem) nothing staff are told there', async () => {
      await adminC.call(ops.createRole, { body: { name: 'Staff', permissions: ['role:read', 'grant:read:all'] } });
      await settle();
      const su = await j.user('stood-down');
      await j.grant(su.id, 'Staff');
      await j.grant(su.id, 'participant', B, true);
      const sc = await j.signIn(su, 'cookie');
      const ss = await open(sc);
      const streams = [...all, ss];
      const settleWith = async () => (await barrier(admin, streams)).map(types);
      await settleWith();

      // an activity role in B: the manager of B is told, the staff member who stood down in B is not
      await adminC.call(ops.createRole, { body: { name: 'B helper', permissions: [], activityId: B } });
      let got = await settleWith();
      expect(got).toEqual([['roleChanged'], [], ['roleChanged'], [], [], []]);
      await expect(sc.call(ops.listRoles, { query: { activityId: B } })).rejects.toMatchObject({ status: 403 });
      // ...a grant in B likewise
      const g = await managerBC.call(ops.createGrant, { body: { userId: p2.id, roleId: participantRoleId, activityId: B } });
      got = await settleWith();
      expect(got).toEqual([['grantChanged'], [], ['grantChanged'], [], ['grantChanged'], []]);
      await managerBC.call(ops.deleteGrant, { params: { id: g.id } });
      await settleWith();

      // while in A, where the system grant applies, the same person is told (and may read over REST)
      await adminC.call(ops.createRole, { body: { name: 'A fourth', permissions: [], activityId: A } });
      got = await settleWith();
      expect(got[5]).toEqual(['roleChanged']);
      expect((await sc.call(ops.listRoles, { query: { activityId: A } })).length).toBeGreaterThan(0);
      ss.close();
    });

    it('ignores whatever the client sends: the socket stays open and is still told', async () => {
      const s = S.p2;
      s.socket.send('hello');
      s.socket.send('{"type":"subscribe","data":{"all":true}}');
      s.socket.send(JSON.stringify({ type: 'roleChanged', data: { deletedId: 'x' } }));
      s.socket.send(Buffer.from([0, 1, 2, 255, 254]));
      s.socket.send('');
      s.socket.ping();
      await sleep(100);
      const got = await settle();
      expect(got).toMatchObject({ admin: [], manager: [], managerB: [], p1: [], p2: [] });
      expect(s.socket.readyState).toBe(WebSocket.OPEN);
      // and what it sent was not broadcast to others either (checked above: nobody got anything)
    });

    it('omits null members from frames', async () => {
      // no write of ours puts a null in an event; the hub must drop one anywhere in the data
      const instance = await adminC.call(ops.getInstance);
      j.app.deps.bus.publish([
        {
          kind: 'event',
          event: { type: 'instanceChanged', data: { instance: { ...instance, logo: null, nested: { a: null, b: 1 }, list: [{ c: null }] } } as never, audience: { kind: 'signedIn' } },
        },
      ]);
      const f = await S.p1.next('instanceChanged');
      const data = f.data as { instance: Record<string, unknown> };
      expect(data.instance).not.toHaveProperty('logo');
      expect(data.instance.nested).toEqual({ b: 1 });
      expect(data.instance.list).toEqual([{}]);
      expect(data.instance.name).toBe(instance.name);
      for (const s of all) if (s !== S.p1) await s.next('instanceChanged');
      // and no frame any socket of this file received carried a null
      expect(rawFrames.length).toBeGreaterThan(20);
      for (const raw of rawFrames) expect(hasNull(JSON.parse(raw)), raw).toBe(false);
    });
  });

  describe('sessions and their sockets', () => {
    async function sessionsOf(c: JudgeClient) {
      return c.call(ops.listAccountSessions);
    }

    it('counts the open sockets of a session as Session.connections', async () => {
      const u = await j.user('counter');
      const c = await j.signIn(u, 'cookie');
      const other = await j.signIn(u, 'bearer');
      const current = (await sessionsOf(c)).find((s) => s.isCurrent)!;
      expect(current.connections).toBe(0);
      const s1 = await open(c);
      const s2 = await open(c);
      let list = await sessionsOf(c);
      expect(list.find((s) => s.id === current.id)!.connections).toBe(2);
      expect(list.filter((s) => s.id !== current.id).map((s) => s.connections)).toEqual([0]);
      // the administrator sees the same through /users/{id}/sessions
      const viaAdmin = await admin.call(ops.listUserSessions, { params: { userId: u.id } });
      expect(viaAdmin.find((s) => s.id === current.id)!.connections).toBe(2);
      expect(viaAdmin).toHaveLength(2);

      s1.close();
      await s1.closed;
      const poll = async (n: number) => {
        for (let i = 0; i < 40; i++) {
          list = await sessionsOf(other);
          if (list.find((s) => s.id === current.id)!.connections === n) return;
          await sleep(50);
        }
        throw new Error(`connections never became ${n}: ${JSON.stringify(list)}`);
      };
      await poll(1);
      // a dropped TCP connection (no close handshake) is noticed too
      s2.socket.terminate();
      await poll(0);
    });

    it('logout sends sessionExpired and closes the sockets with 4001; other sessions keep theirs', async () => {
      const u = await j.user('leaver');
      const c = await j.signIn(u, 'cookie');
      const keep = await j.signIn(u, 'cookie');
      const s = await open(c);
      const s2 = await open(c);
      const kept = await open(keep);
      await c.call(ops.logout);
      expect(await s.next('sessionExpired')).toEqual({ type: 'sessionExpired', data: { reason: 'logout' } });
      expect((await s.closed).code).toBe(4001);
      expect((await s2.next('sessionExpired')).data).toEqual({ reason: 'logout' });
      expect((await s2.closed).code).toBe(4001);
      // the cookie is dead for the socket too
      expect((await handshake(j, { cookie: `judge_session=${c.cookie}`, origin: new URL(j.url).origin })).status).toBe(401);
      const [before] = await barrier(admin, [kept]);
      expect(types(before!)).toEqual([]);
      expect(kept.socket.readyState).toBe(WebSocket.OPEN);
      expect((await sessionsOf(keep)).map((x) => x.connections)).toEqual([1]);
      kept.close();
    });

    it('blocking a user ends all their sockets with sessionExpired and 4001', async () => {
      const u = await j.user('blockee');
      const c1 = await j.signIn(u, 'cookie');
      const c2 = await j.signIn(u, 'cookie');
      const bystander = await open(await j.signIn(await j.user('bystander'), 'cookie'));
      const s1 = await open(c1);
      const s2 = await open(c2);
      await admin.call(ops.setUserBlocked, { params: { id: u.id }, body: { blocked: true, reason: 'test' } });
      for (const s of [s1, s2]) {
        expect(await s.next('sessionExpired')).toEqual({ type: 'sessionExpired', data: { reason: 'blocked' } });
        expect((await s.closed).code).toBe(4001);
      }
      expect((await handshake(j, { cookie: `judge_session=${c1.cookie}`, origin: new URL(j.url).origin })).status).toBe(401);
      const [before] = await barrier(admin, [bystander]);
      expect(types(before!)).toEqual([]);
      expect(bystander.socket.readyState).toBe(WebSocket.OPEN);
      bystander.close();
    });

    it('a password change ends the other sessions’ sockets but not the current one’s', async () => {
      const u = await j.user('changer');
      const here = await j.signIn(u, 'cookie');
      const there = await j.signIn(u, 'cookie');
      const sHere = await open(here);
      const sThere = await open(there);
      await here.call(ops.changePassword, { body: { currentPassword: u.password, newPassword: 'a brand new password' } });
      expect(await sThere.next('sessionExpired')).toEqual({ type: 'sessionExpired', data: { reason: 'passwordChanged' } });
      expect((await sThere.closed).code).toBe(4001);
      const [before] = await barrier(admin, [sHere]);
      expect(types(before!)).toEqual([]);
      expect(sHere.socket.readyState).toBe(WebSocket.OPEN);
      expect((await sessionsOf(here)).map((x) => [x.isCurrent, x.connections])).toEqual([[true, 1]]);
      sHere.close();
    });

    it('ending one session from the account list closes its sockets with reason ended', async () => {
      const u = await j.user('ender');
      const here = await j.signIn(u, 'cookie');
      const there = await j.signIn(u, 'cookie');
      const sThere = await open(there);
      const target = (await sessionsOf(there)).find((s) => s.isCurrent)!;
      await here.call(ops.endAccountSession, { params: { id: target.id } });
      expect((await sThere.next('sessionExpired')).data).toEqual({ reason: 'ended' });
      expect((await sThere.closed).code).toBe(4001);
    });
  });
});
