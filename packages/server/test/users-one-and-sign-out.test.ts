import { describe, expect, it } from 'vitest';
import { ops, type ManagedUser } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { NO_SUCH_ID } from './support/ids.js';
import { INSTANT, j, admin, adminId, fresh, refused, send, userRow, tokenStatus, holderOf, managed, useUsersServer } from './support/users.js';

/**
 * One account read by id (GET /users/managed/{id}, the staff page of one user) and signing an
 * account out everywhere (DELETE /users/{userId}/sessions): what each answers, who may call it,
 * and that every refusal changes nothing. Shared setup in support/users.ts.
 */

useUsersServer();

const liveSessions = async (userId: string) =>
  (await j.query<{ n: number }>('SELECT count(*) AS n FROM sessions WHERE user_id = ? AND ended_at IS NULL', userId))[0]!.n;

describe('GET /users/managed/{id}', () => {
  it('answers the account exactly as the list shows it, blocked ones included', async () => {
    const u = await j.user(fresh('one-read'));
    await admin.call(ops.updateUser, { params: { id: u.id }, body: { firstName: 'Ada', note: 'desk 4', tags: ['lab'] } });
    await admin.call(ops.setUserBlocked, { params: { id: u.id }, body: { blocked: true, reason: 'left' } });
    const res = await send('GET', `/users/managed/${u.id}`, admin.accessToken);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('null');
    const one = res.body as ManagedUser;
    expect(one).toEqual(await managed(u.id));
    expect(one).toMatchObject({ id: u.id, username: u.username, firstName: 'Ada', note: 'desk 4', tags: ['lab'], blockedReason: 'left', blockedAt: expect.stringMatching(INSTANT) });
    expect(one.grantCount).toBe(0);
  });

  it('counts the grants the account holds', async () => {
    const u = await j.user(fresh('one-grants'));
    await j.grant(u.id, 'Manager');
    expect((await admin.call(ops.getManagedUser, { params: { id: u.id } })).grantCount).toBe(1);
  });

  it('lets a holder of user:read:all read; refuses a plain user (403 naming it) and anonymous callers (401)', async () => {
    const u = await j.user(fresh('one-target'));
    const { client: reader } = await holderOf('one-reader', ['user:read:all']);
    expect((await reader.call(ops.getManagedUser, { params: { id: u.id } })).username).toBe(u.username);
    const plain = await j.signIn(await j.user(fresh('one-plain')));
    const pb = await refused(plain.call(ops.getManagedUser, { params: { id: u.id } }), 403, 'forbidden');
    expect(pb.detail).toContain('user:read:all');
    // not even oneself: the account page is where one reads one's own account
    await refused(plain.call(ops.getManagedUser, { params: { id: (await plain.call(ops.getAccount)).userId } }), 403, 'forbidden');
    await refused(j.anonymous().call(ops.getManagedUser, { params: { id: u.id } }), 401, 'unauthenticated');
  });

  it('answers 404 for an unknown or malformed id, one over 64 characters included', async () => {
    await refused(admin.call(ops.getManagedUser, { params: { id: NO_SUCH_ID } }), 404, 'not_found');
    await refused(admin.call(ops.getManagedUser, { params: { id: 'nobody' } }), 404, 'not_found');
    const long = await send('GET', `/users/managed/${'x'.repeat(65)}`, admin.accessToken);
    expect([long.status, long.body.code]).toEqual([404, 'not_found']);
  });

  it('still lists the accounts at /users/managed (the one-account path does not shadow it)', async () => {
    const page = await admin.call(ops.listManagedUsers, { query: { search: 'one-read' } });
    expect(page.items.length).toBeGreaterThan(0);
  });
});

describe('DELETE /users/{userId}/sessions', () => {
  const signIn = async (username: string, password: string, how: 'bearer' | 'cookie') => {
    const c = new JudgeClient({ baseUrl: j.url });
    if (how === 'cookie') await c.loginWithCookie(username, password);
    else await c.login(username, password);
    return c;
  };

  it('ends every session of the account, cookie and bearer, and it may sign in again', async () => {
    const u = await j.user(fresh('all-out'));
    const a = await signIn(u.username, u.password, 'bearer');
    const b = await signIn(u.username, u.password, 'cookie');
    const other = await j.user(fresh('all-bystander'));
    const bystander = await signIn(other.username, other.password, 'bearer');
    const res = await send('DELETE', `/users/${u.id}/sessions`, admin.accessToken);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await tokenStatus(a)).toBe(401);
    expect(await tokenStatus(b)).toBe(401);
    expect(await liveSessions(u.id)).toBe(0);
    expect(await admin.call(ops.listUserSessions, { params: { userId: u.id } })).toEqual([]);
    // somebody else's session is not touched, and the account is not blocked
    expect(await tokenStatus(bystander)).toBe(200);
    expect((await userRow(u.id)).blocked_at).toBeNull();
    expect(await tokenStatus(await signIn(u.username, u.password, 'bearer'))).toBe(200);
    // nothing left to end is no error
    await admin.call(ops.endUserSessions, { params: { userId: other.id } });
    await admin.call(ops.endUserSessions, { params: { userId: other.id } });
  });

  it("on the caller's own account keeps the session asking and ends the others", async () => {
    const { user, client } = await holderOf('self-out', ['user:update']);
    const elsewhere = await signIn(user.username, user.password, 'cookie');
    await client.call(ops.endUserSessions, { params: { userId: user.id } });
    expect(await tokenStatus(client)).toBe(200);
    expect(await tokenStatus(elsewhere)).toBe(401);
    expect(await liveSessions(user.id)).toBe(1);
  });

  it('refuses a plain user (403 naming user:update), anonymous callers (401), and a user:update holder on an administrator (403), ending nothing', async () => {
    const u = await j.user(fresh('all-guarded'));
    const c = await signIn(u.username, u.password, 'bearer');
    const plain = await j.signIn(await j.user(fresh('all-plain')));
    const pb = await refused(plain.call(ops.endUserSessions, { params: { userId: u.id } }), 403, 'forbidden');
    expect(pb.detail).toContain('user:update');
    await refused(j.anonymous().call(ops.endUserSessions, { params: { userId: u.id } }), 401, 'unauthenticated');
    expect(await tokenStatus(c)).toBe(200);

    const { client: editor } = await holderOf('all-editor', ['user:update']);
    const adminLive = await liveSessions(adminId);
    await refused(editor.call(ops.endUserSessions, { params: { userId: adminId } }), 403, 'forbidden');
    expect(await liveSessions(adminId)).toBe(adminLive);
    expect(await tokenStatus(admin)).toBe(200);
    // a plain account it may sign out
    await editor.call(ops.endUserSessions, { params: { userId: u.id } });
    expect(await tokenStatus(c)).toBe(401);
  });

  it('answers 404 for an unknown or malformed user id, ending nothing', async () => {
    const u = await j.user(fresh('all-404'));
    const c = await signIn(u.username, u.password, 'bearer');
    await refused(admin.call(ops.endUserSessions, { params: { userId: NO_SUCH_ID } }), 404, 'not_found');
    await refused(admin.call(ops.endUserSessions, { params: { userId: 'nobody' } }), 404, 'not_found');
    const long = await send('DELETE', `/users/${'x'.repeat(65)}/sessions`, admin.accessToken);
    expect([long.status, long.body.code]).toEqual([404, 'not_found']);
    expect(await tokenStatus(c)).toBe(200);
  });
});
