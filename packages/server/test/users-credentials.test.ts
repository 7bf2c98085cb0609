import { describe, expect, it } from 'vitest';
import { ops, type IssuedCredentials, type Session } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, type TestUser } from './harness.js';
import { sleep } from './support/wait.js';
import { NO_SUCH_ID } from './support/ids.js';
import { UUID, INSTANT, j, admin, adminId, fresh, refused, send, userRow, loginResult, tokenStatus, holderOf, useUsersServer } from './support/users.js';

/**
 * The user administration endpoints over real HTTP and a real SQLite file (interface "Users";
 * decisions §2-5): blocking users, setting passwords, and their sessions: what each answers, who may
 * call it, and that every refusal changes nothing. Shared setup in support/users.ts.
 */

useUsersServer();

describe('POST /users/{id}/blocked', () => {
  it('blocks: sets blockedAt and the reason, ends every session, and sign-in answers LockedOut', async () => {
    const u = await j.user(fresh('bl-victim'));
    const bearer = await j.signIn(u);
    const cookie = await j.signIn(u, 'cookie');
    expect(await tokenStatus(bearer)).toBe(200);
    expect(await tokenStatus(cookie)).toBe(200);

    const res = await send('POST', `/users/${u.id}/blocked`, admin.accessToken, { blocked: true, reason: 'spam' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: u.id, blockedAt: expect.stringMatching(INSTANT), blockedReason: 'spam' });

    expect(await tokenStatus(bearer)).toBe(401);
    expect(await tokenStatus(cookie)).toBe(401);
    const [live] = await j.query<{ n: number }>('SELECT count(*) AS n FROM sessions WHERE user_id = ? AND ended_at IS NULL', u.id);
    expect(live!.n).toBe(0);
    expect(await admin.call(ops.listUserSessions, { params: { userId: u.id } })).toEqual([]);
    // the refresh token died with the session
    await refused(bearer.refresh(), 401, 'unauthenticated');

    expect(await loginResult(u.username, u.password)).toBe('LockedOut');
    // a wrong password learns nothing: it answers as for any account, or none
    expect(await loginResult(u.username, 'wrong-password-123')).toBe('Failed');
  });

  it('blocking again keeps the first blockedAt; unblocking restores sign-in', async () => {
    const u = await j.user(fresh('bl-again'));
    const first = await admin.call(ops.setUserBlocked, { params: { id: u.id }, body: { blocked: true } });
    expect(Object.keys(first)).not.toContain('blockedReason');
    await sleep(5);
    const second = await admin.call(ops.setUserBlocked, { params: { id: u.id }, body: { blocked: true, reason: 'later' } });
    expect(second.blockedAt).toBe(first.blockedAt);
    expect(await loginResult(u.username, u.password)).toBe('LockedOut');

    const res = await send('POST', `/users/${u.id}/blocked`, admin.accessToken, { blocked: false });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('null');
    expect(Object.keys(res.body)).not.toContain('blockedAt');
    expect(Object.keys(res.body)).not.toContain('blockedReason');
    expect(await loginResult(u.username, u.password)).toBe('ok');
  });

  it('refuses blocking yourself with 409 user.self, changing nothing', async () => {
    const before = (await userRow(adminId));
    await refused(admin.call(ops.setUserBlocked, { params: { id: adminId }, body: { blocked: true } }), 409, 'user.self');
    expect((await userRow(adminId))).toEqual(before);
    expect(await tokenStatus(admin)).toBe(200);
  });

  it('lets a non-administrator holding user:block block a plain account but not an administrator', async () => {
    const { client: blocker } = await holderOf('blocker', ['user:block', 'user:read:all']);
    const plain = await j.user(fresh('bl-plain'));
    expect(await blocker.call(ops.setUserBlocked, { params: { id: plain.id }, body: { blocked: true } })).toMatchObject({ blockedAt: expect.any(String) });

    const adminBefore = (await userRow(adminId));
    await refused(blocker.call(ops.setUserBlocked, { params: { id: adminId }, body: { blocked: true } }), 403, 'forbidden');
    expect((await userRow(adminId))).toEqual(adminBefore);
    expect(await tokenStatus(admin)).toBe(200);
    expect(await loginResult('admin', ADMIN_PASSWORD)).toBe('ok');
  });

  it('refuses a plain user (403 naming user:block), anonymous callers (401), unknown ids (404)', async () => {
    const target = await j.user(fresh('bl-target'));
    const plain = await j.signIn(await j.user(fresh('bl-plain-caller')));
    const pb = await refused(plain.call(ops.setUserBlocked, { params: { id: target.id }, body: { blocked: true } }), 403, 'forbidden');
    expect(pb.detail).toContain('user:block');
    await refused(j.anonymous().call(ops.setUserBlocked, { params: { id: target.id }, body: { blocked: true } }), 401, 'unauthenticated');
    await refused(admin.call(ops.setUserBlocked, { params: { id: NO_SUCH_ID }, body: { blocked: true } }), 404, 'not_found');
    await refused(admin.call(ops.setUserBlocked, { params: { id: 'nobody' }, body: { blocked: true } }), 404, 'not_found');
    expect((await userRow(target.id)).blocked_at).toBeNull();
  });

  it.each([
    ['blocked as a string', { blocked: 'yes' }, 'blocked'],
    ['blocked as a number', { blocked: 1 }, 'blocked'],
    ['no blocked member', { reason: 'x' }, 'blocked'],
    ['a reason over 500 characters', { blocked: true, reason: 'r'.repeat(501) }, 'reason'],
  ])('refuses %s with 422, changing nothing and ending no session', async (_what, body, field) => {
    const u = await j.user(fresh('bl-invalid'));
    const c = await j.signIn(u);
    const before = (await userRow(u.id));
    const res = await send('POST', `/users/${u.id}/blocked`, admin.accessToken, body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect((await userRow(u.id))).toEqual(before);
    expect(await tokenStatus(c)).toBe(200);
  });
});

describe('POST /users/{id}/password', () => {
  it('issues a new password: the old one stops working, the new one works, sessions end', async () => {
    const u = await j.user(fresh('pw-reset'));
    const bearer = await j.signIn(u);
    const cookie = await j.signIn(u, 'cookie');
    const res = await send('POST', `/users/${u.id}/password`, admin.accessToken);
    expect(res.status).toBe(200);
    const issued = res.body as IssuedCredentials;
    expect(issued).toEqual({ userId: u.id, username: u.username, password: expect.any(String) });
    expect(issued.password).not.toBe(u.password);
    expect(issued.password.length).toBeGreaterThanOrEqual(10);

    expect(await tokenStatus(bearer)).toBe(401);
    expect(await tokenStatus(cookie)).toBe(401);
    expect(await loginResult(u.username, u.password)).toBe('Failed');
    expect(await loginResult(u.username, issued.password)).toBe('ok');
  });

  it('clears a lockout', async () => {
    const u = await j.user(fresh('pw-locked'));
    // locked by guesses from this address, which the lock then refuses even the right password
    for (let i = 0; i < 10; i++) expect(await loginResult(u.username, `guess-${i}`)).toBe('Failed');
    expect((await userRow(u.id)).locked_until).not.toBeNull();
    expect(await loginResult(u.username, u.password)).toBe('LockedOut');
    const issued = await admin.call(ops.resetUserPassword, { params: { id: u.id } });
    expect(await loginResult(u.username, issued.password)).toBe('ok');
  });

  it('refuses a plain user (403), anonymous callers (401) and unknown ids (404), changing nothing', async () => {
    const u = await j.user(fresh('pw-target'));
    const session = await j.signIn(u);
    const plainUser = await j.user(fresh('pw-plain'));
    const plain = await j.signIn(plainUser);
    const before = (await userRow(u.id));
    const pb = await refused(plain.call(ops.resetUserPassword, { params: { id: u.id } }), 403, 'forbidden');
    expect(pb.detail).toContain('user:update');
    await refused(plain.call(ops.resetUserPassword, { params: { id: plainUser.id } }), 403, 'forbidden');
    await refused(j.anonymous().call(ops.resetUserPassword, { params: { id: u.id } }), 401, 'unauthenticated');
    await refused(admin.call(ops.resetUserPassword, { params: { id: NO_SUCH_ID } }), 404, 'not_found');
    await refused(admin.call(ops.resetUserPassword, { params: { id: 'x' } }), 404, 'not_found');
    expect((await userRow(u.id))).toEqual(before);
    expect(await tokenStatus(session)).toBe(200);
    expect(await loginResult(u.username, u.password)).toBe('ok');
  });

  it('refuses a holder of user:update resetting an administrator (403)', async () => {
    const { client: editor } = await holderOf('resetter', ['user:update']);
    const before = (await userRow(adminId));
    await refused(editor.call(ops.resetUserPassword, { params: { id: adminId } }), 403, 'forbidden');
    expect((await userRow(adminId))).toEqual(before);
    expect(await tokenStatus(admin)).toBe(200);
    expect(await loginResult('admin', ADMIN_PASSWORD)).toBe('ok');
  });
});

describe('GET and DELETE /users/{userId}/sessions', () => {
  const signInAs = async (u: TestUser, userAgent: string, how: 'bearer' | 'cookie' = 'bearer') => {
    const c = new JudgeClient({ baseUrl: j.url, userAgent });
    if (how === 'cookie') await c.loginWithCookie(u.username, u.password);
    else await c.login(u.username, u.password);
    return c;
  };
  const sessionsOf = (id: string) => admin.call(ops.listUserSessions, { params: { userId: id } });

  it('lists live sessions newest first with their client, times and zero connections', async () => {
    const u = await j.user(fresh('ss-owner'));
    const t0 = Date.now();
    await signInAs(u, 'first-agent/1.0');
    await sleep(5);
    await signInAs(u, 'second-agent/2.0', 'cookie');
    const res = await send('GET', `/users/${u.id}/sessions`, admin.accessToken);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('null');
    const list = res.body as Session[];
    expect(list.map((s) => s.userAgent)).toEqual(['second-agent/2.0', 'first-agent/1.0']);
    for (const s of list) {
      expect(s.id).toMatch(UUID);
      expect(s.isCurrent).toBe(false);
      expect(s.connections).toBe(0);
      expect(s.ipAddress).toBe('127.0.0.1');
      expect(s.startedAt).toMatch(INSTANT);
      expect(s.expiresAt).toMatch(INSTANT);
      expect(Date.parse(s.startedAt)).toBeGreaterThanOrEqual(t0 - 1000);
      // refresh token and persistent cookie both last 14 days
      const days = (Date.parse(s.expiresAt!) - Date.parse(s.startedAt)) / 86_400_000;
      expect(days).toBeCloseTo(14, 3);
    }
    expect(Date.parse(list[0]!.startedAt)).toBeGreaterThan(Date.parse(list[1]!.startedAt));
  });

  it('marks the caller\'s own session isCurrent', async () => {
    const me = new JudgeClient({ baseUrl: j.url, userAgent: 'admin-current/1' });
    await me.login('admin', ADMIN_PASSWORD);
    const list = await me.call(ops.listUserSessions, { params: { userId: adminId } });
    const current = list.filter((s) => s.isCurrent);
    expect(current).toHaveLength(1);
    expect(current[0]!.userAgent).toBe('admin-current/1');
    expect(list.length).toBeGreaterThan(1);
  });

  it('counts open sockets live', async () => {
    const u = await j.user(fresh('ss-socket'));
    const c = await signInAs(u, 'socket-agent', 'cookie');
    const stream = c.events();
    try {
      await stream.opened;
      expect((await sessionsOf(u.id)).map((s) => s.connections)).toEqual([1]);
    } finally {
      stream.socket.close();
      await stream.closed;
    }
    await expect.poll(async () => (await sessionsOf(u.id))[0]?.connections).toBe(0);
  });

  it('drops ended sessions from the list', async () => {
    const u = await j.user(fresh('ss-ended'));
    const a = await signInAs(u, 'agent-a');
    await signInAs(u, 'agent-b');
    expect(await sessionsOf(u.id)).toHaveLength(2);
    await a.call(ops.logout);
    const left = await sessionsOf(u.id);
    expect(left.map((s) => s.userAgent)).toEqual(['agent-b']);
  });

  it('refuses a plain user, even for their own sessions (403), and anonymous callers (401)', async () => {
    const u = await j.user(fresh('ss-plain'));
    const c = await j.signIn(u);
    const pb = await refused(c.call(ops.listUserSessions, { params: { userId: u.id } }), 403, 'forbidden');
    expect(pb.detail).toContain('user:read:all');
    await refused(j.anonymous().call(ops.listUserSessions, { params: { userId: u.id } }), 401, 'unauthenticated');
  });

  it('answers 404 for an unknown or malformed user id', async () => {
    await refused(sessionsOf(NO_SUCH_ID), 404, 'not_found');
    await refused(sessionsOf('not-a-user'), 404, 'not_found');
  });

  it('DELETE ends exactly one session: that token gets 401, the others live on', async () => {
    const u = await j.user(fresh('ss-end'));
    const a = await signInAs(u, 'end-a');
    const b = await signInAs(u, 'end-b');
    const target = (await sessionsOf(u.id)).find((s) => s.userAgent === 'end-a')!;
    const res = await send('DELETE', `/users/${u.id}/sessions/${target.id}`, admin.accessToken);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await tokenStatus(a)).toBe(401);
    expect(await tokenStatus(b)).toBe(200);
    expect((await sessionsOf(u.id)).map((s) => s.userAgent)).toEqual(['end-b']);
    // already ended: nothing left to end
    await refused(admin.call(ops.endUserSession, { params: { userId: u.id, id: target.id } }), 404, 'not_found');
  });

  it('DELETE answers 404 for a session of another user, an unknown id or a non-UUID id, ending nothing', async () => {
    const owner = await j.user(fresh('ss-owner2'));
    const other = await j.user(fresh('ss-other'));
    const c = await signInAs(owner, 'owned');
    const [s] = await sessionsOf(owner.id);
    const live = async () => (await j.query<{ n: number }>('SELECT count(*) AS n FROM sessions WHERE ended_at IS NULL'))[0]!.n;
    const before = await live();
    await refused(admin.call(ops.endUserSession, { params: { userId: other.id, id: s!.id } }), 404, 'not_found');
    await refused(admin.call(ops.endUserSession, { params: { userId: owner.id, id: NO_SUCH_ID } }), 404, 'not_found');
    const notUuid = await send('DELETE', `/users/${owner.id}/sessions/not-a-uuid`, admin.accessToken);
    expect(notUuid.status).toBe(404);
    expect(notUuid.body.code).toBe('not_found');
    const upper = await send('DELETE', `/users/${owner.id}/sessions/${s!.id.toUpperCase()}`, admin.accessToken);
    expect(upper.status).toBe(404);
    expect(await live()).toBe(before);
    expect(await tokenStatus(c)).toBe(200);
  });

  it('DELETE refuses a plain user (403), anonymous callers (401), and a user:update holder on an administrator (403)', async () => {
    const u = await j.user(fresh('ss-guarded'));
    const c = await signInAs(u, 'guarded');
    const [s] = await sessionsOf(u.id);
    const plain = await j.signIn(await j.user(fresh('ss-plain2')));
    const pb = await refused(plain.call(ops.endUserSession, { params: { userId: u.id, id: s!.id } }), 403, 'forbidden');
    expect(pb.detail).toContain('user:update');
    await refused(j.anonymous().call(ops.endUserSession, { params: { userId: u.id, id: s!.id } }), 401, 'unauthenticated');
    expect(await tokenStatus(c)).toBe(200);

    const { client: editor } = await holderOf('ender', ['user:update', 'user:read:all']);
    const adminSession = (await sessionsOf(adminId)).find((x) => x.isCurrent)!;
    await refused(editor.call(ops.endUserSession, { params: { userId: adminId, id: adminSession.id } }), 403, 'forbidden');
    expect(await tokenStatus(admin)).toBe(200);
    // but a plain account's session it may end
    await editor.call(ops.endUserSession, { params: { userId: u.id, id: s!.id } });
    expect(await tokenStatus(c)).toBe(401);
  });
});
