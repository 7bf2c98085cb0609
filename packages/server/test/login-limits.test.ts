import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { defaultsPath } from '../src/config.js';
import { TestJudge, type TestUser } from './harness.js';
import { expectProblem, login, req, type RawResponse } from './support/identity.js';

/**
 * Sign-in limits sized for a lab (issue 15): a class behind one NAT address signs in within a minute,
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
    const sessions = w.j.count('sessions');
    const signedIn = await Promise.all(students.map((s) => login(w.j, s.username, s.password)));
    expect(signedIn.map((r) => r.status)).toEqual(students.map(() => 200));
    expect(w.j.count('sessions')).toBe(sessions + 30);
  });

  it('refuses the 11th wrong password in a row for one account, and the right one after it', async () => {
    const [victim] = await accounts(w.admin, 'guessed-', 1);
    for (let i = 0; i < 10; i++) expectProblem(await login(w.j, victim!.username, `guess-${i}`), 401, 'unauthenticated', 'Failed');
    expectProblem(await login(w.j, victim!.username, 'guess-10'), 401, 'unauthenticated', 'LockedOut');
    const sessions = w.j.count('sessions');
    expectProblem(await login(w.j, victim!.username, victim!.password), 401, 'unauthenticated', 'LockedOut');
    expect(w.j.count('sessions')).toBe(sessions);
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
    const sessions = w.j.count('sessions');
    expectRetryAfter(await login(w.j, targets[0]!.username, 'guess-next'), /failed sign-ins for this address.*try again in \d+ s/);
    // a right password from the same address waits too: the address cannot tell guesser from student
    expectRetryAfter(await login(w.j, targets[1]!.username, targets[1]!.password), /this address/);
    // an unknown name costs the same
    expectRetryAfter(await login(w.j, 'nobody-here', 'whatever-password'), /this address/);
    expect(w.j.count('sessions')).toBe(sessions);
    expect(w.j.app.deps.sqlite.prepare('SELECT count(*) AS n FROM users WHERE locked_until IS NOT NULL').get()).toEqual({ n: 0 });

    // nothing that is not a sign-in is held back: health, a signed-in caller, a token refresh
    expect((await req(w.j, 'GET', '/health')).status).toBe(200);
    expect((await signedIn.call(ops.getAccount, {})).username).toBe(targets[6]!.username);
    const refreshed = await req(w.j, 'POST', '/identity/refresh', { body: { refreshToken: signedIn.refreshToken } });
    expect(refreshed.status, refreshed.text).toBe(200);
  });
});

describe('failed sign-ins per account, from many addresses', () => {
  const w = shippedJudge({ trustProxy: true });

  it('stops an account after 10 failures in a minute even when a right password reset the lockout count between', async () => {
    const [owner, bystander] = await accounts(w.admin, 'owner-', 2);
    for (let i = 0; i < 5; i++) expectProblem(await from(w.j, `10.0.0.${i + 1}`, owner!.username, `guess-${i}`), 401, 'unauthenticated', 'Failed');
    expect((await from(w.j, '10.0.1.1', owner!.username, owner!.password)).status).toBe(200);
    for (let i = 5; i < 10; i++) expectProblem(await from(w.j, `10.0.0.${i + 1}`, owner!.username, `guess-${i}`), 401, 'unauthenticated', 'Failed');
    const sessions = w.j.count('sessions');
    expectRetryAfter(await from(w.j, '10.0.2.1', owner!.username, owner!.password), /failed sign-ins for this account/);
    // the same account by its address-book name is the same budget
    expectRetryAfter(await from(w.j, '10.0.2.2', owner!.username.toUpperCase(), owner!.password), /this account/);
    expect(w.j.count('sessions')).toBe(sessions);
    // not locked: the budget, not the lockout, refused; other accounts at the same addresses sign in
    expect(w.j.app.deps.sqlite.prepare('SELECT locked_until FROM users WHERE id = ?').get(owner!.id)).toEqual({ locked_until: null });
    expect((await from(w.j, '10.0.2.1', bystander!.username, bystander!.password)).status).toBe(200);
  });

  it('gives an unknown name a budget of its own, so that guessing names costs as much', async () => {
    for (let i = 0; i < 10; i++) expectProblem(await from(w.j, `10.1.0.${i + 1}`, 'no-such-name', `guess-${i}`), 401, 'unauthenticated', 'Failed');
    expectRetryAfter(await from(w.j, '10.1.1.1', 'No-Such-Name', 'guess-next'), /this account/);
  });
});
