import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type IssuedCredentials, type ManagedUser, type Session, type UserLookup } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { refusedWith, sendJson } from './expect.js';
import { ADMIN_PASSWORD, TestJudge, raw, type TestUser } from './harness.js';
import { sleep } from './support/wait.js';

/**
 * The user administration endpoints over real HTTP and a real SQLite file (interface "Users";
 * CONTRACT §2-5): what each answers, who may call it, and that every refusal changes nothing.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NO_SUCH_ID = '01890000-0000-7000-8000-000000000000';

let j: TestJudge;
let admin: JudgeClient;
let adminId: string;
let seq = 0;
/** A login no other test uses. */
const fresh = (stem: string) => `${stem}-${++seq}`;

beforeAll(async () => {
  j = await TestJudge.start();
  admin = await j.admin();
  adminId = (await admin.call(ops.getAccount)).userId;
});
afterAll(() => j.stop());

const url = (path: string) => `${j.url}/api/v1${path}`;

const refused = refusedWith;
const send = (method: string, path: string, token: string | undefined, body?: unknown) => sendJson(j.url, method, path, token, body);

/** The stored record, to prove a refused request changed nothing. */
function userRow(id: string): Record<string, unknown> {
  return j.app.deps.sqlite.prepare('SELECT * FROM users WHERE id = ?').get(id) as Record<string, unknown>;
}

function sql(statement: string, ...args: unknown[]): void {
  j.app.deps.sqlite.prepare(statement).run(...args);
}

/** What a sign-in answers: 200, or the 401 detail (Failed, LockedOut, ...). */
async function loginResult(login: string, password: string): Promise<string> {
  const res = await raw(url('/identity/login'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: login, password }) });
  if (res.status === 200) return 'ok';
  expect(res.status).toBe(401);
  return res.body.detail as string;
}

/** The status a bearer token gets on an authenticated read. */
async function tokenStatus(c: JudgeClient): Promise<number> {
  const res = c.accessToken
    ? await raw(url('/account'), { token: c.accessToken })
    : await raw(url('/account'), { headers: { cookie: `judge_session=${c.cookie}` } });
  return res.status;
}

async function createRole(name: string, permissions: string[]) {
  return admin.call(ops.createRole, { body: { name, permissions } });
}

/** A user who holds exactly the given keys system-wide, through a custom role. */
async function holderOf(stem: string, permissions: string[]): Promise<{ user: TestUser; client: JudgeClient }> {
  const roleName = fresh(`role-${stem}`);
  await createRole(roleName, permissions);
  const user = await j.user(fresh(stem));
  await j.grant(user.id, roleName);
  return { user, client: await j.signIn(user) };
}

async function managed(id: string): Promise<ManagedUser> {
  const username = userRow(id).username as string;
  const page = await admin.call(ops.listManagedUsers, { query: { search: username, includeBlocked: 'true', pageSize: 200 } });
  const found = page.items.find((u) => u.id === id);
  if (!found) throw new Error(`user ${id} not listed`);
  return found;
}

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
    const before = j.count('users');
    const res = await send('POST', '/users', admin.accessToken, { username: 'Created-One', firstName: 'Cre', lastName: 'Ated', email: 'created.one@example.org', note: 'n', tags: ['a', 'b'] });
    expect(res.status).toBe(201);
    const issued = res.body as IssuedCredentials;
    expect(Object.keys(issued).sort()).toEqual(['password', 'userId', 'username']);
    expect(issued.userId).toMatch(UUID);
    expect(issued.username).toBe('Created-One');
    expect(issued.password.length).toBeGreaterThanOrEqual(10);
    expect(res.headers.get('location')).toBe(`/api/v1/users/${issued.userId}`);
    expect(j.count('users')).toBe(before + 1);

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
    const before = j.count('users');
    for (const username of ['Taken-Name', 'taken-name', 'TAKEN-NAME']) {
      await refused(admin.call(ops.createUser, { body: { username } }), 409, 'user.username.taken');
    }
    await refused(admin.call(ops.createUser, { body: { username: 'admin' } }), 409, 'user.username.taken');
    expect(j.count('users')).toBe(before);
  });

  it('refuses an address taken in any case with 409 user.email.taken, creating nothing', async () => {
    await admin.call(ops.createUser, { body: { username: fresh('mail-a'), email: 'Dup@Example.org' } });
    const before = j.count('users');
    const name = fresh('mail-b');
    await refused(admin.call(ops.createUser, { body: { username: name, email: 'dup@example.ORG' } }), 409, 'user.email.taken');
    expect(j.count('users')).toBe(before);
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
    const before = j.count('users');
    const res = await send('POST', '/users', admin.accessToken, body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toHaveProperty([field]);
    expect(j.count('users')).toBe(before);
  });

  it('refuses a body that is not JSON with 400, and a non-JSON media type with 415, creating nothing', async () => {
    const before = j.count('users');
    const bad = await send('POST', '/users', admin.accessToken, '{"username": "broken"');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('request.malformed');
    const arr = await send('POST', '/users', admin.accessToken, '[]');
    expect(arr.status).toBe(422);
    const text = await raw(url('/users'), { method: 'POST', token: admin.accessToken!, headers: { 'content-type': 'text/plain' }, body: 'username=x' });
    expect(text.status).toBe(415);
    expect(j.count('users')).toBe(before);
  });

  it('refuses a plain user (403 naming user:create) and anonymous callers (401), creating nothing', async () => {
    const plain = await j.signIn(await j.user(fresh('cr-plain')));
    const before = j.count('users');
    const pb = await refused(plain.call(ops.createUser, { body: { username: 'by-plain' } }), 403, 'forbidden');
    expect(pb.detail).toContain('user:create');
    await refused(j.anonymous().call(ops.createUser, { body: { username: 'by-anon' } }), 401, 'unauthenticated');
    expect(j.count('users')).toBe(before);
  });

  it('lets a non-administrator holding user:create create accounts', async () => {
    const { client } = await holderOf('creator', ['user:create']);
    const issued = await client.call(ops.createUser, { body: { username: fresh('made-by-creator') } });
    expect(await loginResult(issued.username, issued.password)).toBe('ok');
  });
});

describe('GET /users/managed', () => {
  it('pages newest first with the right total, echoing page and pageSize', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await admin.call(ops.createUser, { body: { username: `pg-user-${i}` } })).userId);
    const newestFirst = [...ids].reverse();

    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const p = await admin.call(ops.listManagedUsers, { query: { search: 'pg-user-', page, pageSize: 2 } });
      expect(p.total).toBe(5);
      expect(p.page).toBe(page);
      expect(p.pageSize).toBe(2);
      expect(p.items).toHaveLength(page === 3 ? 1 : 2);
      seen.push(...p.items.map((u) => u.id));
    }
    expect(seen).toEqual(newestFirst);

    const beyond = await admin.call(ops.listManagedUsers, { query: { search: 'pg-user-', page: 4, pageSize: 2 } });
    expect(beyond).toEqual({ items: [], total: 5, page: 4, pageSize: 2 });
  });

  it('defaults to page 1 of 20 and clamps page and pageSize', async () => {
    const all = await admin.call(ops.listManagedUsers, {});
    expect(all.page).toBe(1);
    expect(all.pageSize).toBe(20);
    expect(all.total).toBe(j.count('users') - (j.app.deps.sqlite.prepare('SELECT count(*) AS n FROM users WHERE blocked_at IS NOT NULL').get() as { n: number }).n);
    expect(all.items.length).toBe(Math.min(20, all.total));

    const big = await admin.call(ops.listManagedUsers, { query: { pageSize: 500 } });
    expect(big.pageSize).toBe(200);
    expect(big.items.length).toBe(Math.min(200, big.total));

    for (const pageSize of [0, -3]) {
      const small = await admin.call(ops.listManagedUsers, { query: { pageSize } });
      expect(small.pageSize, `pageSize=${pageSize}`).toBe(1);
      expect(small.items).toHaveLength(1);
    }
    const zero = await admin.call(ops.listManagedUsers, { query: { page: 0, pageSize: 3 } });
    expect(zero.page).toBe(1);
    expect(zero.items).toHaveLength(3);
  });

  it('refuses paging and flags that are not numbers or booleans with 422', async () => {
    for (const qs of ['pageSize=abc', 'page=1.5', 'includeBlocked=yes', 'temporaryOnly=maybe']) {
      const res = await send('GET', `/users/managed?${qs}`, admin.accessToken);
      expect(res.status, qs).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(Object.keys(res.body.errors ?? {})).toHaveLength(1);
    }
  });

  it('searches the login, the name and the address', async () => {
    const u = await j.user('ms-searchee', { email: 'hidden.box@example.net', firstName: 'Ottoline', lastName: 'Vexley' });
    for (const search of ['MS-SEARCH', 'ottoline', 'line vex', 'hidden.box']) {
      const p = await admin.call(ops.listManagedUsers, { query: { search } });
      expect(p.items.map((x) => x.id), search).toEqual([u.id]);
      expect(p.total).toBe(1);
    }
    expect((await admin.call(ops.listManagedUsers, { query: { search: 'no-such-person-anywhere' } })).total).toBe(0);
  });

  it('shows the administrative fields, omitting null members', async () => {
    const u = await j.user('ms-fields');
    const res = await send('GET', '/users/managed?search=ms-fields', admin.accessToken);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('null');
    const item = res.body.items[0] as ManagedUser;
    expect(item).toEqual({
      id: u.id,
      username: 'ms-fields',
      emailConfirmed: false,
      approvedAt: expect.stringMatching(INSTANT),
      tags: [],
      isTemporary: false,
      createdAt: expect.stringMatching(INSTANT),
      grantCount: 0,
    });
    await j.signIn(u);
    expect((await managed(u.id)).lastSeenAt).toMatch(INSTANT);
  });

  it('counts grants', async () => {
    const u = await j.user('ms-granted');
    expect((await managed(u.id)).grantCount).toBe(0);
    await j.grant(u.id, 'participant');
    expect((await managed(u.id)).grantCount).toBe(1);
    const activityId = j.insertActivity(fresh('ms-act'));
    await j.grant(u.id, 'manager', activityId);
    expect((await managed(u.id)).grantCount).toBe(2);
    expect((await managed(adminId)).grantCount).toBe(1);
  });

  it('hides blocked accounts unless includeBlocked', async () => {
    const u = await j.user('ms-blockee');
    await admin.call(ops.setUserBlocked, { params: { id: u.id }, body: { blocked: true } });
    const hidden = await admin.call(ops.listManagedUsers, { query: { search: 'ms-blockee' } });
    expect(hidden).toMatchObject({ items: [], total: 0 });
    for (const includeBlocked of ['true', '1'] as const) {
      const shown = await admin.call(ops.listManagedUsers, { query: { search: 'ms-blockee', includeBlocked } });
      expect(shown.total).toBe(1);
      expect(shown.items[0]).toMatchObject({ id: u.id, blockedAt: expect.stringMatching(INSTANT) });
    }
    expect((await admin.call(ops.listManagedUsers, { query: { search: 'ms-blockee', includeBlocked: 'false' } })).total).toBe(0);
  });

  it('lists only temporary accounts with temporaryOnly', async () => {
    const temp = await j.user('ms-tmp-one');
    const perm = await j.user('ms-tmp-two');
    // POST /users/temporary is not built yet: mark the account in the real database file
    sql('UPDATE users SET is_temporary = 1 WHERE id = ?', temp.id);
    const only = await admin.call(ops.listManagedUsers, { query: { search: 'ms-tmp-', temporaryOnly: 'true' } });
    expect(only.items.map((u) => u.id)).toEqual([temp.id]);
    expect(only.items[0]!.isTemporary).toBe(true);
    const both = await admin.call(ops.listManagedUsers, { query: { search: 'ms-tmp-', temporaryOnly: 'false' } });
    expect(both.items.map((u) => u.id)).toEqual([perm.id, temp.id]);
    const all = await admin.call(ops.listManagedUsers, { query: { temporaryOnly: 'true', pageSize: 200 } });
    expect(all.items.every((u) => u.isTemporary)).toBe(true);
  });

  it('refuses a plain user with 403 naming user:read:all, and anonymous callers with 401', async () => {
    const plain = await j.signIn(await j.user(fresh('ms-plain')));
    const pb = await refused(plain.call(ops.listManagedUsers, {}), 403, 'forbidden');
    expect(pb.detail).toContain('user:read:all');
    await refused(j.anonymous().call(ops.listManagedUsers, {}), 401, 'unauthenticated');
  });
});

describe('PUT /users/{id}', () => {
  it('edits names, note, tags, address and expiry', async () => {
    const u = await j.user(fresh('ed-target'));
    const res = await send('PUT', `/users/${u.id}`, admin.accessToken, {
      firstName: 'Ada',
      lastName: 'Byron',
      note: 'front row',
      tags: ['x', 'y', 'x'],
      email: 'ada@example.org',
      expiresAt: '2030-01-02T03:04:05+02:00',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: u.id,
      username: u.username,
      firstName: 'Ada',
      lastName: 'Byron',
      note: 'front row',
      tags: ['x', 'y'],
      email: 'ada@example.org',
      emailConfirmed: false,
      expiresAt: '2030-01-02T01:04:05.000Z',
    });
    expect(await managed(u.id)).toEqual(res.body);
    expect(userRow(u.id)).toMatchObject({ first_name: 'Ada', last_name: 'Byron', note: 'front row', email: 'ada@example.org', expires_at: '2030-01-02T01:04:05.000Z' });
    expect(await loginResult('ada@example.org', u.password)).toBe('ok');
  });

  it('accepts an instant without offset as UTC, and clears members set to null', async () => {
    const u = await j.user(fresh('ed-clear'), { firstName: 'F', lastName: 'L', email: `${fresh('clear')}@example.org` });
    const set = await admin.call(ops.updateUser, { params: { id: u.id }, body: { note: 'n', expiresAt: '2031-05-06T07:08:09' } });
    expect(set.expiresAt).toBe('2031-05-06T07:08:09.000Z');
    const res = await send('PUT', `/users/${u.id}`, admin.accessToken, { firstName: null, note: null, expiresAt: null, email: null, tags: [] });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('null');
    for (const k of ['firstName', 'note', 'expiresAt', 'email']) expect(Object.keys(res.body)).not.toContain(k);
    expect(res.body).toMatchObject({ lastName: 'L', tags: [] });
    expect(userRow(u.id)).toMatchObject({ first_name: null, note: null, expires_at: null, email: null, email_key: null });
  });

  it('an empty body changes nothing', async () => {
    const u = await j.user(fresh('ed-empty'), { firstName: 'Keep' });
    const before = userRow(u.id);
    const res = await send('PUT', `/users/${u.id}`, admin.accessToken, {});
    expect(res.status).toBe(200);
    expect(res.body.firstName).toBe('Keep');
    expect(userRow(u.id)).toEqual(before);
  });

  it('an address change clears emailConfirmed; the same address in another case does not', async () => {
    const u = await j.user(fresh('ed-confirm'), { email: `${fresh('conf')}@example.org` });
    sql('UPDATE users SET email_confirmed = 1 WHERE id = ?', u.id);
    const sameAddress = (userRow(u.id).email as string).toUpperCase();
    const same = await admin.call(ops.updateUser, { params: { id: u.id }, body: { email: sameAddress } });
    expect(same.emailConfirmed).toBe(true);
    const changed = await admin.call(ops.updateUser, { params: { id: u.id }, body: { email: `${fresh('new')}@example.org` } });
    expect(changed.emailConfirmed).toBe(false);
    expect(userRow(u.id).email_confirmed).toBe(0);
  });

  it('refuses an address another account has with 409 user.email.taken, changing nothing', async () => {
    await j.user(fresh('ed-holder'), { email: 'Holder@Example.org' });
    const u = await j.user(fresh('ed-wants'), { email: 'wants@example.org' });
    const before = userRow(u.id);
    await refused(admin.call(ops.updateUser, { params: { id: u.id }, body: { email: 'holder@example.ORG', firstName: 'Changed' } }), 409, 'user.email.taken');
    expect(userRow(u.id)).toEqual(before);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    await refused(admin.call(ops.updateUser, { params: { id: NO_SUCH_ID }, body: { note: 'x' } }), 404, 'not_found');
    await refused(admin.call(ops.updateUser, { params: { id: 'not-a-uuid' }, body: { note: 'x' } }), 404, 'not_found');
  });

  it.each([
    ['tags as a string', { tags: 'x' }, 'tags'],
    ['an expiry that is not an instant', { expiresAt: 'tomorrow' }, 'expiresAt'],
    ['an impossible date', { expiresAt: '2030-02-31T00:00:00Z' }, 'expiresAt'],
    ['a bad address', { email: 'nope' }, 'email'],
    ['a numeric first name', { firstName: 3 }, 'firstName'],
    ['a note over 2000 characters', { note: 'x'.repeat(2001) }, 'note'],
  ])('refuses %s with 422, changing nothing', async (_what, body, field) => {
    const u = await j.user(fresh('ed-invalid'), { firstName: 'Same' });
    const before = userRow(u.id);
    const res = await send('PUT', `/users/${u.id}`, admin.accessToken, { lastName: 'Changed', ...body });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toHaveProperty([field]);
    expect(userRow(u.id)).toEqual(before);
  });

  it('refuses malformed JSON with 400, changing nothing', async () => {
    const u = await j.user(fresh('ed-malformed'));
    const before = userRow(u.id);
    const res = await send('PUT', `/users/${u.id}`, admin.accessToken, '{"firstName":');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('request.malformed');
    expect(userRow(u.id)).toEqual(before);
  });

  it('refuses a plain user (403 naming user:update) and anonymous callers (401), changing nothing', async () => {
    const target = await j.user(fresh('ed-victim'));
    const plainUser = await j.user(fresh('ed-plain'));
    const plain = await j.signIn(plainUser);
    const before = userRow(target.id);
    const pb = await refused(plain.call(ops.updateUser, { params: { id: target.id }, body: { note: 'hacked' } }), 403, 'forbidden');
    expect(pb.detail).toContain('user:update');
    // not even their own record: editing accounts is an administrative power
    await refused(plain.call(ops.updateUser, { params: { id: plainUser.id }, body: { note: 'self' } }), 403, 'forbidden');
    await refused(j.anonymous().call(ops.updateUser, { params: { id: target.id }, body: { note: 'anon' } }), 401, 'unauthenticated');
    expect(userRow(target.id)).toEqual(before);
  });

  it('lets a holder of user:update edit a plain account but not an administrator', async () => {
    const { client: editor } = await holderOf('editor', ['user:update', 'user:read:all']);
    const target = await j.user(fresh('ed-plain-target'));
    expect(await editor.call(ops.updateUser, { params: { id: target.id }, body: { note: 'by editor' } })).toMatchObject({ note: 'by editor' });

    const adminBefore = userRow(adminId);
    await refused(editor.call(ops.updateUser, { params: { id: adminId }, body: { note: 'owned', email: 'evil@example.org' } }), 403, 'forbidden');
    expect(userRow(adminId)).toEqual(adminBefore);
  });
});

describe('POST /users/{id}/blocked', () => {
  it('blocks: sets blockedAt and the reason, ends every session, and sign-in answers LockedOut', async () => {
    const u = await j.user(fresh('bl-victim'));
    const bearer = await j.signIn(u);
    const cookie = await j.signIn(u, 'cookie');
    expect(await tokenStatus(bearer)).toBe(200);
    expect(await tokenStatus(cookie)).toBe(200);

    const res = await send('POST', `/users/${u.id}/blocked`, admin.accessToken, { blocked: true, reason: 'spam' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: u.id, blockedAt: expect.stringMatching(INSTANT), blockedReason: 'spam' });

    expect(await tokenStatus(bearer)).toBe(401);
    expect(await tokenStatus(cookie)).toBe(401);
    const live = j.app.deps.sqlite.prepare('SELECT count(*) AS n FROM sessions WHERE user_id = ? AND ended_at IS NULL').get(u.id) as { n: number };
    expect(live.n).toBe(0);
    expect(await admin.call(ops.listUserSessions, { params: { userId: u.id } })).toEqual([]);
    // the refresh token died with the session
    await refused(bearer.refresh(), 401, 'unauthenticated');

    expect(await loginResult(u.username, u.password)).toBe('LockedOut');
    expect(await loginResult(u.username, 'wrong-password-123')).toBe('LockedOut');
  });

  it('blocking again keeps the first blockedAt; unblocking restores sign-in', async () => {
    const u = await j.user(fresh('bl-again'));
    const first = await admin.call(ops.setUserBlocked, { params: { id: u.id }, body: { blocked: true } });
    expect(Object.keys(first)).not.toContain('blockedReason');
    await sleep(5);
    const second = await admin.call(ops.setUserBlocked, { params: { id: u.id }, body: { blocked: true, reason: 'later' } });
    expect(second.blockedAt).toBe(first.blockedAt);
    expect(await loginResult(u.username, u.password)).toBe('LockedOut');

    const res = await send('POST', `/users/${u.id}/blocked`, admin.accessToken, { blocked: false });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('null');
    expect(Object.keys(res.body)).not.toContain('blockedAt');
    expect(Object.keys(res.body)).not.toContain('blockedReason');
    expect(await loginResult(u.username, u.password)).toBe('ok');
  });

  it('refuses blocking yourself with 409 user.self, changing nothing', async () => {
    const before = userRow(adminId);
    await refused(admin.call(ops.setUserBlocked, { params: { id: adminId }, body: { blocked: true } }), 409, 'user.self');
    expect(userRow(adminId)).toEqual(before);
    expect(await tokenStatus(admin)).toBe(200);
  });

  it('lets a non-administrator holding user:block block a plain account but not an administrator', async () => {
    const { client: blocker } = await holderOf('blocker', ['user:block', 'user:read:all']);
    const plain = await j.user(fresh('bl-plain'));
    expect(await blocker.call(ops.setUserBlocked, { params: { id: plain.id }, body: { blocked: true } })).toMatchObject({ blockedAt: expect.any(String) });

    const adminBefore = userRow(adminId);
    await refused(blocker.call(ops.setUserBlocked, { params: { id: adminId }, body: { blocked: true } }), 403, 'forbidden');
    expect(userRow(adminId)).toEqual(adminBefore);
    expect(await tokenStatus(admin)).toBe(200);
    expect(await loginResult('admin', ADMIN_PASSWORD)).toBe('ok');
  });

  it('refuses a plain user (403 naming user:block), anonymous callers (401), unknown ids (404)', async () => {
    const target = await j.user(fresh('bl-target'));
    const plain = await j.signIn(await j.user(fresh('bl-plain-caller')));
    const pb = await refused(plain.call(ops.setUserBlocked, { params: { id: target.id }, body: { blocked: true } }), 403, 'forbidden');
    expect(pb.detail).toContain('user:block');
    await refused(j.anonymous().call(ops.setUserBlocked, { params: { id: target.id }, body: { blocked: true } }), 401, 'unauthenticated');
    await refused(admin.call(ops.setUserBlocked, { params: { id: NO_SUCH_ID }, body: { blocked: true } }), 404, 'not_found');
    await refused(admin.call(ops.setUserBlocked, { params: { id: 'nobody' }, body: { blocked: true } }), 404, 'not_found');
    expect(userRow(target.id).blocked_at).toBeNull();
  });

  it.each([
    ['blocked as a string', { blocked: 'yes' }, 'blocked'],
    ['blocked as a number', { blocked: 1 }, 'blocked'],
    ['no blocked member', { reason: 'x' }, 'blocked'],
    ['a reason over 500 characters', { blocked: true, reason: 'r'.repeat(501) }, 'reason'],
  ])('refuses %s with 422, changing nothing and ending no session', async (_what, body, field) => {
    const u = await j.user(fresh('bl-invalid'));
    const c = await j.signIn(u);
    const before = userRow(u.id);
    const res = await send('POST', `/users/${u.id}/blocked`, admin.accessToken, body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(userRow(u.id)).toEqual(before);
    expect(await tokenStatus(c)).toBe(200);
  });
});

describe('POST /users/{id}/password', () => {
  it('issues a new password: the old one stops working, the new one works, sessions end', async () => {
    const u = await j.user(fresh('pw-reset'));
    const bearer = await j.signIn(u);
    const cookie = await j.signIn(u, 'cookie');
    const res = await send('POST', `/users/${u.id}/password`, admin.accessToken);
    expect(res.status).toBe(200);
    const issued = res.body as IssuedCredentials;
    expect(issued).toEqual({ userId: u.id, username: u.username, password: expect.any(String) });
    expect(issued.password).not.toBe(u.password);
    expect(issued.password.length).toBeGreaterThanOrEqual(10);

    expect(await tokenStatus(bearer)).toBe(401);
    expect(await tokenStatus(cookie)).toBe(401);
    expect(await loginResult(u.username, u.password)).toBe('Failed');
    expect(await loginResult(u.username, issued.password)).toBe('ok');
  });

  it('clears a lockout', async () => {
    const u = await j.user(fresh('pw-locked'));
    sql('UPDATE users SET locked_until = ? WHERE id = ?', '2999-01-01T00:00:00.000Z', u.id);
    expect(await loginResult(u.username, u.password)).toBe('LockedOut');
    const issued = await admin.call(ops.resetUserPassword, { params: { id: u.id } });
    expect(await loginResult(u.username, issued.password)).toBe('ok');
  });

  it('refuses a plain user (403), anonymous callers (401) and unknown ids (404), changing nothing', async () => {
    const u = await j.user(fresh('pw-target'));
    const session = await j.signIn(u);
    const plainUser = await j.user(fresh('pw-plain'));
    const plain = await j.signIn(plainUser);
    const before = userRow(u.id);
    const pb = await refused(plain.call(ops.resetUserPassword, { params: { id: u.id } }), 403, 'forbidden');
    expect(pb.detail).toContain('user:update');
    await refused(plain.call(ops.resetUserPassword, { params: { id: plainUser.id } }), 403, 'forbidden');
    await refused(j.anonymous().call(ops.resetUserPassword, { params: { id: u.id } }), 401, 'unauthenticated');
    await refused(admin.call(ops.resetUserPassword, { params: { id: NO_SUCH_ID } }), 404, 'not_found');
    await refused(admin.call(ops.resetUserPassword, { params: { id: 'x' } }), 404, 'not_found');
    expect(userRow(u.id)).toEqual(before);
    expect(await tokenStatus(session)).toBe(200);
    expect(await loginResult(u.username, u.password)).toBe('ok');
  });

  it('refuses a holder of user:update resetting an administrator (403)', async () => {
    const { client: editor } = await holderOf('resetter', ['user:update']);
    const before = userRow(adminId);
    await refused(editor.call(ops.resetUserPassword, { params: { id: adminId } }), 403, 'forbidden');
    expect(userRow(adminId)).toEqual(before);
    expect(await tokenStatus(admin)).toBe(200);
    expect(await loginResult('admin', ADMIN_PASSWORD)).toBe('ok');
  });
});

describe('GET and DELETE /users/{userId}/sessions', () => {
  const signInAs = async (u: TestUser, userAgent: string, how: 'bearer' | 'cookie' = 'bearer') => {
    const c = new JudgeClient({ baseUrl: j.url, userAgent });
    if (how === 'cookie') await c.loginWithCookie(u.username, u.password);
    else await c.login(u.username, u.password);
    return c;
  };
  const sessionsOf = (id: string) => admin.call(ops.listUserSessions, { params: { userId: id } });

  it('lists live sessions newest first with their client, times and zero connections', async () => {
    const u = await j.user(fresh('ss-owner'));
    const t0 = Date.now();
    await signInAs(u, 'first-agent/1.0');
    await sleep(5);
    await signInAs(u, 'second-agent/2.0', 'cookie');
    const res = await send('GET', `/users/${u.id}/sessions`, admin.accessToken);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('null');
    const list = res.body as Session[];
    expect(list.map((s) => s.userAgent)).toEqual(['second-agent/2.0', 'first-agent/1.0']);
    for (const s of list) {
      expect(s.id).toMatch(UUID);
      expect(s.isCurrent).toBe(false);
      expect(s.connections).toBe(0);
      expect(s.ipAddress).toBe('127.0.0.1');
      expect(s.startedAt).toMatch(INSTANT);
      expect(s.expiresAt).toMatch(INSTANT);
      expect(Date.parse(s.startedAt)).toBeGreaterThanOrEqual(t0 - 1000);
      // refresh token and persistent cookie both last 14 days
      const days = (Date.parse(s.expiresAt!) - Date.parse(s.startedAt)) / 86_400_000;
      expect(days).toBeCloseTo(14, 3);
    }
    expect(Date.parse(list[0]!.startedAt)).toBeGreaterThan(Date.parse(list[1]!.startedAt));
  });

  it('marks the caller\'s own session isCurrent', async () => {
    const me = new JudgeClient({ baseUrl: j.url, userAgent: 'admin-current/1' });
    await me.login('admin', ADMIN_PASSWORD);
    const list = await me.call(ops.listUserSessions, { params: { userId: adminId } });
    const current = list.filter((s) => s.isCurrent);
    expect(current).toHaveLength(1);
    expect(current[0]!.userAgent).toBe('admin-current/1');
    expect(list.length).toBeGreaterThan(1);
  });

  it('counts open sockets live', async () => {
    const u = await j.user(fresh('ss-socket'));
    const c = await signInAs(u, 'socket-agent', 'cookie');
    const stream = c.events();
    try {
      await stream.opened;
      expect((await sessionsOf(u.id)).map((s) => s.connections)).toEqual([1]);
    } finally {
      stream.socket.close();
      await stream.closed;
    }
    await expect.poll(async () => (await sessionsOf(u.id))[0]?.connections).toBe(0);
  });

  it('drops ended sessions from the list', async () => {
    const u = await j.user(fresh('ss-ended'));
    const a = await signInAs(u, 'agent-a');
    await signInAs(u, 'agent-b');
    expect(await sessionsOf(u.id)).toHaveLength(2);
    await a.call(ops.logout);
    const left = await sessionsOf(u.id);
    expect(left.map((s) => s.userAgent)).toEqual(['agent-b']);
  });

  it('refuses a plain user, even for their own sessions (403), and anonymous callers (401)', async () => {
    const u = await j.user(fresh('ss-plain'));
    const c = await j.signIn(u);
    const pb = await refused(c.call(ops.listUserSessions, { params: { userId: u.id } }), 403, 'forbidden');
    expect(pb.detail).toContain('user:read:all');
    await refused(j.anonymous().call(ops.listUserSessions, { params: { userId: u.id } }), 401, 'unauthenticated');
  });

  it('answers 404 for an unknown or malformed user id', async () => {
    await refused(sessionsOf(NO_SUCH_ID), 404, 'not_found');
    await refused(sessionsOf('not-a-user'), 404, 'not_found');
  });

  it('DELETE ends exactly one session: that token gets 401, the others live on', async () => {
    const u = await j.user(fresh('ss-end'));
    const a = await signInAs(u, 'end-a');
    const b = await signInAs(u, 'end-b');
    const target = (await sessionsOf(u.id)).find((s) => s.userAgent === 'end-a')!;
    const res = await send('DELETE', `/users/${u.id}/sessions/${target.id}`, admin.accessToken);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await tokenStatus(a)).toBe(401);
    expect(await tokenStatus(b)).toBe(200);
    expect((await sessionsOf(u.id)).map((s) => s.userAgent)).toEqual(['end-b']);
    // already ended: nothing left to end
    await refused(admin.call(ops.endUserSession, { params: { userId: u.id, id: target.id } }), 404, 'not_found');
  });

  it('DELETE answers 404 for a session of another user, an unknown id or a non-UUID id, ending nothing', async () => {
    const owner = await j.user(fresh('ss-owner2'));
    const other = await j.user(fresh('ss-other'));
    const c = await signInAs(owner, 'owned');
    const [s] = await sessionsOf(owner.id);
    const live = () => (j.app.deps.sqlite.prepare('SELECT count(*) AS n FROM sessions WHERE ended_at IS NULL').get() as { n: number }).n;
    const before = live();
    await refused(admin.call(ops.endUserSession, { params: { userId: other.id, id: s!.id } }), 404, 'not_found');
    await refused(admin.call(ops.endUserSession, { params: { userId: owner.id, id: NO_SUCH_ID } }), 404, 'not_found');
    const notUuid = await send('DELETE', `/users/${owner.id}/sessions/not-a-uuid`, admin.accessToken);
    expect(notUuid.status).toBe(404);
    expect(notUuid.body.code).toBe('not_found');
    const upper = await send('DELETE', `/users/${owner.id}/sessions/${s!.id.toUpperCase()}`, admin.accessToken);
    expect(upper.status).toBe(404);
    expect(live()).toBe(before);
    expect(await tokenStatus(c)).toBe(200);
  });

  it('DELETE refuses a plain user (403), anonymous callers (401), and a user:update holder on an administrator (403)', async () => {
    const u = await j.user(fresh('ss-guarded'));
    const c = await signInAs(u, 'guarded');
    const [s] = await sessionsOf(u.id);
    const plain = await j.signIn(await j.user(fresh('ss-plain2')));
    const pb = await refused(plain.call(ops.endUserSession, { params: { userId: u.id, id: s!.id } }), 403, 'forbidden');
    expect(pb.detail).toContain('user:update');
    await refused(j.anonymous().call(ops.endUserSession, { params: { userId: u.id, id: s!.id } }), 401, 'unauthenticated');
    expect(await tokenStatus(c)).toBe(200);

    const { client: editor } = await holderOf('ender', ['user:update', 'user:read:all']);
    const adminSession = (await sessionsOf(adminId)).find((x) => x.isCurrent)!;
    await refused(editor.call(ops.endUserSession, { params: { userId: adminId, id: adminSession.id } }), 403, 'forbidden');
    expect(await tokenStatus(admin)).toBe(200);
    // but a plain account's session it may end
    await editor.call(ops.endUserSession, { params: { userId: u.id, id: s!.id } });
    expect(await tokenStatus(c)).toBe(401);
  });
});
