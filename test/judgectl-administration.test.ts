import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Grant, type Role, type Session } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import type { ManagedUser } from '@judge/contract';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { ADMIN_PASSWORD, TestJudge, type TestUser } from '../packages/server/test/harness.js';
import { judgectlIn } from './cli-child.js';
import { judgectlAs, type CtlSession } from './judgectl-child.js';

// each call is a Node process of its own: on a loaded machine a dozen outlast the default timeout.
// `judgectl users edit|sessions|sign-out|show`, `roles`, `grants` and `instance` against a real
// server, each call a child process: the terminal side of the staff administration pages.

describe('judgectl administration', { timeout: 300_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let ctl: CtlSession;
  let zoe: TestUser;
  let tom: TestUser;
  let activityId: string;
  const sessions: CtlSession[] = [];

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    ctl = await judgectlAs(j.url, 'admin', ADMIN_PASSWORD);
    sessions.push(ctl);
    activityId = (await admin.call(ops.createActivity, { body: { slug: 'lab', name: 'Lab', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC' } })).id;
    zoe = await j.user('zoe');
    tom = await j.user('tom');
  });
  afterAll(async () => {
    for (const s of sessions) s.close();
    await j?.stop();
  });

  it('edits an account, shows it, lists its sessions and signs it out, one session or all', async () => {
    const saved = await ctl.ok<ManagedUser>('users', 'edit', 'zoe', '--first-name', 'Zoe', '--tags', 'lab, evening', '--note', 'desk 4');
    expect(saved).toMatchObject({ username: 'zoe', firstName: 'Zoe', tags: ['lab', 'evening'], note: 'desk 4' });
    // an empty value clears the field; a field not named stays
    expect(await ctl.ok<ManagedUser>('users', 'edit', 'zoe', '--note', '')).not.toHaveProperty('note');
    expect(await ctl.ok<ManagedUser>('users', 'show', 'zoe')).toMatchObject({ id: zoe.id, firstName: 'Zoe', tags: ['lab', 'evening'] });

    const a = new JudgeClient({ baseUrl: j.url, userAgent: 'lab-pc-1' });
    await a.login('zoe', zoe.password);
    const b = new JudgeClient({ baseUrl: j.url, userAgent: 'lab-pc-2' });
    await b.login('zoe', zoe.password);
    const listed = await ctl.ok<Session[]>('users', 'sessions', 'zoe');
    expect(listed.map((s) => s.userAgent)).toEqual(['lab-pc-2', 'lab-pc-1']);
    const shown = await ctl.run('users', 'sessions', 'zoe');
    expect(shown.stdout).toContain('lab-pc-1');
    expect(shown.stdout).toContain('2 sessions');

    await ctl.ok('users', 'sign-out', 'zoe', '--session', listed[1]!.id);
    expect((await admin.call(ops.listUserSessions, { params: { userId: zoe.id } })).map((s) => s.userAgent)).toEqual(['lab-pc-2']);
    const all = await ctl.run('users', 'sign-out', 'zoe');
    expect(all.status, all.stderr).toBe(0);
    expect(all.stdout).toContain('Signed zoe out everywhere.');
    expect(await admin.call(ops.listUserSessions, { params: { userId: zoe.id } })).toEqual([]);
    expect((await ctl.run('users', 'sessions', 'zoe')).stdout).toContain('zoe is not signed in anywhere.');
  });

  it('creates temporary guests enrolled in an activity, printing their passwords once, and approves an account', async () => {
    const made = await ctl.ok<{ username: string; password: string }[]>('users', 'temporary', '--prefix', 'guest', '--count', '2', '--activity', 'lab');
    expect(made.map((i) => i.username)).toEqual(['guest01', 'guest02']);
    const guest = new JudgeClient({ baseUrl: j.url });
    await guest.login('guest02', made[1]!.password);
    expect((await guest.call(ops.getActivity, { params: { idOrSlug: 'lab' } })).id).toBe(activityId);
    const printed = await ctl.run('users', 'temporary', '--prefix', 'guest', '--count', '1');
    expect(printed.status, printed.stderr).toBe(0);
    expect(printed.stdout).toMatch(/guest03\s*│\s*\S{10,}/);
    expect(printed.stdout).toContain('Created 1 temporary account.');
    expect(printed.stdout).toContain('shown this once');
    const refused = await ctl.run('users', 'temporary', '--prefix', 'guest', '--count', '0');
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('must be at least 1');

    // slips: the credentials into a file of the caller's only, never over one that exists
    const dir = mkdtempSync(join(tmpdir(), 'judgectl-slips-'));
    try {
      const out = join(dir, 'guests.csv');
      const slips = await ctl.run('users', 'temporary', '--prefix', 'slip', '--count', '2', '--out', out);
      expect(slips.status, slips.stderr).toBe(0);
      expect(slips.stdout).toContain(`their logins and passwords are in ${out}`);
      const lines = readFileSync(out, 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
      expect(lines[0]).toBe('username,password,userId,activity');
      expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['slip01', 'slip02']);
      expect(statSync(out).mode & 0o777).toBe(0o600);
      const again = await ctl.run('users', 'temporary', '--prefix', 'slip', '--count', '1', '--out', out);
      expect(again.status).not.toBe(0);
      expect(again.stderr).toContain('nothing was created');
      expect((await admin.call(ops.listManagedUsers, { query: { search: 'slip03' } })).items).toEqual([]);
      // refused by the server: no file is left behind
      const none = join(dir, 'none.csv');
      const bad = await ctl.run('users', 'temporary', '--prefix', 'bad prefix', '--count', '1', '--out', none);
      expect(bad.status).not.toBe(0);
      expect(bad.stderr).toContain('validation_failed');
      expect(existsSync(none)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: true, requireApproval: true } });
    try {
      await j.anonymous().call(ops.register, { body: { email: 'walk-in@school.example', password: 'a long enough password', username: 'walkin' } });
      expect((await ctl.ok<ManagedUser>('users', 'show', 'walkin')).approvedAt).toBeUndefined();
      const approved = await ctl.ok<ManagedUser>('users', 'approve', 'walkin');
      expect(approved).toMatchObject({ username: 'walkin', approvedAt: expect.any(String) });
      expect((await ctl.run('users', 'approve', 'walkin')).stdout).toContain('Approved walkin');
    } finally {
      await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: false, requireApproval: false } });
    }
  });

  it('creates a co-teacher role from the template, grants it in an activity, takes it back, and deletes the role', async () => {
    const role = await ctl.ok<Role>('roles', 'create', 'Co-teacher', '--co-teacher', '--description', 'runs the lab with me');
    const manager = (await admin.call(ops.listRoles, { query: {} })).find((r) => r.builtInKey === 'manager')!;
    expect(role.permissions).toEqual(expect.arrayContaining([...manager.permissions, 'printout:manage']));
    expect((await ctl.run('roles', 'list')).stdout).toContain('Co-teacher');

    const g = await ctl.ok<Grant>('grants', 'give', 'tom', 'co-teacher', '--activity', 'lab');
    expect(g).toMatchObject({ userId: tom.id, roleName: 'Co-teacher', activityId });
    const tomClient = await j.signIn(tom);
    expect(await tomClient.call(ops.myPermissions, { query: { activityId } })).toEqual(expect.arrayContaining(['printout:manage', 'question:answer']));
    const listed = await ctl.ok<Grant[]>('grants', 'list', '--user', 'tom');
    expect(listed.map((x) => x.id)).toEqual([g.id]);
    expect((await ctl.run('grants', 'list', '--activity', 'lab')).stdout).toContain('Co-teacher');

    // granted, it cannot go; taken back, it can
    expect(await ctl.refused('roles', 'delete', 'Co-teacher')).toMatch(/role\.inUse/);
    await ctl.ok('grants', 'take', g.id);
    expect(await tomClient.call(ops.myPermissions, { query: { activityId } })).not.toContain('printout:manage');
    const edited = await ctl.ok<Role>('roles', 'edit', 'Co-teacher', '--remove', 'printout:manage', '--name', 'Helper');
    expect(edited.name).toBe('Helper');
    expect(edited.permissions).not.toContain('printout:manage');
    await ctl.ok('roles', 'delete', 'Helper');
    expect((await admin.call(ops.listRoles, { query: {} })).map((r) => r.name)).not.toContain('Helper');
    // built-in roles stay
    expect(await ctl.refused('roles', 'delete', 'Manager')).toMatch(/role\.builtIn/);
    expect(await ctl.refused('roles', 'create', 'Empty')).toMatch(/at least one permission/);
  });

  it('signs in with a second factor, turns the two-factor sign-in of an account off, and sets the rule that requires it', async () => {
    const ann = await j.user('ann');
    const own = await j.signIn(ann);
    const { sharedKey } = await own.call(ops.manageTwoFactor, { body: {} });
    const totp = new TOTP({ secret: Secret.fromBase32(sharedKey), digits: 6, period: 30, algorithm: 'SHA1' });
    const on = await own.call(ops.manageTwoFactor, { body: { enable: true, twoFactorCode: totp.generate() } });

    const home = mkdtempSync(join(tmpdir(), 'judgectl-2fa-'));
    try {
      writeFileSync(join(home, 'pw'), `${ann.password}\n`);
      const { ctl } = judgectlIn(home);
      const login = (...more: string[]) => ctl('login', '--server', j.url, '--username', 'ann', '--password-file', join(home, 'pw'), ...more);
      // not on a terminal: nothing to ask with, so it says what to give
      const asked = await login();
      expect(asked.status).not.toBe(0);
      expect(asked.stderr).toContain('--code');
      expect((await login('--recovery-code', 'AAAA-BBBB-CCCC-DDDD')).stderr).toContain('wrong username or password');
      const recovered = await login('--recovery-code', on.recoveryCodes[0]!);
      expect(recovered.status, recovered.stderr).toBe(0);
      expect(recovered.stdout).toContain('Signed in');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }

    expect((await ctl.run('users', 'show', 'ann')).stdout).toMatch(/two-factor\s*│?\s*on/);
    expect(await ctl.ok<ManagedUser>('users', 'edit', 'ann', '--no-two-factor')).toMatchObject({ twoFactorEnabled: false });
    expect((await j.anonymous().login('ann', ann.password)).accessToken).toEqual(expect.any(String));

    // the administrator holds every key: a rule naming one waits until their own is on
    expect(await ctl.refused('instance', 'set', 'requireTwoFactorFor', 'user:update,grant:update')).toMatch(/instance\.twoFactor\.enableFirst/);
    expect((await admin.call(ops.getInstance)).requireTwoFactorFor).toEqual([]);
    expect((await ctl.run('instance', 'show')).stdout).toMatch(/requireTwoFactorFor\s*│?\s*\(none\)/);
  });

  it('previews a merge, merges two accounts, lists the merge and undoes it', async () => {
    const guest = await j.user('guest-merge');
    await j.user('own-merge');
    const shown = await ctl.run('users', 'merge', 'guest-merge', 'own-merge', '--preview');
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('Nothing stands in the way');
    const m = await ctl.ok<{ id: string; canUndo: boolean }>('users', 'merge', 'guest-merge', 'own-merge');
    expect(m.canUndo).toBe(true);
    expect((await admin.call(ops.getManagedUser, { params: { id: guest.id } })).blockedReason).toBe('Merged into own-merge');
    expect((await ctl.run('users', 'merges', 'own-merge')).stdout).toMatch(new RegExp(`${m.id}.*guest-merge.*own-merge.*undoable until`));
    // merged away: a second merge is refused with the reason
    expect(await ctl.refused('users', 'merge', 'guest-merge', 'zoe')).toMatch(/merged into another account already/);
    const undone = await ctl.run('users', 'undo-merge', m.id);
    expect(undone.status, undone.stderr).toBe(0);
    expect(undone.stdout).toContain('Undone: guest-merge → own-merge');
    expect((await admin.call(ops.getManagedUser, { params: { id: guest.id } })).blockedAt).toBeUndefined();
    expect(await ctl.refused('users', 'undo-merge', 'not-an-id')).toMatch(/not a merge id/);
  });

  it('adds, lists, shows and removes an identity provider, its secret read from a file and never printed', async () => {
    await admin.call(ops.createRole, { body: { name: 'Staff room', permissions: ['activity:create'] } });
    const dir = mkdtempSync(join(tmpdir(), 'judgectl-provider-'));
    try {
      writeFileSync(join(dir, 'secret'), 'provider-client-secret-42\n');
      const added = await ctl.run('providers', 'add', 'school', '--name', 'School accounts', '--issuer', 'https://login.school.example', '--client-id', 'judge', '--client-secret-file', join(dir, 'secret'), '--claim', 'groups', '--rule', 'teachers=Staff room');
      expect(added.status, added.stderr).toBe(0);
      expect(added.stdout).toContain('/api/v1/identity/providers/school/callback');
      expect(added.stdout).toContain('teachers → Staff room');
      expect(added.stdout).not.toContain('provider-client-secret-42');
      const listed = await ctl.ok<{ slug: string; hasClientSecret: boolean }[]>('providers', 'list');
      expect(listed).toEqual([expect.objectContaining({ slug: 'school', hasClientSecret: true })]);
      expect(JSON.stringify(await ctl.ok('providers', 'show', 'school'))).not.toContain('provider-client-secret-42');
      expect(await ctl.refused('providers', 'add', 'other', '--name', 'X', '--issuer', 'https://x.example', '--client-id', 'j', '--rule', 'nonsense')).toMatch(/CLAIM-VALUE=ROLE/);
      expect((await ctl.run('providers', 'remove', 'school')).stdout).toContain('Removed school.');
      expect((await ctl.run('providers', 'list')).stdout).toContain('No identity providers');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows and sets instance switches and the name; a participant may not', async () => {
    const before = await ctl.ok<Record<string, unknown>>('instance', 'show');
    expect(before.allowRenameSelfRegistered).toBe(false);
    const on = await ctl.ok<Record<string, unknown>>('instance', 'set', 'allowRenameSelfRegistered', 'on');
    expect(on.allowRenameSelfRegistered).toBe(true);
    expect((await admin.call(ops.getInstance)).allowRenameSelfRegistered).toBe(true);
    await ctl.ok('instance', 'set', 'name', 'Lab judge');
    expect((await admin.call(ops.getInstance)).name).toBe('Lab judge');
    expect((await ctl.run('instance', 'show')).stdout).toMatch(/allowRenameSelfRegistered\s*│?\s*on/);
    expect(await ctl.refused('instance', 'set', 'allowRenameSelfRegistered', 'maybe')).toMatch(/say on or off/);

    const pupil = await judgectlAs(j.url, zoe.username, zoe.password);
    sessions.push(pupil);
    expect(await pupil.refused('instance', 'set', 'keepSignedInByDefault', 'on')).toMatch(/403/);
    expect(await pupil.refused('roles', 'list')).toMatch(/403/);
    expect(await pupil.refused('users', 'sessions', 'tom')).toMatch(/403/);
    expect((await admin.call(ops.getInstance)).keepSignedInByDefault).toBe(false);
  });
});
