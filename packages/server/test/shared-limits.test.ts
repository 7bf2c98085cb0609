import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLimits, postgresLimits, type LimitStore } from '../src/http/limits.js';
import { rateLimited } from '../src/http/middleware.js';
import { sharedMarks } from '../src/modules/identity/lockout.js';
import { SignInBudget } from '../src/modules/identity/sign-in-budget.js';
import { freshDatabase, type TestDatabase } from './pg-cluster.js';

// Two servers of one cluster: each its own pool and its own store on the one database.
let db: TestDatabase;
const pools: pg.Pool[] = [];
let a: LimitStore;
let b: LimitStore;

const AUTH = { loginFailuresPerMinute: 3, accountLoginFailuresPerMinute: 2 } as ConstructorParameters<typeof SignInBudget>[0];

beforeAll(async () => {
  db = await freshDatabase();
  for (let i = 0; i < 3; i++) pools.push(new pg.Pool({ connectionString: db.url, max: 2 }));
  // both servers start at once: neither may fail on the other's CREATE TABLE
  [a, b] = await Promise.all([postgresLimits(pools[0]!), postgresLimits(pools[1]!)]);
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
  await db?.drop();
});

describe('request limits shared by the servers on one PostgreSQL', () => {
  it('counts a client on every server against one budget', async () => {
    expect(a.shared).toBe(true);
    const onA = a.limiter({ points: 4, duration: 60, keyPrefix: 'requests' });
    const onB = b.limiter({ points: 4, duration: 60, keyPrefix: 'requests' });
    await onA.consume('u:alice');
    await onB.consume('u:alice');
    await onA.consume('u:alice');
    await onB.consume('u:alice');
    const refused = await onA.consume('u:alice').catch((r: unknown) => r);
    const e = rateLimited(refused);
    expect(e.status).toBe(429);
    expect(Number(e.headers?.['Retry-After'])).toBeGreaterThan(0);
    // another client and another budget are untouched
    await expect(onB.consume('u:bob')).resolves.toBeTruthy();
    await expect(b.limiter({ points: 4, duration: 60, keyPrefix: 'sign-in' }).consume('u:alice')).resolves.toBeTruthy();
  });

  it('keeps a server in memory alone: another store does not see its counts', async () => {
    const mine = memoryLimits.limiter({ points: 1, duration: 60, keyPrefix: 'requests' });
    const other = memoryLimits.limiter({ points: 1, duration: 60, keyPrefix: 'requests' });
    await mine.consume('u:carol');
    await expect(other.consume('u:carol')).resolves.toBeTruthy();
    expect(memoryLimits.shared).toBe(false);
  });

  it('spends the failed sign-in budgets of an account and an address across servers', async () => {
    const onA = new SignInBudget(AUTH, a);
    const onB = new SignInBudget(AUTH, b);
    await onA.failed('10.0.0.1', 'acct-1');
    expect(await onB.accountSpent('acct-1')).toBeUndefined();
    await onB.failed('10.0.0.2', 'acct-1');
    const spent = await onA.accountSpent('acct-1');
    expect(spent?.status).toBe(429);
    expect(await onB.accountSpent('acct-2')).toBeUndefined();
    await onB.failed('10.0.0.9', 'acct-3');
    await onA.failed('10.0.0.9', 'acct-4');
    await onB.failed('10.0.0.9', 'acct-5');
    await expect(onA.admitAddress('10.0.0.9')).rejects.toMatchObject({ status: 429 });
    await expect(onB.admitAddress('10.0.0.8')).resolves.toBeUndefined();
  });
});

describe('lockout marks shared by the servers', () => {
  const WINDOW = 15 * 60_000;

  it('sees on one server the attempts an address made against an account on another, until it signs in', async () => {
    const onA = sharedMarks(a, WINDOW, 3, WINDOW);
    const onB = sharedMarks(b, WINDOW, 3, WINDOW);
    await onA.attempt('acct-x', '10.1.0.1', Date.now());
    await onA.attempt('acct-x', '10.1.0.1', Date.now());
    expect(await onB.others('acct-x', '10.1.0.1', Date.now())).toBe(2);
    expect(await onB.others('acct-x', '10.1.0.1', Date.now(), 1)).toBe(1);
    expect(await onB.others('acct-x', '10.1.0.2', Date.now())).toBe(0);
    await onB.succeeded('acct-x', '10.1.0.1');
    expect(await onA.others('acct-x', '10.1.0.1', Date.now())).toBe(0);
  });

  it('locks an unknown name after its failures in a row, wherever they were made', async () => {
    const onA = sharedMarks(a, WINDOW, 3, WINDOW);
    const onB = sharedMarks(b, WINDOW, 3, WINDOW);
    await onA.nameFailed('login:nobody', Date.now());
    await onB.nameFailed('login:nobody', Date.now());
    expect(await onA.nameLocked('login:nobody', Date.now())).toBe(false);
    await onA.nameFailed('login:nobody', Date.now());
    expect(await onB.nameLocked('login:nobody', Date.now())).toBe(true);
    expect(await onA.nameLocked('login:nobody', Date.now())).toBe(true);
    expect(await onA.nameLocked('login:somebody-else', Date.now())).toBe(false);
  });
});

describe('a store that cannot reach the database', () => {
  it('counts in memory meanwhile rather than refusing everyone or letting everyone through', async () => {
    const lost = await postgresLimits(pools[2]!);
    const limiter = lost.limiter({ points: 2, duration: 60, keyPrefix: 'requests' });
    await pools[2]!.end();
    await expect(limiter.consume('u:dave')).resolves.toBeTruthy();
    await expect(limiter.consume('u:dave')).resolves.toBeTruthy();
    const refused = await limiter.consume('u:dave').catch((r: unknown) => r);
    expect(rateLimited(refused).status).toBe(429);
  });
});
