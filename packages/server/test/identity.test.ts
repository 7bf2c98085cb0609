import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, ManualClock, raw, TestJudge } from './harness.js';

type RawResponse = Awaited<ReturnType<typeof raw>>;

const SECRET = /^[A-Za-z0-9_-]{43}$/; // 256 bits in base64url

/** Sends a request under /api/v1 and insists the server never answered 5xx. */
async function req(
  j: TestJudge,
  method: string,
  path: string,
  opts: { body?: unknown; token?: string; cookie?: string; origin?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.body !== undefined) headers['content-type'] ??= 'application/json';
  if (opts.cookie) headers.cookie = `judge_session=${opts.cookie}`;
  if (opts.origin) headers.origin = opts.origin;
  const r = await raw(`${j.url}/api/v1${path}`, {
    method,
    headers,
    ...(opts.body !== undefined ? { body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) } : {}),
    ...(opts.token ? { token: opts.token } : {}),
  });
  expect(r.status, `${method} ${path} answered ${r.status}: ${r.text}`).toBeLessThan(500);
  return r;
}

function expectProblem(r: RawResponse, status: number, code: string, detail?: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body).toMatchObject({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String), code });
  if (detail !== undefined) expect(r.body.detail).toBe(detail);
}

const login = (j: TestJudge, email: string, password: string, query = '') => req(j, 'POST', `/identity/login${query}`, { body: { email, password } });

/** The `judge_session` Set-Cookie line of a response. */
function sessionCookie(r: RawResponse): { value: string; line: string } {
  const line = r.headers.getSetCookie().find((c) => c.startsWith('judge_session='));
  expect(line, 'a judge_session cookie is set').toBeDefined();
  return { value: line!.slice('judge_session='.length).split(';')[0]!, line: line! };
}

const attrs = (line: string) =>
  line
    .split(';')
    .slice(1)
    .map((a) => a.trim().toLowerCase());

describe('POST /identity/register', () => {
  let j: TestJudge;
  let admin: JudgeClient;
  const password = 'correct horse battery';
  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
  });
  afterAll(() => j.stop());

  it('is closed by default and creates nothing', async () => {
    const before = j.count('users');
    const r = await req(j, 'POST', '/identity/register', { body: { email: 'closed@example.com', password } });
    expectProblem(r, 403, 'registration.closed');
    expect(j.count('users')).toBe(before);
    expectProblem(await login(j, 'closed@example.com', password), 401, 'unauthenticated', 'Failed');
  });

  it('opens with localRegistrationEnabled; the account signs in by email and by its derived login', async () => {
    const settings = await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: true } });
    expect(settings.localRegistrationEnabled).toBe(true);
    const before = j.count('users');
    const r = await req(j, 'POST', '/identity/register', { body: { email: 'alice.smith@example.com', password } });
    expect(r.status, r.text).toBe(204);
    expect(r.text).toBe('');
    expect(j.count('users')).toBe(before + 1);

    const byEmail = await login(j, 'alice.smith@example.com', password);
    expect(byEmail.status, byEmail.text).toBe(200);
    const account = await req(j, 'GET', '/account', { token: byEmail.body.accessToken });
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ username: 'alice.smith', email: 'alice.smith@example.com', isLocal: true });

    const byLogin = await login(j, 'alice.smith', password);
    expect(byLogin.status, byLogin.text).toBe(200);
    expect((await req(j, 'GET', '/account', { token: byLogin.body.accessToken })).body.userId).toBe(account.body.userId);

    // the wrong password for the new account is refused like any other
    expectProblem(await login(j, 'alice.smith', 'not the password'), 401, 'unauthenticated', 'Failed');
  });

  it('numbers a derived login that is taken', async () => {
    const r = await req(j, 'POST', '/identity/register', { body: { email: 'admin@example.net', password } });
    expect(r.status, r.text).toBe(204);
    const t = await login(j, 'admin2', password);
    expect(t.status, t.text).toBe(200);
    expect((await req(j, 'GET', '/account', { token: t.body.accessToken })).body).toMatchObject({ username: 'admin2', email: 'admin@example.net' });
    // the real admin is untouched
    expect((await login(j, 'admin', ADMIN_PASSWORD)).status).toBe(200);
  });

  it('refuses a taken email (any case) with 409 and creates nothing', async () => {
    const before = j.count('users');
    const r = await req(j, 'POST', '/identity/register', { body: { email: 'Alice.Smith@EXAMPLE.com', password: 'another password 1' } });
    expectProblem(r, 409, 'user.email.taken');
    expect(j.count('users')).toBe(before);
  });

  it('refuses a taken username with 409 and creates nothing', async () => {
    const before = j.count('users');
    for (const username of ['admin', 'ALICE.smith']) {
      const r = await req(j, 'POST', '/identity/register', { body: { email: `fresh-${username}@example.com`, password, username } });
      expectProblem(r, 409, 'user.username.taken');
    }
    expect(j.count('users')).toBe(before);
    expectProblem(await login(j, 'fresh-admin@example.com', password), 401, 'unauthenticated', 'Failed');
  });

  it('refuses a password under 10 characters with 422 naming the member', async () => {
    const before = j.count('users');
    const r = await req(j, 'POST', '/identity/register', { body: { email: 'short@example.com', password: '123456789' } });
    expectProblem(r, 422, 'validation_failed');
    expect(r.body.errors).toHaveProperty('password');
    expect(r.body.errors.password.length).toBeGreaterThan(0);
    expect(j.count('users')).toBe(before);
    // exactly 10 is enough
    expect((await req(j, 'POST', '/identity/register', { body: { email: 'ten@example.com', password: '1234567890' } })).status).toBe(204);
    expect(j.count('users')).toBe(before + 1);
  });

  it('refuses members of the wrong type, missing members and a bad address with 422', async () => {
    const before = j.count('users');
    const wrong = await req(j, 'POST', '/identity/register', { body: { email: 42, password: ['a long password'] } });
    expectProblem(wrong, 422, 'validation_failed');
    expect(Object.keys(wrong.body.errors)).toEqual(expect.arrayContaining(['email', 'password']));

    const missing = await req(j, 'POST', '/identity/register', { body: {} });
    expectProblem(missing, 422, 'validation_failed');
    expect(Object.keys(missing.body.errors)).toEqual(expect.arrayContaining(['email', 'password']));

    const noBody = await req(j, 'POST', '/identity/register');
    expectProblem(noBody, 422, 'validation_failed');

    const badEmail = await req(j, 'POST', '/identity/register', { body: { email: 'not-an-address', password } });
    expectProblem(badEmail, 422, 'validation_failed');
    expect(badEmail.body.errors).toHaveProperty('email');

    const badUsername = await req(j, 'POST', '/identity/register', { body: { email: 'u@example.com', password, username: 'has space' } });
    expectProblem(badUsername, 422, 'validation_failed');
    expect(badUsername.body.errors).toHaveProperty('username');
    expect(j.count('users')).toBe(before);
  });

  it('closes again when switched off', async () => {
    await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: false } });
    const before = j.count('users');
    expectProblem(await req(j, 'POST', '/identity/register', { body: { email: 'late@example.com', password } }), 403, 'registration.closed');
    expect(j.count('users')).toBe(before);
  });
});

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
    const sessions = j.count('sessions');
    const r = await login(j, u.username, u.password);
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body).toEqual({ tokenType: 'Bearer', accessToken: expect.stringMatching(SECRET), expiresIn: 3600, refreshToken: expect.stringMatching(SECRET) });
    expect(r.body.accessToken).not.toBe(r.body.refreshToken);
    expect(r.headers.getSetCookie().filter((c) => c.startsWith('judge_session='))).toEqual([]);
    expect(j.count('sessions')).toBe(sessions + 1);
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
    const sessions = j.count('sessions');
    expectProblem(await login(j, u.username, `${u.password}x`), 401, 'unauthenticated', 'Failed');
    expectProblem(await login(j, 'nobody-at-all', 'whatever password'), 401, 'unauthenticated', 'Failed');
    expectProblem(await login(j, 'nobody@example.com', 'whatever password'), 401, 'unauthenticated', 'Failed');
    expect(j.count('sessions')).toBe(sessions);
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
    expectProblem(await login(j, u.username, 'wrong password'), 401, 'unauthenticated', 'LockedOut');
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
    // no confirmation mail flow yet: mark the second address confirmed in the real database
    j.app.deps.sqlite.prepare('UPDATE users SET email_confirmed = 1 WHERE id = ?').run(confirmed.id);
    await admin.call(ops.updateInstance, { body: { requireConfirmedEmail: true } });
    try {
      const sessions = j.count('sessions');
      expectProblem(await login(j, u.username, u.password), 401, 'unauthenticated', 'NotAllowed');
      expectProblem(await login(j, 'unconfirmed@example.org', u.password), 401, 'unauthenticated', 'NotAllowed');
      expect(j.count('sessions')).toBe(sessions);
      // the wrong password is still just Failed
      expectProblem(await login(j, u.username, 'wrong password'), 401, 'unauthenticated', 'Failed');
      expect((await login(j, confirmed.username, confirmed.password)).status).toBe(200);
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
    const sessions = j.count('sessions');
    expectProblem(await login(j, u.username, u.password), 401, 'unauthenticated', 'LockedOut');
    expectProblem(await login(j, u.username, 'guess again'), 401, 'unauthenticated', 'LockedOut');
    expect(j.count('sessions')).toBe(sessions);

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
    expect(j.app.deps.sqlite.prepare('SELECT count(*) AS n FROM sessions WHERE user_id = ?').get(u.id)).toEqual({ n: 0 });
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
    const sessions = j.count('sessions');
    const r = await login(j, 'admin', ADMIN_PASSWORD);
    expectProblem(r, 429, 'rate_limited');
    const retry = Number(r.headers.get('retry-after'));
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(j.count('sessions')).toBe(sessions);
    // other endpoints are not held back by the sign-in limit
    expect((await req(j, 'GET', '/health')).status).toBe(200);
  });
});

describe('POST /identity/refresh', () => {
  let j: TestJudge;
  beforeAll(async () => {
    j = await TestJudge.start();
  });
  afterAll(() => j.stop());

  it('exchanges the refresh token for a new working pair and drops the old access token', async () => {
    const u = await j.user('refresher');
    const first = (await login(j, u.username, u.password)).body;
    const r = await req(j, 'POST', '/identity/refresh', { body: { refreshToken: first.refreshToken } });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ tokenType: 'Bearer', accessToken: expect.stringMatching(SECRET), expiresIn: 3600, refreshToken: expect.stringMatching(SECRET) });
    expect(r.body.accessToken).not.toBe(first.accessToken);
    expect(r.body.refreshToken).not.toBe(first.refreshToken);
    expect((await req(j, 'GET', '/account', { token: r.body.accessToken })).body.userId).toBe(u.id);
    expectProblem(await req(j, 'GET', '/account', { token: first.accessToken }), 401, 'unauthenticated');
    // and the new refresh token rotates again
    const third = await req(j, 'POST', '/identity/refresh', { body: { refreshToken: r.body.refreshToken } });
    expect(third.status).toBe(200);
    expect((await req(j, 'GET', '/account', { token: third.body.accessToken })).status).toBe(200);
  });

  it('ends the whole session when a rotated refresh token comes back', async () => {
    const u = await j.user('victim');
    const first = (await login(j, u.username, u.password)).body;
    const other = (await login(j, u.username, u.password)).body; // another session of the same user
    const second = (await req(j, 'POST', '/identity/refresh', { body: { refreshToken: first.refreshToken } })).body;
    expect((await req(j, 'GET', '/account', { token: second.accessToken })).status).toBe(200);

    expectProblem(await req(j, 'POST', '/identity/refresh', { body: { refreshToken: first.refreshToken } }), 401, 'unauthenticated');
    expectProblem(await req(j, 'GET', '/account', { token: second.accessToken }), 401, 'unauthenticated');
    expectProblem(await req(j, 'POST', '/identity/refresh', { body: { refreshToken: second.refreshToken } }), 401, 'unauthenticated');
    // only that session ends
    expect((await req(j, 'GET', '/account', { token: other.accessToken })).status).toBe(200);
  });

  it('refuses a garbage token with 401, a refresh token as bearer with 401, and a missing member with 422', async () => {
    expectProblem(await req(j, 'POST', '/identity/refresh', { body: { refreshToken: 'garbage' } }), 401, 'unauthenticated');
    expectProblem(await req(j, 'POST', '/identity/refresh', { body: { refreshToken: 'A'.repeat(43) } }), 401, 'unauthenticated');
    const u = await j.user('mixer');
    const pair = (await login(j, u.username, u.password)).body;
    expectProblem(await req(j, 'GET', '/account', { token: pair.refreshToken }), 401, 'unauthenticated');
    // an access token is not a refresh token
    expectProblem(await req(j, 'POST', '/identity/refresh', { body: { refreshToken: pair.accessToken } }), 401, 'unauthenticated');
    const missing = await req(j, 'POST', '/identity/refresh', { body: {} });
    expectProblem(missing, 422, 'validation_failed');
    expect(missing.body.errors).toHaveProperty('refreshToken');
    expectProblem(await req(j, 'POST', '/identity/refresh', { body: { refreshToken: 12 } }), 422, 'validation_failed');
    // the pair is still good after all of that
    expect((await req(j, 'GET', '/account', { token: pair.accessToken })).status).toBe(200);
  });
});

describe('POST /identity/logout', () => {
  let j: TestJudge;
  beforeAll(async () => {
    j = await TestJudge.start();
  });
  afterAll(() => j.stop());

  it('ends a bearer session: 204, then its tokens sign nobody in; other sessions live on', async () => {
    const u = await j.user('leaver');
    const pair = (await login(j, u.username, u.password)).body;
    const other = (await login(j, u.username, u.password)).body;
    const r = await req(j, 'POST', '/identity/logout', { token: pair.accessToken });
    expect(r.status, r.text).toBe(204);
    expect(r.text).toBe('');
    expectProblem(await req(j, 'GET', '/account', { token: pair.accessToken }), 401, 'unauthenticated');
    expectProblem(await req(j, 'POST', '/identity/refresh', { body: { refreshToken: pair.refreshToken } }), 401, 'unauthenticated');
    expectProblem(await req(j, 'POST', '/identity/logout', { token: pair.accessToken }), 401, 'unauthenticated');
    expect((await req(j, 'GET', '/account', { token: other.accessToken })).status).toBe(200);
  });

  it('ends a cookie session: 204, the cookie is cleared and no longer works', async () => {
    const u = await j.user('cookie-leaver');
    const c = sessionCookie(await login(j, u.username, u.password, '?useCookies=true')).value;
    expect((await req(j, 'GET', '/account', { cookie: c })).status).toBe(200);
    const r = await req(j, 'POST', '/identity/logout', { cookie: c, origin: new URL(j.url).origin });
    expect(r.status, r.text).toBe(204);
    const cleared = sessionCookie(r);
    expect(cleared.value).toBe('');
    const expires = attrs(cleared.line).find((x) => x.startsWith('expires='));
    expect(expires, cleared.line).toBeDefined();
    expect(Date.parse(expires!.slice('expires='.length))).toBeLessThan(Date.now());
    expectProblem(await req(j, 'GET', '/account', { cookie: c }), 401, 'unauthenticated');
  });

  it('answers 401 without credentials or with bad ones', async () => {
    expectProblem(await req(j, 'POST', '/identity/logout'), 401, 'unauthenticated');
    expectProblem(await req(j, 'POST', '/identity/logout', { token: 'A'.repeat(43) }), 401, 'unauthenticated');
    expectProblem(await req(j, 'POST', '/identity/logout', { cookie: 'B'.repeat(43), origin: new URL(j.url).origin }), 401, 'unauthenticated');
  });
});

describe('GET /identity/manage/info', () => {
  let j: TestJudge;
  beforeAll(async () => {
    j = await TestJudge.start();
  });
  afterAll(() => j.stop());

  it("answers the caller's address and whether it is confirmed, by token and by cookie", async () => {
    const u = await j.user('info-user', { email: 'info.user@example.org' });
    const pair = (await login(j, u.username, u.password)).body;
    const r = await req(j, 'GET', '/identity/manage/info', { token: pair.accessToken });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ email: 'info.user@example.org', isEmailConfirmed: false });
    const c = sessionCookie(await login(j, u.username, u.password, '?useCookies=true')).value;
    expect((await req(j, 'GET', '/identity/manage/info', { cookie: c })).body).toEqual({ email: 'info.user@example.org', isEmailConfirmed: false });
    j.app.deps.sqlite.prepare('UPDATE users SET email_confirmed = 1 WHERE id = ?').run(u.id);
    expect((await req(j, 'GET', '/identity/manage/info', { token: pair.accessToken })).body).toEqual({ email: 'info.user@example.org', isEmailConfirmed: true });
  });

  it('answers 401 to an anonymous caller', async () => {
    expectProblem(await req(j, 'GET', '/identity/manage/info'), 401, 'unauthenticated');
    expectProblem(await req(j, 'GET', '/identity/manage/info', { token: 'C'.repeat(43) }), 401, 'unauthenticated');
  });
});

describe('across a restart', () => {
  it('keeps tokens and cookies working, while storing only their hashes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'judge-restart-'));
    try {
      const first = await TestJudge.start({ dataDir });
      const u = await first.user('restart-user');
      const pair = (await login(first, u.username, u.password)).body;
      const cookie = sessionCookie(await login(first, u.username, u.password, '?useCookies=true')).value;
      const stored = first.app.deps.sqlite.prepare('SELECT hash FROM session_secrets').all() as { hash: string }[];
      for (const s of stored) expect(s.hash).toMatch(/^[0-9a-f]{64}$/);
      for (const secret of [pair.accessToken, pair.refreshToken, cookie]) expect(stored.map((s) => s.hash)).not.toContain(secret);
      await first.stop();
      await expect(fetch(`${first.url}/api/v1/health`)).rejects.toThrow();

      const second = await TestJudge.start({ dataDir });
      try {
        expect((await req(second, 'GET', '/account', { token: pair.accessToken })).body.userId).toBe(u.id);
        expect((await req(second, 'GET', '/account', { cookie })).body.userId).toBe(u.id);
        const next = await req(second, 'POST', '/identity/refresh', { body: { refreshToken: pair.refreshToken } });
        expect(next.status, next.text).toBe(200);
        expect((await req(second, 'GET', '/account', { token: next.body.accessToken })).body.userId).toBe(u.id);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the log file', () => {
  it('never holds a password, token or cookie value', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'judge-log-'));
    try {
      const j = await TestJudge.start({ dataDir, config: { logLevel: 'trace' } });
      const secrets: string[] = [ADMIN_PASSWORD];
      const admin = await j.admin();
      secrets.push(admin.accessToken!, admin.refreshToken!);
      await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: true } });
      const regPassword = 'registered-secret-password';
      secrets.push(regPassword);
      expect((await req(j, 'POST', '/identity/register', { body: { email: 'logged@example.com', password: regPassword } })).status).toBe(204);
      const u = await j.user('log-user');
      secrets.push(u.password);
      const pair = (await login(j, u.username, u.password)).body;
      secrets.push(pair.accessToken, pair.refreshToken);
      const next = (await req(j, 'POST', '/identity/refresh', { body: { refreshToken: pair.refreshToken } })).body;
      secrets.push(next.accessToken, next.refreshToken);
      const cookie = sessionCookie(await login(j, 'logged@example.com', regPassword, '?useCookies=true')).value;
      secrets.push(cookie);
      const wrong = 'attempted-wrong-password';
      secrets.push(wrong);
      expect((await login(j, u.username, wrong)).status).toBe(401);
      expect((await req(j, 'GET', '/account', { cookie })).status).toBe(200);
      expect((await req(j, 'GET', '/account', { token: next.accessToken })).status).toBe(200);
      expect((await req(j, 'GET', '/account', { token: 'D'.repeat(43) })).status).toBe(401);
      secrets.push('D'.repeat(43));
      expect((await req(j, 'POST', '/identity/logout', { token: next.accessToken })).status).toBe(204);
      expect((await req(j, 'POST', '/identity/logout', { cookie, origin: new URL(j.url).origin })).status).toBe(204);
      await j.stop();

      const log = readFileSync(join(dataDir, 'logs', 'judge.log'), 'utf8');
      // the run was logged, so the absence below means something
      expect(log).toContain('/identity/login');
      expect(log).toContain('/identity/refresh');
      for (const s of secrets) {
        expect(s.length).toBeGreaterThanOrEqual(10);
        expect(log.includes(s), `the log holds a secret (${s.slice(0, 4)}…)`).toBe(false);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
