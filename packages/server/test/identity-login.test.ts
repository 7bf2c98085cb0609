import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, ManualClock, TestJudge } from './harness.js';
import { SECRET, req, expectProblem, login, sessionCookie, attrs } from './support/identity.js';
import { eq } from 'drizzle-orm';
import { users } from '../src/db/schema.js';

/**
 * Identity over real HTTP (decisions §2, §3): signing in, the lockout after repeated failures and
 * against guesses in flight, and the login rate limit per address. Shared helpers in
 * support/identity.ts.
 */

describe('POST /identity/login', () => {
  let j: TestJudge;
  let admin: JudgeClient;
  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
  });
  afterAll(() => j.stop());

  it('answers a bearer pair that signs the caller in', async () => {
    const u = await j.user('bearer-user');
    const sessions = (await j.count('sessions'));
    const r = await login(j, u.username, u.password);
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body).toEqual({ tokenType: 'Bearer', accessToken: expect.stringMatching(SECRET), expiresIn: 3600, refreshToken: expect.stringMatching(SECRET) });
    expect(r.body.accessToken).not.toBe(r.body.refreshToken);
    expect(r.headers.getSetCookie().filter((c) => c.startsWith('judge_session='))).toEqual([]);
    expect((await j.count('sessions'))).toBe(sessions + 1);
    const me = await req(j, 'GET', '/account', { token: r.body.accessToken });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ userId: u.id, username: u.username });
    // the login is not case sensitive
    expect((await login(j, u.username.toUpperCase(), u.password)).status).toBe(200);
  });

  it('sets a persistent HttpOnly SameSite=Lax cookie with an empty body for useCookies=true', async () => {
    const u = await j.user('cookie-user');
    const r = await login(j, u.username, u.password, '?useCookies=true');
    expect(r.status, r.text).toBe(200);
    expect(r.text).toBe('');
    const c = sessionCookie(r);
    expect(c.value).toMatch(SECRET);
    const a = attrs(c.line);
    expect(a).toContain('httponly');
    expect(a).toContain('samesite=lax');
    expect(a).toContain('path=/');
    expect(a.some((x) => x.startsWith('domain='))).toBe(false);
    expect(a).not.toContain('secure'); // plain http
    const expires = a.find((x) => x.startsWith('expires='));
    const maxAge = a.find((x) => x.startsWith('max-age='));
    expect(expires ?? maxAge, 'persistent cookie').toBeDefined();
    if (expires) {
      const days = (Date.parse(expires.slice('expires='.length)) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(13.9);
      expect(days).toBeLessThan(14.1);
    }
    const me = await req(j, 'GET', '/account', { cookie: c.value });
    expect(me.status).toBe(200);
    expect(me.body.userId).toBe(u.id);
    // a cookie is not a bearer token
    expectProblem(await req(j, 'GET', '/account', { token: c.value }), 401, 'unauthenticated');
  });

  it('sets a browser-session cookie without Expires for useSessionCookies=true', async () => {
    const u = await j.user('session-cookie-user');
    const r = await login(j, u.username, u.password, '?useSessionCookies=true');
    expect(r.status, r.text).toBe(200);
    expect(r.text).toBe('');
    const c = sessionCookie(r);
    const a = attrs(c.line);
    expect(a).toContain('httponly');
    expect(a).toContain('samesite=lax');
    expect(a.some((x) => x.startsWith('expires=') || x.startsWith('max-age='))).toBe(false);
    expect((await req(j, 'GET', '/account', { cookie: c.value })).body.userId).toBe(u.id);
  });

  it('accepts the email address as the login', async () => {
    const u = await j.user('mail-user', { email: 'mail.user@example.org' });
    const r = await login(j, 'Mail.User@Example.org', u.password);
    expect(r.status, r.text).toBe(200);
    expect((await req(j, 'GET', '/account', { token: r.body.accessToken })).body.userId).toBe(u.id);
  });

  it('answers 401 Failed for a wrong password and for an unknown user, opening no session', async () => {
    const u = await j.user('wrong-pw-user');
    const sessions = (await j.count('sessions'));
    expectProblem(await login(j, u.username, `${u.password}x`), 401, 'unauthenticated', 'Failed');
    expectProblem(await login(j, 'nobody-at-all', 'whatever password'), 401, 'unauthenticated', 'Failed');
    expectProblem(await login(j, 'nobody@example.com', 'whatever password'), 401, 'unauthenticated', 'Failed');
    expect((await j.count('sessions'))).toBe(sessions);
  });

  it('refuses bad input with 422', async () => {
    expectProblem(await req(j, 'POST', '/identity/login', { body: { email: 'admin' } }), 422, 'validation_failed');
    const wrong = await req(j, 'POST', '/identity/login', { body: { email: 1, password: 2 } });
    expectProblem(wrong, 422, 'validation_failed');
    expect(Object.keys(wrong.body.errors)).toEqual(expect.arrayContaining(['email', 'password']));
    expectProblem(await req(j, 'POST', '/identity/login?useCookies=yes', { body: { email: 'admin', password: ADMIN_PASSWORD } }), 422, 'validation_failed');
  });

  it('answers LockedOut for a blocked user, whose sessions end, and lets them in when unblocked', async () => {
    const u = await j.user('blocked-user');
    const before = await login(j, u.username, u.password);
    expect(before.status).toBe(200);
    await admin.call(ops.setUserBlocked, { params: { id: u.id }, body: { blocked: true } });
    expectProblem(await login(j, u.username, u.password), 401, 'unauthenticated', 'LockedOut');
    // only the right password learns that the account is blocked: a wrong one answers as for anyone
    expectProblem(await login(j, u.username, 'wrong password'), 401, 'unauthenticated', 'Failed');
    expectProblem(await req(j, 'GET', '/account', { token: before.body.accessToken }), 401, 'unauthenticated');
    await admin.call(ops.setUserBlocked, { params: { id: u.id }, body: { blocked: false } });
    expect((await login(j, u.username, u.password)).status).toBe(200);
  });

  it('answers NotAllowed for a temporary user past expiresAt', async () => {
    const u = await j.user('expiring-user');
    const live = await login(j, u.username, u.password);
    expect(live.status).toBe(200);
    await admin.call(ops.updateUser, { params: { id: u.id }, body: { expiresAt: new Date(Date.now() - 60_000).toISOString() } });
    expectProblem(await login(j, u.username, u.password), 401, 'unauthenticated', 'NotAllowed');
    // the token it held stops working too
    expectProblem(await req(j, 'GET', '/account', { token: live.body.accessToken }), 401, 'unauthenticated');
    await admin.call(ops.updateUser, { params: { id: u.id }, body: { expiresAt: new Date(Date.now() + 3_600_000).toISOString() } });
    expect((await login(j, u.username, u.password)).status).toBe(200);
  });

  it('answers NotAllowed for an unconfirmed address while requireConfirmedEmail is on', async () => {
    const u = await j.user('unconfirmed-user', { email: 'unconfirmed@example.org' });
    const confirmed = await j.user('confirmed-user', { email: 'confirmed@example.org' });
    const addressless = await j.user('addressless-user');
    // confirmed as the mailed code would (identity-mail.test.ts goes through the mail)
    await j.app.deps.tx.write(async (q) => {
      await q.update(users).set({ emailConfirmed: true }).where(eq(users.id, confirmed.id));
    });
    await admin.call(ops.updateInstance, { body: { requireConfirmedEmail: true } });
    try {
      const sessions = (await j.count('sessions'));
      expectProblem(await login(j, u.username, u.password), 401, 'unauthenticated', 'NotAllowed');
      expectProblem(await login(j, 'unconfirmed@example.org', u.password), 401, 'unauthenticated', 'NotAllowed');
      expect((await j.count('sessions'))).toBe(sessions);
      // the wrong password is still just Failed
      expectProblem(await login(j, u.username, 'wrong password'), 401, 'unauthenticated', 'Failed');
      expect((await login(j, confirmed.username, confirmed.password)).status).toBe(200);
      // an account without an address has nothing to confirm, the seeded administrator among them
      expect((await login(j, addressless.username, addressless.password)).status).toBe(200);
      expect((await login(j, 'admin', ADMIN_PASSWORD)).status).toBe(200);
    } finally {
      await admin.call(ops.updateInstance, { body: { requireConfirmedEmail: false } });
    }
    expect((await login(j, u.username, u.password)).status).toBe(200);
  });
});

describe('lockout after repeated failures', () => {
  let j: TestJudge;
  const clock = new ManualClock();
  beforeAll(async () => {
    j = await TestJudge.start({ clock });
  });
  afterAll(() => j.stop());

  it('counts only consecutive failures', async () => {
    const u = await j.user('careless-user');
    for (let i = 0; i < 9; i++) expectProblem(await login(j, u.username, 'wrong password'), 401, 'unauthenticated', 'Failed');
    expect((await login(j, u.username, u.password)).status).toBe(200);
    for (let i = 0; i < 9; i++) expectProblem(await login(j, u.username, 'wrong password'), 401, 'unauthenticated', 'Failed');
    expect((await login(j, u.username, u.password)).status).toBe(200);
  });

  it('counts failures that arrive in parallel: 10 at once lock the account', async () => {
    const u = await j.user('parallel-target');
    const guesses = await Promise.all(Array.from({ length: 10 }, (_, i) => login(j, u.username, `parallel-guess-${i}`)));
    for (const g of guesses) expectProblem(g, 401, 'unauthenticated', 'Failed');
    expectProblem(await login(j, u.username, u.password), 401, 'unauthenticated', 'LockedOut');
    clock.advance(15 * 60 + 1);
    expect((await login(j, u.username, u.password)).status).toBe(200);
  });

  it('locks the account after 10 failures for 15 minutes, even against the right password', async () => {
    const u = await j.user('attacked-user');
    const held = await login(j, u.username, u.password);
    expect(held.status).toBe(200);
    for (let i = 0; i < 10; i++) expectProblem(await login(j, u.username, 'guess-password-' + i), 401, 'unauthenticated', 'Failed');
    const sessions = (await j.count('sessions'));
    expectProblem(await login(j, u.username, u.password), 401, 'unauthenticated', 'LockedOut');
    expectProblem(await login(j, u.username, 'guess again'), 401, 'unauthenticated', 'LockedOut');
    expect((await j.count('sessions'))).toBe(sessions);

    clock.advance(14 * 60);
    expectProblem(await login(j, u.username, u.password), 401, 'unauthenticated', 'LockedOut');
    clock.advance(61);
    const back = await login(j, u.username, u.password);
    expect(back.status, back.text).toBe(200);
    expect((await req(j, 'GET', '/account', { token: back.body.accessToken })).body.userId).toBe(u.id);
    // an unlocked account starts counting again from zero
    expectProblem(await login(j, u.username, 'wrong password'), 401, 'unauthenticated', 'Failed');
    expect((await login(j, u.username, u.password)).status).toBe(200);
  });
});

describe('lockout against guesses in flight', () => {
  let j: TestJudge;
  beforeAll(async () => {
    // hashing slow enough that many guesses are in flight at once
    j = await TestJudge.start({ config: { auth: { argon2Iterations: 8 } } });
  });
  afterAll(() => j.stop());

  it('counts every one of many simultaneous wrong guesses: exactly ten fail, the rest meet the lock', async () => {
    const u = await j.user('parallel-target-2');
    const attempts = await Promise.all(Array.from({ length: 30 }, (_, i) => login(j, u.username, `guess-${i}`)));
    const details = attempts.map((a) => a.body.detail);
    expect(details.every((d) => d === 'Failed' || d === 'LockedOut')).toBe(true);
    // a lost update would let more than ten guesses through before the lock
    expect(details.filter((d) => d === 'Failed').length).toBe(10);
    expectProblem(await login(j, u.username, u.password), 401, 'unauthenticated', 'LockedOut');
    expect((await j.rows('sessions')).filter((r) => r.userId === u.id)).toEqual([]);
  });
});

describe('login rate limit per address', () => {
  let j: TestJudge;
  beforeAll(async () => {
    j = await TestJudge.start({ config: { auth: { loginAttemptsPerMinute: 3 } } });
  });
  afterAll(() => j.stop());

  it('answers 429 rate_limited with Retry-After once the address spent its attempts', async () => {
    for (let i = 0; i < 3; i++) expectProblem(await login(j, 'admin', 'wrong password'), 401, 'unauthenticated', 'Failed');
    const sessions = (await j.count('sessions'));
    const r = await login(j, 'admin', ADMIN_PASSWORD);
    expectProblem(r, 429, 'rate_limited');
    const retry = Number(r.headers.get('retry-after'));
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect((await j.count('sessions'))).toBe(sessions);
    // other endpoints are not held back by the sign-in limit
    expect((await req(j, 'GET', '/health')).status).toBe(200);
  });
});
