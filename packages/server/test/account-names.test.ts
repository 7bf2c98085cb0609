import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { refusedWith } from './expect.js';
import { TestJudge } from './harness.js';

/**
 * Who may change their own login and name (PUT /account) over real HTTP and SQLite: a class's
 * accounts keep what staff gave them (a student renamed himself "admin2", "Der Lehrer", and the
 * standings showed it) unless an administrator turns allowRenameStaffAccounts on; self-registered
 * ones change them only under allowRenameSelfRegistered. Address and password stay the owner's.
 */

let j: TestJudge;
let admin: JudgeClient;
let seq = 0;
const fresh = (stem: string) => `${stem}-${++seq}`;
const row = async (id: string) => (await j.query('SELECT username, first_name, last_name, email, origin FROM users WHERE id = ?', id))[0]!;
const switches = (body: { allowRenameStaffAccounts?: boolean; allowRenameSelfRegistered?: boolean }) => admin.call(ops.updateInstance, { body });

beforeAll(async () => {
  j = await TestJudge.start();
  admin = await j.admin();
});
afterAll(() => j.stop());

/** A student account as a teacher makes one (users create; the class list import makes the same). */
async function student(): Promise<{ id: string; c: JudgeClient; password: string }> {
  const u = await j.user(fresh('student'), { firstName: 'Max', lastName: 'Muster', email: `${fresh('max')}@school.example` });
  return { id: u.id, c: await j.signIn(u), password: u.password };
}

/** An account its owner registered. */
async function registered(): Promise<{ id: string; c: JudgeClient }> {
  await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: true } });
  const username = fresh('self');
  const c = j.anonymous();
  await c.call(ops.register, { body: { email: `${username}@home.example`, password: 'a-long-password-1', username } });
  await c.login(username, 'a-long-password-1');
  return { id: (await c.call(ops.getAccount)).userId, c };
}

describe('an account staff created', () => {
  it('keeps its login and name: 403 account.nameFixed saying why, nothing changed', async () => {
    const s = await student();
    expect(await s.c.call(ops.getAccount)).toMatchObject({ origin: 'staff', mayChangeUsername: false, mayChangeName: false });
    const before = await row(s.id);
    const login = await refusedWith(s.c.call(ops.updateAccount, { body: { username: 'admin2' } }), 403, 'account.nameFixed');
    expect(login.detail).toMatch(/made by the organisers/);
    expect(login.errors).toHaveProperty('username');
    await refusedWith(s.c.call(ops.updateAccount, { body: { firstName: 'Der', lastName: 'Lehrer' } }), 403, 'account.nameFixed');
    await refusedWith(s.c.call(ops.updateAccount, { body: { lastName: null } }), 403, 'account.nameFixed');
    // a refused name takes the address sent with it down too: one request, one outcome
    await refusedWith(s.c.call(ops.updateAccount, { body: { firstName: 'Der Lehrer', email: 'new@school.example' } }), 403, 'account.nameFixed');
    expect(await row(s.id)).toEqual(before);
  });

  it('still changes its own address and password, with the unchanged names sent along (as the page sends them)', async () => {
    const s = await student();
    const { firstName, lastName, username } = await s.c.call(ops.getAccount);
    const address = `${fresh('own')}@home.example`;
    const after = await s.c.call(ops.updateAccount, { body: { firstName, lastName, username, email: address } });
    expect(after).toMatchObject({ email: address, firstName: 'Max', lastName: 'Muster', username });
    await s.c.call(ops.changePassword, { body: { currentPassword: s.password, newPassword: 'my-own-password-1' } });
    await j.anonymous().login(username, 'my-own-password-1');
  });

  it('changes login and name once an administrator turns allowRenameStaffAccounts on, and not after it is off again', async () => {
    const s = await student();
    try {
      expect((await switches({ allowRenameStaffAccounts: true })).allowRenameStaffAccounts).toBe(true);
      expect(await s.c.call(ops.getAccount)).toMatchObject({ mayChangeUsername: true, mayChangeName: true });
      const renamed = fresh('renamed');
      expect(await s.c.call(ops.updateAccount, { body: { username: renamed, firstName: 'Maxi' } })).toMatchObject({ username: renamed, firstName: 'Maxi' });
    } finally {
      await switches({ allowRenameStaffAccounts: false });
    }
    await refusedWith(s.c.call(ops.updateAccount, { body: { firstName: 'Again' } }), 403, 'account.nameFixed');
  });

  it('does not hold back an administrator on their own account', async () => {
    expect(await admin.call(ops.getAccount)).toMatchObject({ mayChangeUsername: true, mayChangeName: true });
    expect(await admin.call(ops.updateAccount, { body: { firstName: 'Head' } })).toMatchObject({ firstName: 'Head' });
  });
});

describe('a self-registered account', () => {
  it('is marked self and keeps its name until allowRenameSelfRegistered is on; the staff switch is not its switch', async () => {
    const s = await registered();
    expect((await row(s.id)).origin).toBe('self');
    expect(await s.c.call(ops.getAccount)).toMatchObject({ origin: 'self', mayChangeName: false });
    await switches({ allowRenameStaffAccounts: true });
    try {
      const refused = await refusedWith(s.c.call(ops.updateAccount, { body: { firstName: 'Der Lehrer' } }), 403, 'account.nameFixed');
      expect(refused.detail).toMatch(/self-registered/);
      await switches({ allowRenameStaffAccounts: false, allowRenameSelfRegistered: true });
      expect(await s.c.call(ops.updateAccount, { body: { firstName: 'Dana' } })).toMatchObject({ firstName: 'Dana', mayChangeName: true });
    } finally {
      await switches({ allowRenameStaffAccounts: false, allowRenameSelfRegistered: false });
    }
    expect((await row(s.id)).first_name).toBe('Dana');
  });
});

describe('the switches', () => {
  it('are off on a fresh installation, and only an administrator sets them', async () => {
    const fresh = await TestJudge.start();
    try {
      expect(await fresh.anonymous().call(ops.getInstance, {})).toMatchObject({ allowRenameStaffAccounts: false, allowRenameSelfRegistered: false, keepSignedInByDefault: false });
      const s = await fresh.signIn(await fresh.user('plain-student'));
      await refusedWith(s.call(ops.updateInstance, { body: { allowRenameStaffAccounts: true } }), 403, 'forbidden');
      expect((await fresh.anonymous().call(ops.getInstance, {})).allowRenameStaffAccounts).toBe(false);
    } finally {
      await fresh.stop();
    }
  });
});
