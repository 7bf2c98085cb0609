import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { defaultsPath } from '../src/config.js';
import { ADMIN_PASSWORD, TestJudge, type TestUser } from './harness.js';
import { expectProblem, login, req, type RawResponse } from './support/identity.js';

/**
 * Sign-in limits sized for a lab: a class behind one NAT address signs in within a minute,
 * while guessing stays blocked per account (lockout and a per-account failure budget) and per address
 * (a budget of failures across accounts). The servers here run with the shipped budgets
 * (config/server.json; the test that reads them checks they match), not the harness's raised ones.
 */

const SHIPPED = { auth: { loginAttemptsPerMinute: 300, loginFailuresPerMinute: 60, accountLoginFailuresPerMinute: 10 } };

async function accounts(admin: JudgeClient, prefix: string, n: number): Promise<TestUser[]> {
  const out: TestUser[] = [];
  for (let i = 0; i < n; i++) {
    const issued = await admin.call(ops.createUser, { body: { username: `${prefix}${i}` } });
    out.push({ id: issued.userId, username: issued.username, password: issued.password });
  }
  return out;
}

const from = (j: TestJudge, address: string, name: string, password: string) =>
  req(j, 'POST', '/identity/login', { body: { email: name, password }, headers: { 'x-forwarded-for': address } });

function expectRetryAfter(r: RawResponse, detail: RegExp): void {
  expectProblem(r, 429, 'rate_limited');
  expect(r.body.detail).toMatch(detail);
  const retry = Number(r.headers.get('retry-after'));
  expect(Number.isInteger(retry)).toBe(true);
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(60);
}

it('runs with the budgets the judge ships with', () => {
  const shipped = JSON.parse(readFileSync(defaultsPath(), 'utf8')) as { auth: Record<string, number> };
  expect(shipped.auth).toMatchObject(SHIPPED.auth);
});

/** A judge of its own with the shipped budgets, for each group: the limiters count in memory. */
function shippedJudge(more: { trustProxy?: boolean } = {}): { j: TestJudge; admin: JudgeClient } {
  const w = {} as { j: TestJudge; admin: JudgeClient };
  beforeAll(async () => {
    w.j = await TestJudge.start({ config: { ...SHIPPED, ...more } });
    w.admin = await w.j.admin();
  });
  afterAll(() => w.j.stop());
  return w;
}

describe('a class signing in from one address', () => {
  const w = shippedJudge();

  it('lets 30 accounts sign in within one minute, all at once, and a few typos among them change nothing', async () => {
    const students = await accounts(w.admin, 'lab-', 30);
    const typos = await Promise.all(students.slice(0, 5).map((s) => login(w.j, s.username, `${s.password}x`)));
    for (const r of typos) expectProblem(r, 401, 'unauthenticated', 'Failed');
    const sessions = (await w.j.count('sessions'));
    const signedIn = await Promise.all(students.map((s) => login(w.j, s.username, s.password)));
    expect(signedIn.map((r) => r.status)).toEqual(students.map(() => 200));
    expect((await w.j.count('sessions'))).toBe(sessions + 30);
  });

  it('refuses the 11th wrong password in a row for one account, and the right one after it', async () => {
    const [victim] = await accounts(w.admin, 'guessed-', 1);
    for (let i = 0; i < 10; i++) expectProblem(await login(w.j, victim!.username, `guess-${i}`), 401, 'unauthenticated', 'Failed');
    expectProblem(await login(w.j, victim!.username, 'guess-10'), 401, 'unauthenticated', 'LockedOut');
    const sessions = (await w.j.count('sessions'));
    expectProblem(await login(w.j, victim!.username, victim!.password), 401, 'unauthenticated', 'LockedOut');
    expect((await w.j.count('sessions'))).toBe(sessions);
  });
});

describe('failed sign-ins per address', () => {
  const w = shippedJudge();

  it('answers 429 with Retry-After once 60 guesses spread over accounts failed, for every account from that address', async () => {
    // nine guesses each: none of the accounts reaches the lockout, so only the address's budget stops them
    const targets = await accounts(w.admin, 'spread-', 7);
    const signedIn = await w.j.signIn(targets[6]!);
    let failed = 0;
    for (let i = 0; i < 9 && failed < 60; i++) {
      for (const t of targets.slice(0, 7)) {
        if (failed === 60) break;
        expectProblem(await login(w.j, t.username, `guess-${i}`), 401, 'unauthenticated', 'Failed');
        failed++;
      }
    }
    const sessions = (await w.j.count('sessions'));
    expectRetryAfter(await login(w.j, targets[0]!.username, 'guess-next'), /failed sign-ins for this address.*try again in \d+ s/);
    // a right password from the same address waits too: the address cannot tell guesser from student
    expectRetryAfter(await login(w.j, targets[1]!.username, targets[1]!.password), /this address/);
    // an unknown name costs the same
    expectRetryAfter(await login(w.j, 'nobody-here', 'whatever-password'), /this address/);
    expect((await w.j.count('sessions'))).toBe(sessions);
    expect((await w.j.query('SELECT count(*) AS n FROM users WHERE locked_until IS NOT NULL'))[0]).toEqual({ n: 0 });

    // nothing that is not a sign-in is held back: health, a signed-in caller, a token refresh
    expect((await req(w.j, 'GET', '/health')).status).toBe(200);
    expect((await signedIn.call(ops.getAccount, {})).username).toBe(targets[6]!.username);
    const refreshed = await req(w.j, 'POST', '/identity/refresh', { body: { refreshToken: signedIn.refreshToken } });
    expect(refreshed.status, refreshed.text).toBe(200);
  });
});

describe('failed sign-ins per account, from many addresses', () => {
  const w = shippedJudge({ trustProxy: true });

  it('stops the addresses that guessed after 10 failures in a minute, even when a right password reset the lockout count between', async () => {
    const [owner, bystander] = await accounts(w.admin, 'owner-', 2);
    for (let i = 0; i < 5; i++) expectProblem(await from(w.j, `10.0.0.${i + 1}`, owner!.username, `guess-${i}`), 401, 'unauthenticated', 'Failed');
    expect((await from(w.j, '10.0.1.1', owner!.username, owner!.password)).status).toBe(200);
    for (let i = 5; i < 10; i++) expectProblem(await from(w.j, `10.0.0.${i + 1}`, owner!.username, `guess-${i}`), 401, 'unauthenticated', 'Failed');
    const sessions = (await w.j.count('sessions'));
    // an address that guessed is refused, the right password too, by any spelling of the name
    expectRetryAfter(await from(w.j, '10.0.0.3', owner!.username, owner!.password), /failed sign-ins for this account/);
    expectRetryAfter(await from(w.j, '10.0.0.4', owner!.username.toUpperCase(), owner!.password), /this account/);
    expect((await w.j.count('sessions'))).toBe(sessions);
    // not locked: the budget, not the lockout, refused; other accounts at the same addresses sign in
    expect((await w.j.query('SELECT locked_until FROM users WHERE id = ?', owner!.id))[0]).toEqual({ locked_until: null });
    expect((await from(w.j, '10.0.0.3', bystander!.username, bystander!.password)).status).toBe(200);
    // an address that never failed is heard: the owner signs in; a new guesser gets one guess
    expect((await from(w.j, '10.0.2.1', owner!.username, owner!.password)).status).toBe(200);
    expectProblem(await from(w.j, '10.0.2.2', owner!.username, 'guess-from-elsewhere'), 401, 'unauthenticated', 'Failed');
    expectRetryAfter(await from(w.j, '10.0.2.2', owner!.username, owner!.password), /this account/);
  });
});

/** What an answer shows a guesser: the status, the whole body and whether it says when to retry. */
const seen = (r: RawResponse) => ({ status: r.status, body: r.body as unknown, retryAfter: r.headers.has('retry-after') });

describe('known and unknown names', () => {
  const w = shippedJudge({ trustProxy: true });

  /** The same guesses against one name: twelve from one address, then two from another. */
  async function guesses(name: string): Promise<ReturnType<typeof seen>[]> {
    const out = [];
    for (let i = 0; i < 12; i++) out.push(seen(await from(w.j, '10.3.0.1', name, `guess-${i}`)));
    for (let i = 0; i < 2; i++) out.push(seen(await from(w.j, '10.3.0.2', name, `elsewhere-${i}`)));
    return out;
  }

  it('answer every guess alike, so that guessing tells nobody which names exist', async () => {
    const [known] = await accounts(w.admin, 'known-', 1);
    const forKnown = await guesses(known!.username);
    const forUnknown = await guesses('no-such-name');
    expect(forUnknown).toEqual(forKnown);
    // what they are: ten failures lock the name for the address that made them; another address is
    // heard once, then refused too
    expect(forKnown.map((a) => (a.body as { detail: string }).detail)).toEqual([...Array(10).fill('Failed'), 'LockedOut', 'LockedOut', 'Failed', 'LockedOut']);
    // a blocked account answers a wrong password as any other does
    const [blocked] = await accounts(w.admin, 'blocked-', 1);
    await w.admin.call(ops.setUserBlocked, { params: { id: blocked!.id }, body: { blocked: true } });
    expect(seen(await from(w.j, '10.3.1.1', blocked!.username, 'guess'))).toEqual(seen(await from(w.j, '10.3.1.1', 'nobody-at-all', 'guess')));
  });
});

describe('a stranger guessing the administrator’s password', () => {
  const w = shippedJudge({ trustProxy: true });

  it('locks out the guesser, not the administrator signing in from elsewhere', async () => {
    const answers = [];
    for (let i = 0; i < 30; i++) answers.push((await from(w.j, '10.4.0.1', 'admin', `guess-${i}`)).body.detail as string);
    expect(answers).toEqual([...Array(10).fill('Failed'), ...Array(20).fill('LockedOut')]);
    // the lock holds: even the right password from the guesser's address is refused
    const sessions = (await w.j.count('sessions'));
    expectProblem(await from(w.j, '10.4.0.1', 'admin', ADMIN_PASSWORD), 401, 'unauthenticated', 'LockedOut');
    expect((await w.j.count('sessions'))).toBe(sessions);
    // the administrator, from an address that never failed, signs in, and the lock stays for the guesser
    const admin = await from(w.j, '10.4.9.9', 'admin', ADMIN_PASSWORD);
    expect(admin.status, admin.text).toBe(200);
    expect((await w.j.count('sessions'))).toBe(sessions + 1);
    expectProblem(await from(w.j, '10.4.0.1', 'admin', ADMIN_PASSWORD), 401, 'unauthenticated', 'LockedOut');
  });
});
