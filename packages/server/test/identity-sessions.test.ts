import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { ADMIN_PASSWORD, TestJudge } from './harness.js';
import { SECRET, req, expectProblem, login, sessionCookie, attrs } from './support/identity.js';
import { eq } from 'drizzle-orm';
import { users } from '../src/db/schema.js';

/**
 * Identity over real HTTP (decisions §2, §3): refreshing and ending sessions, the managed account
 * info, sessions across a restart, and the log file. Shared helpers in support/identity.ts.
 */

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
    await j.app.deps.tx.write(async (q) => {
      await q.update(users).set({ emailConfirmed: true }).where(eq(users.id, u.id));
    });
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
      const stored = await first.query<{ hash: string }>('SELECT hash FROM session_secrets');
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
