import { beforeAll, describe, expect, it } from 'vitest';
import { ops, type IssuedCredentials, type UserLookup } from '@judge/contract';
import { raw, type TestUser } from './harness.js';
import { UUID, INSTANT, j, admin, fresh, url, refused, send, loginResult, holderOf, managed, useUsersServer } from './support/users.js';

/**
 * The user administration endpoints over real HTTP and a real SQLite file (interface "Users";
 * decisions §2-5): looking users up and creating them: what each answers, who may call it, and that
 * every refusal changes nothing. Shared setup in support/users.ts.
 */

useUsersServer();

describe('GET /users (lookup)', () => {
  let alice: TestUser;
  let bare: TestUser;
  beforeAll(async () => {
    alice = await j.user('lk-alice', { email: 'Alice.Lookup@Example.org', firstName: 'Zebulon', lastName: 'Quaxley' });
    bare = await j.user('lk-bare');
  });

  it('matches the login, the full name and the email address, regardless of case', async () => {
    for (const q of ['LK-ALI', 'quaxley', 'zebulon qua', 'alice.lookup@example', 'LOOKUP@EXAMPLE.ORG']) {
      const hits = await admin.call(ops.lookupUsers, { query: { q } });
      expect(hits.map((h) => h.id), q).toContain(alice.id);
      expect(hits.map((h) => h.id), q).not.toContain(bare.id);
    }
    const [hit] = await admin.call(ops.lookupUsers, { query: { q: 'lk-alice' } });
    expect(hit).toEqual({ id: alice.id, username: 'lk-alice', name: 'Zebulon Quaxley', email: 'Alice.Lookup@Example.org' });
  });

  it('omits null members: a user without an address has no email key at all', async () => {
    const res = await send('GET', '/users?q=lk-bare', admin.accessToken);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('null');
    const hit = (res.body as UserLookup[]).find((h) => h.id === bare.id)!;
    expect(hit).toBeDefined();
    expect(Object.keys(hit)).not.toContain('email');
    expect(hit.username).toBe('lk-bare');
  });

  it('answers [] for a blank or missing q', async () => {
    expect(await admin.call(ops.lookupUsers, { query: { q: '' } })).toEqual([]);
    expect(await admin.call(ops.lookupUsers, { query: { q: '   ' } })).toEqual([]);
    expect(await admin.call(ops.lookupUsers, {})).toEqual([]);
  });

  it('treats LIKE wildcards literally', async () => {
    expect(await admin.call(ops.lookupUsers, { query: { q: '%' } })).toEqual([]);
    expect(await admin.call(ops.lookupUsers, { query: { q: 'lk_alice' } })).toEqual([]);
  });

  it('answers at most 20 entries', async () => {
    for (let i = 0; i < 23; i++) await admin.call(ops.createUser, { body: { username: `many-${String(i).padStart(2, '0')}` } });
    const hits = await admin.call(ops.lookupUsers, { query: { q: 'many-' } });
    expect(hits).toHaveLength(20);
    expect(new Set(hits.map((h) => h.id)).size).toBe(20);
    expect(hits.every((h) => h.username.startsWith('many-'))).toBe(true);
  });

  it('refuses a plain user with 403 naming user:read:all, and anonymous callers with 401', async () => {
    const plain = await j.signIn(await j.user(fresh('lk-plain')));
    const pb = await refused(plain.call(ops.lookupUsers, { query: { q: 'lk' } }), 403, 'forbidden');
    expect(pb.detail).toContain('user:read:all');
    await refused(j.anonymous().call(ops.lookupUsers, { query: { q: 'lk' } }), 401, 'unauthenticated');
    const badToken = await send('GET', '/users?q=lk', 'not-a-token');
    expect(badToken.status).toBe(401);
  });

  it('refuses a q over 200 characters with 422', async () => {
    const res = await send('GET', `/users?q=${'x'.repeat(201)}`, admin.accessToken);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toHaveProperty('q');
  });
});

describe('POST /users', () => {
  it('creates the account: 201, Location, issued credentials whose password signs in', async () => {
    const before = (await j.count('users'));
    const res = await send('POST', '/users', admin.accessToken, { username: 'Created-One', firstName: 'Cre', lastName: 'Ated', email: 'created.one@example.org', note: 'n', tags: ['a', 'b'] });
    expect(res.status).toBe(201);
    const issued = res.body as IssuedCredentials;
    expect(Object.keys(issued).sort()).toEqual(['password', 'userId', 'username']);
    expect(issued.userId).toMatch(UUID);
    expect(issued.username).toBe('Created-One');
    expect(issued.password.length).toBeGreaterThanOrEqual(10);
    expect(res.headers.get('location')).toBe(`/api/v1/users/${issued.userId}`);
    expect((await j.count('users'))).toBe(before + 1);

    const c = j.anonymous();
    await c.login('created-one', issued.password);
    expect(await c.call(ops.getAccount)).toEqual({
      userId: issued.userId,
      username: 'Created-One',
      firstName: 'Cre',
      lastName: 'Ated',
      email: 'created.one@example.org',
      emailConfirmed: false,
      isLocal: true,
      // staff made it: its owner keeps the login and name given (account-names.test.ts)
      origin: 'staff',
      mayChangeUsername: false,
      mayChangeName: false,
    });
    expect(await loginResult('created.one@example.org', issued.password)).toBe('ok');
    expect(await loginResult('Created-One', `${issued.password}x`)).toBe('Failed');

    const m = await managed(issued.userId);
    expect(m).toMatchObject({ note: 'n', tags: ['a', 'b'], isTemporary: false, grantCount: 0, emailConfirmed: false });
    expect(m.createdAt).toMatch(INSTANT);
  });

  it('issues a different password to every account', async () => {
    const a = await admin.call(ops.createUser, { body: { username: fresh('pw-a') } });
    const b = await admin.call(ops.createUser, { body: { username: fresh('pw-b') } });
    expect(a.password).not.toBe(b.password);
  });

  it('accepts logins of 2 and of 64 characters', async () => {
    const two = await admin.call(ops.createUser, { body: { username: 'z9' } });
    expect(two.username).toBe('z9');
    const long = `L${'o'.repeat(63)}`;
    const sixtyFour = await admin.call(ops.createUser, { body: { username: long } });
    expect(sixtyFour.username).toBe(long);
  });

  it('refuses a login taken in any case with 409 user.username.taken, creating nothing', async () => {
    await admin.call(ops.createUser, { body: { username: 'Taken-Name' } });
    const before = (await j.count('users'));
    for (const username of ['Taken-Name', 'taken-name', 'TAKEN-NAME']) {
      await refused(admin.call(ops.createUser, { body: { username } }), 409, 'user.username.taken');
    }
    await refused(admin.call(ops.createUser, { body: { username: 'admin' } }), 409, 'user.username.taken');
    expect((await j.count('users'))).toBe(before);
  });

  it('refuses an address taken in any case with 409 user.email.taken, creating nothing', async () => {
    await admin.call(ops.createUser, { body: { username: fresh('mail-a'), email: 'Dup@Example.org' } });
    const before = (await j.count('users'));
    const name = fresh('mail-b');
    await refused(admin.call(ops.createUser, { body: { username: name, email: 'dup@example.ORG' } }), 409, 'user.email.taken');
    expect((await j.count('users'))).toBe(before);
    expect(await admin.call(ops.lookupUsers, { query: { q: name } })).toEqual([]);
  });

  it.each([
    ['a login with a space', { username: 'has space' }, 'username'],
    ['a 1-character login', { username: 'a' }, 'username'],
    ['a 65-character login', { username: `a${'b'.repeat(64)}` }, 'username'],
    ['a login starting with a dash', { username: '-dash' }, 'username'],
    ['an empty login', { username: '' }, 'username'],
    ['no login', {}, 'username'],
    ['a numeric login', { username: 42 }, 'username'],
    ['a bad address', { username: 'fine-name', email: 'not-an-email' }, 'email'],
    ['a numeric first name', { username: 'fine-name', firstName: 7 }, 'firstName'],
    ['tags as a string', { username: 'fine-name', tags: 'x' }, 'tags'],
    ['an empty tag', { username: 'fine-name', tags: [''] }, 'tags.0'],
  ])('refuses %s with 422 validation_failed, creating nothing', async (_what, body, field) => {
    const before = (await j.count('users'));
    const res = await send('POST', '/users', admin.accessToken, body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toHaveProperty([field]);
    expect((await j.count('users'))).toBe(before);
  });

  it('refuses a body that is not JSON with 400, and a non-JSON media type with 415, creating nothing', async () => {
    const before = (await j.count('users'));
    const bad = await send('POST', '/users', admin.accessToken, '{"username": "broken"');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('request.malformed');
    const arr = await send('POST', '/users', admin.accessToken, '[]');
    expect(arr.status).toBe(422);
    const text = await raw(url('/users'), { method: 'POST', token: admin.accessToken!, headers: { 'content-type': 'text/plain' }, body: 'username=x' });
    expect(text.status).toBe(415);
    expect((await j.count('users'))).toBe(before);
  });

  it('refuses a plain user (403 naming user:create) and anonymous callers (401), creating nothing', async () => {
    const plain = await j.signIn(await j.user(fresh('cr-plain')));
    const before = (await j.count('users'));
    const pb = await refused(plain.call(ops.createUser, { body: { username: 'by-plain' } }), 403, 'forbidden');
    expect(pb.detail).toContain('user:create');
    await refused(j.anonymous().call(ops.createUser, { body: { username: 'by-anon' } }), 401, 'unauthenticated');
    expect((await j.count('users'))).toBe(before);
  });

  it('lets a non-administrator holding user:create create accounts', async () => {
    const { client } = await holderOf('creator', ['user:create']);
    const issued = await client.call(ops.createUser, { body: { username: fresh('made-by-creator') } });
    expect(await loginResult(issued.username, issued.password)).toBe('ok');
  });
});
