import { ops, type Problem } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, TestJudge, type TestUser } from '../packages/server/test/harness.js';
import { judgectlIn } from './cli-child.js';

/**
 * `judgectl problems share` and `problems archive`, as typed in a terminal (`pnpm build` first):
 * the tasks of a problem's staff page, by an administrator, and refused to a user who may not read
 * the problem, changing nothing.
 */
describe('judgectl shares and archives problems', () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let work: string;
  let problem: Problem;
  let cal: TestUser;
  const as = { admin: judgectlIn(''), bea: judgectlIn('') };
  const now = () => admin.call(ops.getProblem, { params: { id: problem.id } });

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'judgectl-sharing-'));
    j = await TestJudge.start();
    admin = await j.admin();
    problem = await admin.call(ops.createProblem, { body: { slug: 'lent', name: 'Lent', type: 'standard-io@1' } });
    cal = await j.user('cal');
    const bea = await j.user('bea');
    for (const [who, name, password] of [['admin', 'admin', ADMIN_PASSWORD], ['bea', 'bea', bea.password]] as const) {
      const home = join(work, who);
      mkdirSync(home);
      as[who] = judgectlIn(home);
      writeFileSync(join(work, `${who}-pw`), `${password}\n`);
      expect((await as[who].ctl('login', '--server', j.url, '--username', name, '--password-file', join(work, `${who}-pw`))).status).toBe(0);
    }
  }, 120_000);
  afterAll(async () => {
    await j?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('shares a problem with users by name, with all staff, and makes it private again', async () => {
    expect(await as.admin.json<Problem>('problems', 'share', 'lent', '--with', 'cal')).toMatchObject({ visibility: 'shared', sharedWith: [cal.id] });
    expect(await now()).toMatchObject({ visibility: 'shared', sharedWith: [cal.id] });
    const text = await as.admin.ctl('problems', 'share', 'lent', '--instance');
    expect(text.stdout).toContain('lent is now instance.');
    expect((await now()).visibility).toBe('instance');
    await as.admin.json('problems', 'share', 'lent', '--private');
    expect(await now()).toMatchObject({ visibility: 'private', sharedWith: [] });
  }, 120_000);

  it('refuses two choices at once and an unknown user, changing nothing', async () => {
    expect(await as.admin.refused('problems', 'share', 'lent', '--private', '--instance')).toContain('exactly one of --private, --instance, --with');
    expect(await as.admin.refused('problems', 'share', 'lent', '--with', 'nobody-here')).toContain('no user nobody-here');
    expect(await as.admin.refused('problems', 'share', 'lent', '--with', ',')).toContain('--with needs at least one user');
    expect((await now()).visibility).toBe('private');
  }, 120_000);

  it('archives a problem out of the library and restores it', async () => {
    const archived = await as.admin.json<Problem>('problems', 'archive', 'lent');
    expect(archived.archivedAt).toBeDefined();
    expect((await admin.call(ops.listProblems, { query: { search: 'lent' } })).total).toBe(0);
    const restored = await as.admin.ctl('problems', 'archive', 'lent', '--restore');
    expect(restored.stdout).toContain('Restored lent.');
    expect((await now()).archivedAt).toBeUndefined();
    expect((await admin.call(ops.listProblems, { query: { search: 'lent' } })).total).toBe(1);
  }, 120_000);

  it('lists only the problems others shared with the caller with --shared, and only their own with --mine', async () => {
    // cal writes problems too, and gives one to all staff
    const role = await admin.call(ops.createRole, { body: { name: 'Problem author', permissions: ['problem:create', 'problem:read:own', 'problem:share'] } });
    await admin.call(ops.createGrant, { body: { userId: cal.id, roleId: role.id } });
    const calClient = new JudgeClient({ baseUrl: j.url });
    await calClient.login('cal', cal.password);
    const gift = await calClient.call(ops.createProblem, { body: { slug: 'gift', name: 'Gift', type: 'standard-io@1' } });
    await calClient.call(ops.setProblemVisibility, { params: { id: gift.id }, body: { visibility: 'instance' } });
    const slugs = async (...flags: string[]) => (await as.admin.json<Problem[]>('problems', 'list', ...flags)).map((p) => p.slug).sort();
    expect(await slugs()).toEqual(['gift', 'lent']);
    expect(await slugs('--shared')).toEqual(['gift']);
    expect(await slugs('--mine')).toEqual(['lent']);
    expect((await as.admin.ctl('problems', 'list', '--shared')).stdout).toContain('gift');
    expect(await as.admin.refused('problems', 'list', '--mine', '--shared')).toContain('at most one of --mine and --shared');
  }, 120_000);

  it('refuses both to a user who may not read the problem, and the problem stays as it was', async () => {
    expect(await as.bea.refused('problems', 'archive', 'lent')).toMatch(/no problem lent|forbidden|permission/i);
    expect(await as.bea.refused('problems', 'share', 'lent', '--instance')).toMatch(/no problem lent|forbidden|permission/i);
    expect(await now()).toMatchObject({ visibility: 'private' });
    expect((await now()).archivedAt).toBeUndefined();
  }, 120_000);
});
