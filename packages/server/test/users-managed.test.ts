import { describe, expect, it } from 'vitest';
import { ops, type ManagedUser } from '@judge/contract';
import { NO_SUCH_ID } from './support/ids.js';
import { INSTANT, j, admin, adminId, fresh, refused, send, userRow, sql, loginResult, holderOf, managed, useUsersServer } from './support/users.js';

/**
 * The user administration endpoints over real HTTP and a real SQLite file (interface "Users";
 * decisions §2-5): the managed user list and editing a user: what each answers, who may call it, and
 * that every refusal changes nothing. Shared setup in support/users.ts.
 */

useUsersServer();

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
    expect(all.total).toBe((await j.count('users')) - ((await j.query('SELECT count(*) AS n FROM users WHERE blocked_at IS NOT NULL'))[0] as { n: number }).n);
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
      twoFactorEnabled: false,
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
    const activityId = await j.insertActivity(fresh('ms-act'));
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
    await sql('UPDATE users SET is_temporary = 1 WHERE id = ?', temp.id);
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
    expect((await userRow(u.id))).toMatchObject({ first_name: 'Ada', last_name: 'Byron', note: 'front row', email: 'ada@example.org', expires_at: '2030-01-02T01:04:05.000Z' });
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
    expect((await userRow(u.id))).toMatchObject({ first_name: null, note: null, expires_at: null, email: null, email_key: null });
  });

  it('an empty body changes nothing', async () => {
    const u = await j.user(fresh('ed-empty'), { firstName: 'Keep' });
    const before = (await userRow(u.id));
    const res = await send('PUT', `/users/${u.id}`, admin.accessToken, {});
    expect(res.status).toBe(200);
    expect(res.body.firstName).toBe('Keep');
    expect((await userRow(u.id))).toEqual(before);
  });

  it('an address change clears emailConfirmed; the same address in another case does not', async () => {
    const u = await j.user(fresh('ed-confirm'), { email: `${fresh('conf')}@example.org` });
    await sql('UPDATE users SET email_confirmed = 1 WHERE id = ?', u.id);
    const sameAddress = ((await userRow(u.id)).email as string).toUpperCase();
    const same = await admin.call(ops.updateUser, { params: { id: u.id }, body: { email: sameAddress } });
    expect(same.emailConfirmed).toBe(true);
    const changed = await admin.call(ops.updateUser, { params: { id: u.id }, body: { email: `${fresh('new')}@example.org` } });
    expect(changed.emailConfirmed).toBe(false);
    expect((await userRow(u.id)).email_confirmed).toBe(0);
  });

  it('refuses an address another account has with 409 user.email.taken, changing nothing', async () => {
    await j.user(fresh('ed-holder'), { email: 'Holder@Example.org' });
    const u = await j.user(fresh('ed-wants'), { email: 'wants@example.org' });
    const before = (await userRow(u.id));
    await refused(admin.call(ops.updateUser, { params: { id: u.id }, body: { email: 'holder@example.ORG', firstName: 'Changed' } }), 409, 'user.email.taken');
    expect((await userRow(u.id))).toEqual(before);
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
    const before = (await userRow(u.id));
    const res = await send('PUT', `/users/${u.id}`, admin.accessToken, { lastName: 'Changed', ...body });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toHaveProperty([field]);
    expect((await userRow(u.id))).toEqual(before);
  });

  it('refuses malformed JSON with 400, changing nothing', async () => {
    const u = await j.user(fresh('ed-malformed'));
    const before = (await userRow(u.id));
    const res = await send('PUT', `/users/${u.id}`, admin.accessToken, '{"firstName":');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('request.malformed');
    expect((await userRow(u.id))).toEqual(before);
  });

  it('refuses a plain user (403 naming user:update) and anonymous callers (401), changing nothing', async () => {
    const target = await j.user(fresh('ed-victim'));
    const plainUser = await j.user(fresh('ed-plain'));
    const plain = await j.signIn(plainUser);
    const before = (await userRow(target.id));
    const pb = await refused(plain.call(ops.updateUser, { params: { id: target.id }, body: { note: 'hacked' } }), 403, 'forbidden');
    expect(pb.detail).toContain('user:update');
    // not even their own record: editing accounts is an administrative power
    await refused(plain.call(ops.updateUser, { params: { id: plainUser.id }, body: { note: 'self' } }), 403, 'forbidden');
    await refused(j.anonymous().call(ops.updateUser, { params: { id: target.id }, body: { note: 'anon' } }), 401, 'unauthenticated');
    expect((await userRow(target.id))).toEqual(before);
  });

  it('lets a holder of user:update edit a plain account but not an administrator', async () => {
    const { client: editor } = await holderOf('editor', ['user:update', 'user:read:all']);
    const target = await j.user(fresh('ed-plain-target'));
    expect(await editor.call(ops.updateUser, { params: { id: target.id }, body: { note: 'by editor' } })).toMatchObject({ note: 'by editor' });

    const adminBefore = (await userRow(adminId));
    await refused(editor.call(ops.updateUser, { params: { id: adminId }, body: { note: 'owned', email: 'evil@example.org' } }), 403, 'forbidden');
    expect((await userRow(adminId))).toEqual(adminBefore);
  });
});
