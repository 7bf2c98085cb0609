import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Session } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { NO_SUCH_ID } from './support/ids.js';
import { refusedWith, sendJson } from './expect.js';
import { TestJudge, raw } from './harness.js';
import { sleep } from './support/wait.js';
import { eq } from 'drizzle-orm';
import { users } from '../src/db/schema.js';

/**
 * The caller's own account over real HTTP and a real SQLite file (interface "Account"; decisions
 * §2-4, §14): profile, login and address changes, password changes and the caller's sessions.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let j: TestJudge;
let seq = 0;
const fresh = (stem: string) => `${stem}-${++seq}`;

beforeAll(async () => {
  j = await TestJudge.start();
  // the renames below are the mechanics; who may rename at all is account-names.test.ts
  await (await j.admin()).call(ops.updateInstance, { body: { allowRenameStaffAccounts: true } });
});
afterAll(() => j.stop());

const url = (path: string) => `${j.url}/api/v1${path}`;

const refused = refusedWith;
const send = (method: string, path: string, token: string | undefined, body?: unknown) => sendJson(j.url, method, path, token, body);

async function userRow(id: string): Promise<Record<string, unknown>> {
  return (await j.query('SELECT * FROM users WHERE id = ?', id))[0]!;
}

async function liveSessions(userId: string): Promise<number> {
  return (await j.query<{ n: number }>('SELECT count(*) AS n FROM sessions WHERE user_id = ? AND ended_at IS NULL', userId))[0]!.n;
}

async function loginResult(login: string, password: string): Promise<string> {
  const res = await raw(url('/identity/login'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: login, password }) });
  if (res.status === 200) return 'ok';
  expect(res.status).toBe(401);
  return res.body.detail as string;
}

/** The status a client's credentials get on GET /account. */
async function authStatus(c: JudgeClient): Promise<number> {
  const res = c.accessToken
    ? await raw(url('/account'), { token: c.accessToken })
    : await raw(url('/account'), { headers: { cookie: `judge_session=${c.cookie}` } });
  return res.status;
}

async function signInAs(u: { username: string; password: string }, userAgent: string, how: 'bearer' | 'cookie' = 'bearer'): Promise<JudgeClient> {
  const c = new JudgeClient({ baseUrl: j.url, userAgent });
  if (how === 'cookie') await c.loginWithCookie(u.username, u.password);
  else await c.login(u.username, u.password);
  return c;
}

describe('anonymous callers', () => {
  it('get 401 unauthenticated from every account endpoint, and so do bad credentials', async () => {
    const someone = await j.user(fresh('anon-target'));
    const before = await userRow(someone.id);
    const calls: [string, string, unknown?][] = [
      ['GET', '/account'],
      ['PUT', '/account', { firstName: 'x' }],
      ['POST', '/account/password', { currentPassword: someone.password, newPassword: 'long-enough-password' }],
      ['GET', '/account/sessions'],
      ['DELETE', `/account/sessions/${NO_SUCH_ID}`],
    ];
    for (const [method, path, body] of calls) {
      for (const token of [undefined, 'not-a-real-token']) {
        const res = await send(method, path, token, body);
        expect(res.status, `${method} ${path} ${token ?? 'anonymous'}`).toBe(401);
        expect(res.body.code).toBe('unauthenticated');
      }
      const cookie = await raw(url(path), { method, headers: { cookie: 'judge_session=forged', origin: j.url, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
      expect(cookie.status, `${method} ${path} forged cookie`).toBe(401);
    }
    expect(await userRow(someone.id)).toEqual(before);
  });
});

describe('GET /account', () => {
  it('shows the caller\'s own account', async () => {
    const u = await j.user(fresh('acc-full'), { email: 'Full.Account@Example.org', firstName: 'Grace', lastName: 'Hopper' });
    const c = await j.signIn(u);
    expect(await c.call(ops.getAccount)).toEqual({
      userId: u.id,
      username: u.username,
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'Full.Account@Example.org',
      emailConfirmed: false,
      isLocal: true,
      origin: 'staff',
      mayChangeUsername: true,
      mayChangeName: true,
    });
    const viaCookie = await j.signIn(u, 'cookie');
    expect((await viaCookie.call(ops.getAccount)).userId).toBe(u.id);
  });

  it('omits null members: no names and no address means no such keys', async () => {
    const u = await j.user(fresh('acc-bare'));
    const c = await j.signIn(u);
    const res = await send('GET', '/account', c.accessToken);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('null');
    expect(res.body).toEqual({ userId: u.id, username: u.username, emailConfirmed: false, isLocal: true, origin: 'staff', mayChangeUsername: true, mayChangeName: true });
    expect(res.body.userId).toMatch(UUID);
  });
});

describe('PUT /account', () => {
  it('changes names, and null clears them', async () => {
    const u = await j.user(fresh('acc-names'));
    const c = await j.signIn(u);
    const set = await c.call(ops.updateAccount, { body: { firstName: 'Ada', lastName: 'Lovelace' } });
    expect(set).toMatchObject({ userId: u.id, firstName: 'Ada', lastName: 'Lovelace' });
    expect(await userRow(u.id)).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });
    expect(await c.call(ops.getAccount)).toEqual(set);

    const res = await send('PUT', '/account', c.accessToken, { firstName: null });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('null');
    expect(Object.keys(res.body)).not.toContain('firstName');
    expect(res.body.lastName).toBe('Lovelace');
    expect((await userRow(u.id)).first_name).toBeNull();
  });

  it('changes the login: the new one signs in, the old one no longer does', async () => {
    const u = await j.user(fresh('acc-rename'));
    const c = await j.signIn(u);
    const newName = fresh('Acc-Renamed');
    const acc = await c.call(ops.updateAccount, { body: { username: newName } });
    expect(acc.username).toBe(newName);
    expect(await userRow(u.id)).toMatchObject({ username: newName, username_key: newName.toLowerCase() });
    expect(await loginResult(newName.toLowerCase(), u.password)).toBe('ok');
    expect(await loginResult(u.username, u.password)).toBe('Failed');
    // the session survives the rename
    expect(await authStatus(c)).toBe(200);
  });

  it('lets the caller change only the case of their own login', async () => {
    const u = await j.user(fresh('acc-case'));
    const c = await j.signIn(u);
    const acc = await c.call(ops.updateAccount, { body: { username: u.username.toUpperCase() } });
    expect(acc.username).toBe(u.username.toUpperCase());
  });

  it('refuses a login another account has, in any case, with 409 user.username.taken, changing nothing', async () => {
    const holder = await j.user(fresh('acc-holder'));
    const u = await j.user(fresh('acc-wants'));
    const c = await j.signIn(u);
    const before = await userRow(u.id);
    await refused(c.call(ops.updateAccount, { body: { username: holder.username.toUpperCase(), firstName: 'Changed' } }), 409, 'user.username.taken');
    await refused(c.call(ops.updateAccount, { body: { username: 'ADMIN' } }), 409, 'user.username.taken');
    expect(await userRow(u.id)).toEqual(before);
    expect(await loginResult(u.username, u.password)).toBe('ok');
  });

  it('changes the address, which clears emailConfirmed; the same address in another case does not', async () => {
    const u = await j.user(fresh('acc-mail'), { email: `${fresh('old')}@example.org` });
    const c = await j.signIn(u);
    await j.app.deps.tx.write(async (q) => {
      await q.update(users).set({ emailConfirmed: true }).where(eq(users.id, u.id));
    });
    const same = await c.call(ops.updateAccount, { body: { email: ((await userRow(u.id)).email as string).toUpperCase() } });
    expect(same.emailConfirmed).toBe(true);

    const address = `${fresh('new')}@example.org`;
    const acc = await c.call(ops.updateAccount, { body: { email: address } });
    expect(acc).toMatchObject({ email: address, emailConfirmed: false });
    expect(await userRow(u.id)).toMatchObject({ email: address, email_key: address, email_confirmed: 0 });
    expect(await loginResult(address, u.password)).toBe('ok');

    const cleared = await send('PUT', '/account', c.accessToken, { email: null });
    expect(cleared.status).toBe(200);
    expect(Object.keys(cleared.body)).not.toContain('email');
    expect(await userRow(u.id)).toMatchObject({ email: null, email_key: null });
  });

  it('refuses an address another account has with 409 user.email.taken, changing nothing', async () => {
    await j.user(fresh('acc-mailholder'), { email: 'Taken.Address@Example.org' });
    const u = await j.user(fresh('acc-mailwants'));
    const c = await j.signIn(u);
    const before = await userRow(u.id);
    await refused(c.call(ops.updateAccount, { body: { email: 'taken.address@example.ORG', lastName: 'Changed' } }), 409, 'user.email.taken');
    expect(await userRow(u.id)).toEqual(before);
  });

  it.each([
    ['a login with a space', { username: 'has space' }, 'username'],
    ['a 1-character login', { username: 'q' }, 'username'],
    ['a 65-character login', { username: 'x'.repeat(65) }, 'username'],
    ['a null login', { username: null }, 'username'],
    ['a bad address', { email: 'not-an-address' }, 'email'],
    ['a numeric first name', { firstName: 1 }, 'firstName'],
    ['a first name over 100 characters', { firstName: 'f'.repeat(101) }, 'firstName'],
  ])('refuses %s with 422, changing nothing', async (_what, body, field) => {
    const u = await j.user(fresh('acc-invalid'), { firstName: 'Before' });
    const c = await j.signIn(u);
    const before = await userRow(u.id);
    const res = await send('PUT', '/account', c.accessToken, { lastName: 'Changed', ...body });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toHaveProperty([field]);
    expect(await userRow(u.id)).toEqual(before);
  });

  it('refuses malformed JSON with 400, changing nothing', async () => {
    const u = await j.user(fresh('acc-malformed'));
    const c = await j.signIn(u);
    const before = await userRow(u.id);
    const res = await send('PUT', '/account', c.accessToken, '{"firstName": "x",');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('request.malformed');
    expect(await userRow(u.id)).toEqual(before);
  });

  it('refuses a cookie-authenticated change from a foreign origin (403 csrf.origin), changing nothing', async () => {
    const u = await j.user(fresh('acc-csrf'));
    const c = await j.signIn(u, 'cookie');
    const before = await userRow(u.id);
    const res = await raw(url('/account'), {
      method: 'PUT',
      headers: { cookie: `judge_session=${c.cookie}`, origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Evil' }),
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf.origin');
    expect(await userRow(u.id)).toEqual(before);
    expect(await c.call(ops.updateAccount, { body: { firstName: 'Own' } })).toMatchObject({ firstName: 'Own' });
  });
});

describe('POST /account/password', () => {
  it('changes the password: 204, other sessions end, the current one keeps working, the new password signs in', async () => {
    const u = await j.user(fresh('pw-change'));
    const other = await j.signIn(u);
    const otherCookie = await j.signIn(u, 'cookie');
    const me = await j.signIn(u);
    expect(await liveSessions(u.id)).toBe(3);
    const res = await send('POST', '/account/password', me.accessToken, { currentPassword: u.password, newPassword: 'a-brand-new-password' });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');

    expect(await authStatus(other)).toBe(401);
    expect(await authStatus(otherCookie)).toBe(401);
    expect(await authStatus(me)).toBe(200);
    expect(await liveSessions(u.id)).toBe(1);
    const mine = await me.call(ops.listAccountSessions);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.isCurrent).toBe(true);

    expect(await loginResult(u.username, 'a-brand-new-password')).toBe('ok');
    expect(await loginResult(u.username, u.password)).toBe('Failed');
  });

  it('works from a cookie session too, which survives', async () => {
    const u = await j.user(fresh('pw-cookie'));
    const me = await j.signIn(u, 'cookie');
    const other = await j.signIn(u);
    await me.call(ops.changePassword, { body: { currentPassword: u.password, newPassword: 'cookie-side-password' } });
    expect(await authStatus(me)).toBe(200);
    expect(await authStatus(other)).toBe(401);
    expect(await loginResult(u.username, 'cookie-side-password')).toBe('ok');
  });

  it('refuses a wrong current password with 422 account.password.wrong, changing nothing', async () => {
    const u = await j.user(fresh('pw-wrong'));
    const other = await j.signIn(u);
    const me = await j.signIn(u);
    const before = await userRow(u.id);
    const pb = await refused(me.call(ops.changePassword, { body: { currentPassword: `${u.password}-nope`, newPassword: 'would-be-new-password' } }), 422, 'account.password.wrong');
    expect(pb.errors).toHaveProperty(['currentPassword']);
    expect(await userRow(u.id)).toEqual(before);
    expect(await authStatus(other)).toBe(200);
    expect(await authStatus(me)).toBe(200);
    expect(await loginResult(u.username, u.password)).toBe('ok');
    expect(await loginResult(u.username, 'would-be-new-password')).toBe('Failed');
  });

  it.each([
    ['a new password under 10 characters', (p: string) => ({ currentPassword: p, newPassword: 'short-123' }), 'newPassword'],
    ['a new password over 256 characters', (p: string) => ({ currentPassword: p, newPassword: 'x'.repeat(257) }), 'newPassword'],
    ['no new password', (p: string) => ({ currentPassword: p }), 'newPassword'],
    ['a numeric new password', (p: string) => ({ currentPassword: p, newPassword: 12345678901 }), 'newPassword'],
    ['no current password', () => ({ newPassword: 'long-enough-password' }), 'currentPassword'],
    ['an empty current password', () => ({ currentPassword: '', newPassword: 'long-enough-password' }), 'currentPassword'],
  ])('refuses %s with 422 validation_failed, changing nothing', async (_what, body, field) => {
    const u = await j.user(fresh('pw-invalid'));
    const other = await j.signIn(u);
    const me = await j.signIn(u);
    const before = await userRow(u.id);
    const res = await send('POST', '/account/password', me.accessToken, body(u.password));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toHaveProperty([field]);
    expect(await userRow(u.id)).toEqual(before);
    expect(await authStatus(other)).toBe(200);
    expect(await loginResult(u.username, u.password)).toBe('ok');
  });

  it('accepts a new password of exactly 10 characters', async () => {
    const u = await j.user(fresh('pw-ten'));
    const me = await j.signIn(u);
    await me.call(ops.changePassword, { body: { currentPassword: u.password, newPassword: '0123456789' } });
    expect(await loginResult(u.username, '0123456789')).toBe('ok');
  });

  it('refuses malformed JSON with 400, changing nothing', async () => {
    const u = await j.user(fresh('pw-malformed'));
    const me = await j.signIn(u);
    const before = await userRow(u.id);
    const res = await send('POST', '/account/password', me.accessToken, '{"currentPassword":');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('request.malformed');
    expect(await userRow(u.id)).toEqual(before);
  });
});

describe('GET /account/sessions', () => {
  it('lists the caller\'s live sessions newest first, marking the current one', async () => {
    const u = await j.user(fresh('ss-mine'));
    const stranger = await j.user(fresh('ss-stranger'));
    await signInAs(stranger, 'stranger-agent');
    await signInAs(u, 'older-agent');
    await sleep(5);
    const me = await signInAs(u, 'newer-agent', 'cookie');
    const res = await raw(url('/account/sessions'), { headers: { cookie: `judge_session=${me.cookie}` } });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('null');
    const list = res.body as Session[];
    expect(list.map((s) => s.userAgent)).toEqual(['newer-agent', 'older-agent']);
    expect(list.map((s) => s.isCurrent)).toEqual([true, false]);
    for (const s of list) {
      expect(s.id).toMatch(UUID);
      expect(s.connections).toBe(0);
      expect(s.ipAddress).toBe('127.0.0.1');
      expect(s.startedAt).toMatch(INSTANT);
      expect(s.expiresAt).toMatch(INSTANT);
      expect(Date.parse(s.expiresAt!)).toBeGreaterThan(Date.now());
    }
    expect(Date.parse(list[0]!.startedAt)).toBeGreaterThan(Date.parse(list[1]!.startedAt));
  });

  it('drops sessions that ended', async () => {
    const u = await j.user(fresh('ss-drop'));
    const gone = await signInAs(u, 'gone-agent');
    const me = await signInAs(u, 'staying-agent');
    expect(await me.call(ops.listAccountSessions)).toHaveLength(2);
    await gone.call(ops.logout);
    expect((await me.call(ops.listAccountSessions)).map((s) => s.userAgent)).toEqual(['staying-agent']);
  });
});

describe('DELETE /account/sessions/{id}', () => {
  it('ends one of the caller\'s other sessions: 204, its token gets 401, it leaves the list', async () => {
    const u = await j.user(fresh('del-other'));
    const victim = await signInAs(u, 'victim-agent');
    const bystander = await signInAs(u, 'bystander-agent');
    const me = await signInAs(u, 'me-agent');
    const target = (await me.call(ops.listAccountSessions)).find((s) => s.userAgent === 'victim-agent')!;
    const res = await send('DELETE', `/account/sessions/${target.id}`, me.accessToken);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await authStatus(victim)).toBe(401);
    expect(await authStatus(bystander)).toBe(200);
    expect(await authStatus(me)).toBe(200);
    expect((await me.call(ops.listAccountSessions)).map((s) => s.userAgent)).toEqual(['me-agent', 'bystander-agent']);
    await refused(me.call(ops.endAccountSession, { params: { id: target.id } }), 404, 'not_found');
  });

  it('ends the current session when asked to', async () => {
    const u = await j.user(fresh('del-self'));
    const me = await signInAs(u, 'self-agent');
    const [current] = await me.call(ops.listAccountSessions);
    expect(current!.isCurrent).toBe(true);
    await me.call(ops.endAccountSession, { params: { id: current!.id } });
    expect(await authStatus(me)).toBe(401);
    expect(await liveSessions(u.id)).toBe(0);
  });

  it('answers 404 for another user\'s session, an unknown id or a non-UUID id, ending nothing', async () => {
    const owner = await j.user(fresh('del-owner'));
    const ownerClient = await signInAs(owner, 'owner-agent');
    const [ownerSession] = await ownerClient.call(ops.listAccountSessions);
    const u = await j.user(fresh('del-intruder'));
    const me = await j.signIn(u);

    await refused(me.call(ops.endAccountSession, { params: { id: ownerSession!.id } }), 404, 'not_found');
    await refused(me.call(ops.endAccountSession, { params: { id: NO_SUCH_ID } }), 404, 'not_found');
    for (const id of ['not-a-uuid', ownerSession!.id.toUpperCase()]) {
      const res = await send('DELETE', `/account/sessions/${id}`, me.accessToken);
      expect(res.status, id).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect(await authStatus(ownerClient)).toBe(200);
    expect(await liveSessions(owner.id)).toBe(1);
    expect(await authStatus(me)).toBe(200);
  });
});
