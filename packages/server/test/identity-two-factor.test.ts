import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ops, type TwoFactorState } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { Secret, TOTP } from 'otpauth';
import { rememberedMachines, users } from '../src/db/schema.js';
import { ManualClock, TestJudge } from './harness.js';
import { expectProblem, login, req, sessionCookie, type RawResponse } from './support/identity.js';
import { tableSnapshot } from './support/db-snapshot.js';

/**
 * Two-factor sign-in (decisions §4), with real TOTP codes computed here from the shared key the
 * judge hands out, on a clock the test moves: enrolment, sign-in with a code, with a recovery code
 * (then used up), a wrong or replayed code, a remembered browser, turning it off, and the
 * instance's rule that withholds chosen permissions from accounts without it.
 */

const clock = new ManualClock();
let j: TestJudge;
let admin: JudgeClient;
let n = 0;

beforeAll(async () => {
  j = await TestJudge.start({ clock });
  admin = await j.admin();
  await admin.call(ops.updateInstance, { body: { name: 'Lab judge' } });
  await admin.call(ops.createRole, { body: { name: 'User manager', permissions: ['user:read:all', 'user:update'] } });
  await admin.call(ops.createRole, { body: { name: 'Settings', permissions: ['instance:update'] } });
});
afterAll(() => j?.stop());

const codeAt = (key: string, at = clock.now()) => new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at.getTime() });

/** A code of none of the steps a sign-in now takes (this one and one either side). */
function wrongCode(key: string): string {
  const near = [-30_000, 0, 30_000].map((d) => codeAt(key, new Date(clock.now().getTime() + d)));
  for (let c = 0; ; c++) {
    const code = String(c).padStart(6, '0');
    if (!near.includes(code)) return code;
  }
}

/** A new code: the clock moves to the next 30-second step, as a person waits for their app's next code. */
function nextCode(key: string): string {
  clock.advance(30);
  return codeAt(key);
}

async function account() {
  const u = await j.user(`second${++n}`);
  return { ...u, client: await j.signIn(u) };
}

/** An account with two-factor sign-in on: its key and its ten recovery codes. */
async function enrolled() {
  const u = await account();
  const first = await u.client.call(ops.manageTwoFactor, { body: {} });
  const on = await u.client.call(ops.manageTwoFactor, { body: { enable: true, twoFactorCode: nextCode(first.sharedKey) } });
  return { ...u, key: first.sharedKey, recoveryCodes: on.recoveryCodes };
}

const withCode = (u: { username: string; password: string }, second: Record<string, string>, query = '', cookie?: string) =>
  req(j, 'POST', `/identity/login${query}`, { body: { email: u.username, password: u.password, ...second }, headers: cookie ? { cookie } : {} });

const expectRefused = (r: RawResponse, detail: string) => {
  expect(r.status, r.text).toBe(401);
  expect(r.body.detail).toBe(detail);
};

describe('enrolment', () => {
  it('hands out a key and its otpauth URI, and turns on only with a code of that key; ten recovery codes come once', async () => {
    const u = await account();
    const first = await u.client.call(ops.manageTwoFactor, { body: {} });
    expect(first).toMatchObject({ isTwoFactorEnabled: false, recoveryCodesLeft: 0, recoveryCodes: [], isMachineRemembered: false, required: false });
    expect(first.sharedKey).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(first.authenticatorUri!);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(first.sharedKey);
    expect(uri.searchParams.get('issuer')).toBe('Lab judge');
    expect(decodeURIComponent(uri.pathname)).toContain(u.username);
    // asking again keeps the key: the app was set up with it
    expect((await u.client.call(ops.manageTwoFactor, { body: {} })).sharedKey).toBe(first.sharedKey);

    const r = await req(j, 'POST', '/identity/manage/2fa', { token: u.client.accessToken!, body: { enable: true } });
    expectProblem(r, 422, 'twoFactor.code.required');
    expectProblem(await req(j, 'POST', '/identity/manage/2fa', { token: u.client.accessToken!, body: { enable: true, twoFactorCode: wrongCode(first.sharedKey) } }), 422, 'twoFactor.code.invalid');
    expectProblem(await req(j, 'POST', '/identity/manage/2fa', { token: u.client.accessToken!, body: { enable: true, resetSharedKey: true, twoFactorCode: codeAt(first.sharedKey) } }), 422, 'twoFactor.resetAndEnable');
    expect((await u.client.call(ops.manageTwoFactor, { body: {} })).isTwoFactorEnabled).toBe(false);

    const on = await u.client.call(ops.manageTwoFactor, { body: { enable: true, twoFactorCode: nextCode(first.sharedKey) } });
    expect(on).toMatchObject({ isTwoFactorEnabled: true, recoveryCodesLeft: 10, sharedKey: '' });
    expect(on.authenticatorUri).toBeUndefined();
    expect(on.recoveryCodes).toHaveLength(10);
    expect(new Set(on.recoveryCodes).size).toBe(10);
    const later = await u.client.call(ops.manageTwoFactor, { body: {} });
    expect(later).toMatchObject({ isTwoFactorEnabled: true, recoveryCodesLeft: 10, recoveryCodes: [], sharedKey: '' });

    // stored: the key, and only hashes of the recovery codes
    const [row] = await j.app.deps.tx.read((q) => q.select().from(users).where(eq(users.id, u.id)));
    expect(row!.recoveryCodes).toHaveLength(10);
    for (const c of on.recoveryCodes) expect(JSON.stringify(row)).not.toContain(c.replace(/-/g, ''));
    // staff see that it is on
    expect((await admin.call(ops.getManagedUser, { params: { id: u.id } })).twoFactorEnabled).toBe(true);
  });

  it('a code taken to turn it on does not sign in again (no replay within its window)', async () => {
    const u = await account();
    const { sharedKey } = await u.client.call(ops.manageTwoFactor, { body: {} });
    const code = nextCode(sharedKey);
    await u.client.call(ops.manageTwoFactor, { body: { enable: true, twoFactorCode: code } });
    expectRefused(await withCode(u, { twoFactorCode: code }), 'Failed');
  });

  it('needs a signed-in caller, and bad input changes nothing', async () => {
    expect((await req(j, 'POST', '/identity/manage/2fa', { body: {} })).status).toBe(401);
    const u = await account();
    await u.client.call(ops.manageTwoFactor, { body: {} });
    const before = await tableSnapshot(j, [users]);
    expectProblem(await req(j, 'POST', '/identity/manage/2fa', { token: u.client.accessToken!, body: { enable: 'yes' } }), 422, 'validation_failed');
    expectProblem(await req(j, 'POST', '/identity/manage/2fa', { token: u.client.accessToken!, body: { enable: true, twoFactorCode: 'x'.repeat(40) } }), 422, 'validation_failed');
    expect(await tableSnapshot(j, [users])).toEqual(before);
  });
});

describe('signing in', () => {
  it('asks for the code after the right password, and signs in with a right one', async () => {
    const u = await enrolled();
    expectRefused(await login(j, u.username, u.password), 'RequiresTwoFactor');
    // the wrong password still says Failed: the second factor is asked only of the right one
    expectRefused(await login(j, u.username, 'not the password at all'), 'Failed');
    const r = await withCode(u, { twoFactorCode: nextCode(u.key) });
    expect(r.status, r.text).toBe(200);
    expect(r.body.accessToken).toEqual(expect.any(String));
  });

  it('refuses a wrong code as a failed sign-in, and a used code the second time', async () => {
    const u = await enrolled();
    const code = nextCode(u.key);
    expectRefused(await withCode(u, { twoFactorCode: wrongCode(u.key) }), 'Failed');
    const [row] = await j.app.deps.tx.read((q) => q.select().from(users).where(eq(users.id, u.id)));
    expect(row!.failedLogins).toBe(1);
    expect((await withCode(u, { twoFactorCode: code })).status).toBe(200);
    expectRefused(await withCode(u, { twoFactorCode: code }), 'Failed');
  });

  it('takes a code of the step before (a phone a little behind), not one of two steps before', async () => {
    const u = await enrolled();
    clock.advance(60);
    expect((await withCode(u, { twoFactorCode: codeAt(u.key, new Date(clock.now().getTime() - 30_000)) })).status).toBe(200);
    clock.advance(60);
    expectRefused(await withCode(u, { twoFactorCode: codeAt(u.key, new Date(clock.now().getTime() - 60_000)) }), 'Failed');
  });

  it('locks the account after ten wrong codes, as after ten wrong passwords', async () => {
    const u = await enrolled();
    for (let i = 0; i < 10; i++) expectRefused(await withCode(u, { twoFactorCode: wrongCode(u.key) }), 'Failed');
    expectRefused(await withCode(u, { twoFactorCode: nextCode(u.key) }), 'LockedOut');
  });

  it('signs in with a recovery code once; the codes left are counted and can be made anew', async () => {
    const u = await enrolled();
    const [first, second] = u.recoveryCodes;
    expect((await withCode(u, { twoFactorRecoveryCode: first!.toLowerCase() })).status).toBe(200);
    expectRefused(await withCode(u, { twoFactorRecoveryCode: first! }), 'Failed');
    expect((await u.client.call(ops.manageTwoFactor, { body: {} })).recoveryCodesLeft).toBe(9);
    const fresh = await u.client.call(ops.manageTwoFactor, { body: { resetRecoveryCodes: true } });
    expect(fresh.recoveryCodes).toHaveLength(10);
    expect(fresh.recoveryCodesLeft).toBe(10);
    expectRefused(await withCode(u, { twoFactorRecoveryCode: second! }), 'Failed');
    expect((await withCode(u, { twoFactorRecoveryCode: fresh.recoveryCodes[0]! })).status).toBe(200);
  });

  it('remembers a browser after a persistent sign-in with a code, until it is forgotten', async () => {
    const u = await enrolled();
    const r = await withCode(u, { twoFactorCode: nextCode(u.key) }, '?useCookies=true');
    expect(r.status, r.text).toBe(200);
    const line = r.headers.getSetCookie().find((c) => c.startsWith('judge_2fa='));
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    const machine = line!.split(';')[0]!;
    const session = sessionCookie(r).value;

    // the remembered browser signs in with the password alone; another browser is asked
    expect((await req(j, 'POST', '/identity/login?useCookies=true', { body: { email: u.username, password: u.password }, headers: { cookie: machine } })).status).toBe(200);
    expectRefused(await login(j, u.username, u.password, '?useCookies=true'), 'RequiresTwoFactor');
    // the cookie is this account's only
    const other = await enrolled();
    expectRefused(await req(j, 'POST', '/identity/login', { body: { email: other.username, password: other.password }, headers: { cookie: machine } }), 'RequiresTwoFactor');
    // a session-only sign-in with a code does not remember the browser
    const brief = await withCode(u, { twoFactorCode: nextCode(u.key) }, '?useSessionCookies=true');
    expect(brief.headers.getSetCookie().some((c) => c.startsWith('judge_2fa='))).toBe(false);

    const both = `judge_session=${session}; ${machine}`;
    const seen = await req(j, 'POST', '/identity/manage/2fa', { body: {}, headers: { cookie: both, origin: new URL(j.url).origin } });
    expect((seen.body as TwoFactorState).isMachineRemembered).toBe(true);
    const forgot = await req(j, 'POST', '/identity/manage/2fa', { body: { forgetMachine: true }, headers: { cookie: both, origin: new URL(j.url).origin } });
    expect((forgot.body as TwoFactorState).isMachineRemembered).toBe(false);
    expect(forgot.headers.getSetCookie().find((c) => c.startsWith('judge_2fa='))).toMatch(/^judge_2fa=;/);
    expectRefused(await req(j, 'POST', '/identity/login', { body: { email: u.username, password: u.password }, headers: { cookie: machine } }), 'RequiresTwoFactor');
  });
});

describe('turning it off', () => {
  it('by its owner: the password alone signs in again, and remembered browsers are forgotten', async () => {
    const u = await enrolled();
    await withCode(u, { twoFactorCode: nextCode(u.key) }, '?useCookies=true');
    expect(await j.app.deps.tx.read((q) => q.select().from(rememberedMachines).where(eq(rememberedMachines.userId, u.id)))).toHaveLength(1);
    const off = await u.client.call(ops.manageTwoFactor, { body: { enable: false } });
    expect(off).toMatchObject({ isTwoFactorEnabled: false });
    expect(off.sharedKey).toBe(u.key);
    expect((await login(j, u.username, u.password)).status).toBe(200);
    expect(await j.app.deps.tx.read((q) => q.select().from(rememberedMachines).where(eq(rememberedMachines.userId, u.id)))).toHaveLength(0);
  });

  it('a new key turns it off until a code of the new key turns it on; codes of the old key no longer work', async () => {
    const u = await enrolled();
    const reset = await u.client.call(ops.manageTwoFactor, { body: { resetSharedKey: true } });
    expect(reset.isTwoFactorEnabled).toBe(false);
    expect(reset.sharedKey).not.toBe(u.key);
    expectProblem(await req(j, 'POST', '/identity/manage/2fa', { token: u.client.accessToken!, body: { enable: true, twoFactorCode: nextCode(u.key) } }), 422, 'twoFactor.code.invalid');
    const on = await u.client.call(ops.manageTwoFactor, { body: { enable: true, twoFactorCode: nextCode(reset.sharedKey) } });
    // the recovery codes were not used up: they stay
    expect(on).toMatchObject({ isTwoFactorEnabled: true, recoveryCodes: [], recoveryCodesLeft: 10 });
    expect((await withCode(u, { twoFactorCode: nextCode(reset.sharedKey) })).status).toBe(200);
  });

  it('by staff with user:update, for an owner who lost everything; not by the owner through PUT /users', async () => {
    const u = await enrolled();
    const staff = await account();
    await j.grant(staff.id, 'User manager');
    expectProblem(await req(j, 'PUT', `/users/${u.id}`, { token: u.client.accessToken!, body: { twoFactorEnabled: false } }), 403, 'forbidden');
    expectProblem(await req(j, 'PUT', `/users/${u.id}`, { token: staff.client.accessToken!, body: { twoFactorEnabled: true } }), 422, 'validation_failed');
    const view = await admin.call(ops.updateUser, { params: { id: u.id }, body: { twoFactorEnabled: false } });
    expect(view.twoFactorEnabled).toBe(false);
    expect((await login(j, u.username, u.password)).status).toBe(200);
    // the key went too: turning it on again starts from a new one
    expect((await u.client.call(ops.manageTwoFactor, { body: {} })).sharedKey).not.toBe(u.key);
  });
});

describe('the instance requires it for chosen permissions', () => {
  it('withholds those permissions until the holder turns it on, and says why', async () => {
    const teacher = await account();
    await j.grant(teacher.id, 'User manager');
    await teacher.client.call(ops.listManagedUsers, { query: {} });
    // set by one who holds none of those keys (the administrator holds every key: see the next test)
    const setter = await account();
    await j.grant(setter.id, 'Settings');
    await setter.client.call(ops.updateInstance, { body: { requireTwoFactorFor: ['user:update', 'user:read:all', 'user:update'] } });
    expect((await admin.call(ops.getInstance)).requireTwoFactorFor).toEqual(['user:read:all', 'user:update']);
    try {
      const r = await req(j, 'GET', '/users/managed', { token: teacher.client.accessToken! });
      expectProblem(r, 403, 'forbidden');
      expect(r.body.detail).toContain('two-factor sign-in');
      expect((await teacher.client.call(ops.manageTwoFactor, { body: {} })).required).toBe(true);
      const { sharedKey } = await teacher.client.call(ops.manageTwoFactor, { body: {} });
      await teacher.client.call(ops.manageTwoFactor, { body: { enable: true, twoFactorCode: nextCode(sharedKey) } });
      await teacher.client.call(ops.listManagedUsers, { query: {} });
      // someone without those permissions is not asked
      const pupil = await account();
      expect((await pupil.client.call(ops.manageTwoFactor, { body: {} })).required).toBe(false);
    } finally {
      await setter.client.call(ops.updateInstance, { body: { requireTwoFactorFor: [] } });
    }
  });

  it('refuses a rule that would take a permission from the administrator who sets it, and an unknown key', async () => {
    const before = await admin.call(ops.getInstance);
    expectProblem(await req(j, 'PUT', '/instance', { token: admin.accessToken!, body: { requireTwoFactorFor: ['instance:update'] } }), 422, 'instance.twoFactor.enableFirst');
    expectProblem(await req(j, 'PUT', '/instance', { token: admin.accessToken!, body: { requireTwoFactorFor: ['no:such:key'] } }), 422, 'validation_failed');
    expect((await admin.call(ops.getInstance)).requireTwoFactorFor).toEqual(before.requireTwoFactorFor);
  });
});

describe('a remembered browser', () => {
  // last: the clock moves a month, past every token issued before
  it('a remembered browser lapses after auth.rememberMachineDays', async () => {
    const u = await enrolled();
    const r = await withCode(u, { twoFactorCode: nextCode(u.key) }, '?useCookies=true');
    const machine = r.headers.getSetCookie().find((c) => c.startsWith('judge_2fa='))!.split(';')[0]!;
    clock.advance(31 * 86_400);
    expectRefused(await req(j, 'POST', '/identity/login', { body: { email: u.username, password: u.password }, headers: { cookie: machine } }), 'RequiresTwoFactor');
    // and the retention worker removes its row
    expect((await j.app.retention.tick(clock.now())).rememberedMachines).toBeGreaterThanOrEqual(1);
    expect(await j.app.deps.tx.read((q) => q.select().from(rememberedMachines).where(eq(rememberedMachines.userId, u.id)))).toHaveLength(0);
  });
});
