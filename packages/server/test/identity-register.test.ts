import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, TestJudge } from './harness.js';
import { req, expectProblem, login } from './support/identity.js';

/**
 * Identity over real HTTP (decisions §2, §3): registering an account. Shared helpers in
 * support/identity.ts.
 */

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
    const before = (await j.count('users'));
    const r = await req(j, 'POST', '/identity/register', { body: { email: 'closed@example.com', password } });
    expectProblem(r, 403, 'registration.closed');
    expect((await j.count('users'))).toBe(before);
    expectProblem(await login(j, 'closed@example.com', password), 401, 'unauthenticated', 'Failed');
  });

  it('opens with localRegistrationEnabled; the account signs in by email and by its derived login', async () => {
    const settings = await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: true } });
    expect(settings.localRegistrationEnabled).toBe(true);
    const before = (await j.count('users'));
    const r = await req(j, 'POST', '/identity/register', { body: { email: 'alice.smith@example.com', password } });
    expect(r.status, r.text).toBe(204);
    expect(r.text).toBe('');
    expect((await j.count('users'))).toBe(before + 1);

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
    const before = (await j.count('users'));
    const r = await req(j, 'POST', '/identity/register', { body: { email: 'Alice.Smith@EXAMPLE.com', password: 'another password 1' } });
    expectProblem(r, 409, 'user.email.taken');
    expect((await j.count('users'))).toBe(before);
  });

  it('refuses a taken username with 409 and creates nothing', async () => {
    const before = (await j.count('users'));
    for (const username of ['admin', 'ALICE.smith']) {
      const r = await req(j, 'POST', '/identity/register', { body: { email: `fresh-${username}@example.com`, password, username } });
      expectProblem(r, 409, 'user.username.taken');
    }
    expect((await j.count('users'))).toBe(before);
    expectProblem(await login(j, 'fresh-admin@example.com', password), 401, 'unauthenticated', 'Failed');
  });

  it('refuses a password under 10 characters with 422 naming the member', async () => {
    const before = (await j.count('users'));
    const r = await req(j, 'POST', '/identity/register', { body: { email: 'short@example.com', password: '123456789' } });
    expectProblem(r, 422, 'validation_failed');
    expect(r.body.errors).toHaveProperty('password');
    expect(r.body.errors.password.length).toBeGreaterThan(0);
    expect((await j.count('users'))).toBe(before);
    // exactly 10 is enough
    expect((await req(j, 'POST', '/identity/register', { body: { email: 'ten@example.com', password: '1234567890' } })).status).toBe(204);
    expect((await j.count('users'))).toBe(before + 1);
  });

  it('refuses members of the wrong type, missing members and a bad address with 422', async () => {
    const before = (await j.count('users'));
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
    expect((await j.count('users'))).toBe(before);
  });

  it('closes again when switched off', async () => {
    await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: false } });
    const before = (await j.count('users'));
    expectProblem(await req(j, 'POST', '/identity/register', { body: { email: 'late@example.com', password } }), 403, 'registration.closed');
    expect((await j.count('users'))).toBe(before);
  });
});
