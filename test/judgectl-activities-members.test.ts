import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, TestJudge, type TestUser } from '../packages/server/test/harness.js';
import { judgectlAs, type CtlSession } from './judgectl-child.js';

// `judgectl activities members|enrol|remove|managers|grant-manager|revoke-manager` against a real
// server, each call a child process: existing accounts in and out of an activity through grants.

// each judgectl call is a Node process of its own: a dozen of them on a loaded machine outlast the default timeout
describe('judgectl activity members and managers', { timeout: 120_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let ctl: CtlSession;
  let work: string;
  const users: Record<string, TestUser> = {};
  const sessions: CtlSession[] = [];
  /** Each member of the activity as `username:role`, sorted. */
  const roster = async (slug = 'fall') => {
    const a = await admin.call(ops.getManagedActivity, { params: { idOrSlug: slug } });
    const grants = (await admin.call(ops.listGrants, { query: { activityId: a.id, pageSize: 200 } })).items;
    const byId = new Map(Object.values(users).map((u) => [u.id, u.username]));
    return grants.map((g) => `${byId.get(g.userId) ?? g.userName}:${g.roleName}`).sort();
  };
  const grantsNow = async () => JSON.stringify(await j.rows('grants'));
  const as = async (name: string) => {
    const s = await judgectlAs(j.url, users[name]!.username, users[name]!.password);
    sessions.push(s);
    return s;
  };

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    work = mkdtempSync(join(tmpdir(), 'judgectl-members-'));
    ctl = await judgectlAs(j.url, 'admin', ADMIN_PASSWORD);
    sessions.push(ctl);
    await admin.call(ops.createActivity, { body: { slug: 'fall', name: 'Fall', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC' } });
    for (const name of ['ann', 'bob', 'cid', 'dan', 'eve', 'tom']) users[name] = await j.user(name, { firstName: name.toUpperCase() });
  });
  afterAll(async () => {
    for (const s of sessions) s.close();
    await j?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('enrols existing accounts by username or id as participants', async () => {
    const r = await ctl.ok('activities', 'enrol', 'fall', 'ann', users.bob!.id);
    expect(r).toEqual({
      activity: 'fall',
      changed: [
        { userId: users.ann!.id, username: 'ann', was: null, now: 'participant' },
        { userId: users.bob!.id, username: 'bob', was: null, now: 'participant' },
      ],
      unchanged: [],
    });
    expect(await roster()).toEqual(['admin:Manager', 'ann:Participant', 'bob:Participant'].sort());
    const c = await j.signIn(users.ann!);
    expect((await c.call(ops.getActivity, { params: { idOrSlug: 'fall' } })).enrolled).toBe(true);
  });

  it('reports users who are already members and enrols the rest', async () => {
    const r = await ctl.run('activities', 'enrol', 'fall', 'ANN', 'cid', 'admin');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Enrolled as participants in fall: cid.');
    expect(r.stdout).toContain('ann: already a member (participant), left as it was.');
    // the creator stays a manager: enrolling never demotes
    expect(r.stdout).toContain('admin: already a member (manager), left as it was.');
    expect(await roster()).toContain('admin:Manager');
    expect(await roster()).toContain('cid:Participant');
  });

  it('refuses the whole list when one user is unknown, before anything changes', async () => {
    const before = await grantsNow();
    expect(await ctl.refused('activities', 'enrol', 'fall', 'dan', 'nobody', 'ghost')).toMatch(/no account nobody, ghost; nothing changed/);
    expect(await ctl.refused('activities', 'enrol', 'nope', 'dan')).toMatch(/no activity nope that you manage/);
    expect(await ctl.refused('activities', 'enrol', 'fall')).toMatch(/name at least one user, or give --from-csv FILE/);
    expect(await ctl.refused('activities', 'remove', 'fall', 'ann', 'nobody')).toMatch(/no account nobody; nothing changed/);
    expect(await ctl.refused('activities', 'grant-manager', 'fall', 'nobody')).toMatch(/no account nobody; nothing changed/);
    expect(await grantsNow()).toBe(before);
  });

  it('enrols the usernames of a users CSV, and refuses a faulty one', async () => {
    const csv = join(work, 'class.csv');
    writeFileSync(csv, 'username,firstName,lastName,email\ndan,Dan,,\neve,Eve,,eve@example.com\n');
    const r = await ctl.ok('activities', 'enrol', 'fall', '--from-csv', csv);
    expect(r.changed.map((x: { username: string }) => x.username)).toEqual(['dan', 'eve']);
    expect(await roster()).toEqual(expect.arrayContaining(['dan:Participant', 'eve:Participant']));
    const bad = join(work, 'bad.csv');
    writeFileSync(bad, 'login\nann\n');
    const before = await grantsNow();
    expect(await ctl.refused('activities', 'enrol', 'fall', '--from-csv', bad)).toMatch(/unknown column "login"/);
    expect(await grantsNow()).toBe(before);
  });

  it('lists the members with their roles, as a table and as JSON', async () => {
    const t = await ctl.run('activities', 'members', 'fall');
    expect(t.status, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/│\s*ann\s*│\s*ANN\s*│\s*participant\s*│/);
    expect(t.stdout).toMatch(/│\s*admin\s*│\s*admin\s*│\s*manager\s*│/);
    expect(t.stdout).toMatch(/6 members of fall/);
    const list = await ctl.ok('activities', 'members', 'fall');
    expect(list.map((m: { username: string; role: string }) => `${m.username}:${m.role}`)).toEqual([
      'admin:manager', 'ann:participant', 'bob:participant', 'cid:participant', 'dan:participant', 'eve:participant',
    ]);
    expect(list[1]).toMatchObject({ userId: users.ann!.id, name: 'ANN', grantId: expect.any(String), since: expect.stringMatching(/Z$/) });
  });

  it('removes participants, reports non-members and leaves managers to revoke-manager', async () => {
    const r = await ctl.ok('activities', 'remove', 'fall', 'bob', 'tom', 'admin');
    expect(r.changed).toEqual([{ userId: users.bob!.id, username: 'bob', was: 'participant', now: null }]);
    expect(r.unchanged.map((k: { username: string; role: string | null }) => `${k.username}:${k.role}`)).toEqual(['tom:null', 'admin:manager']);
    expect(await roster()).not.toContain('bob:Participant');
    expect(await roster()).toContain('admin:Manager');
    const again = await ctl.run('activities', 'remove', 'fall', 'bob');
    expect(again.stdout).toContain('Nothing changed in fall.');
    expect(again.stdout).toContain('bob: not a member, left as it was.');
  });

  it('makes a co-manager, who may then manage the activity, and takes it back', async () => {
    const made = await ctl.ok('activities', 'grant-manager', 'fall', 'tom', 'ann');
    expect(made.changed.map((x: { username: string; was: string | null; now: string }) => [x.username, x.was, x.now])).toEqual([
      ['tom', null, 'manager'],
      ['ann', 'participant', 'manager'],
    ]);
    const again = await ctl.ok('activities', 'grant-manager', 'fall', 'tom');
    expect(again.unchanged).toEqual([{ userId: users.tom!.id, username: 'tom', role: 'manager', reason: 'already a manager' }]);
    expect((await ctl.ok('activities', 'managers', 'fall')).map((m: { username: string }) => m.username)).toEqual(['admin', 'ann', 'tom']);

    // tom manages fall now: he enrols by id (a manager may not look accounts up by name) and lists members
    const tom = await as('tom');
    expect((await tom.ok('activities', 'enrol', 'fall', users.bob!.id)).changed).toHaveLength(1);
    expect(await tom.refused('activities', 'enrol', 'fall', 'cid')).toMatch(/needs the permission user:read:all.*give user ids instead of cid; nothing changed/);
    const seen = await tom.ok('activities', 'members', 'fall');
    expect(seen.map((m: { name: string }) => m.name)).toContain('BOB');

    const revoked = await ctl.ok('activities', 'revoke-manager', 'fall', 'ann', 'cid');
    expect(revoked.changed).toEqual([{ userId: users.ann!.id, username: 'ann', was: 'manager', now: null }]);
    expect(revoked.unchanged).toEqual([{ userId: users.cid!.id, username: 'cid', role: 'participant', reason: 'not a manager' }]);
    expect(await roster()).not.toContain('ann:Manager');
    expect(await roster()).not.toContain('ann:Participant');
  });

  it('refuses a participant every membership command, changing nothing', async () => {
    const cid = await as('cid');
    const before = await grantsNow();
    for (const args of [
      ['members', 'fall'],
      ['managers', 'fall'],
      ['enrol', 'fall', users.dan!.id],
      ['remove', 'fall', users.dan!.id],
      ['grant-manager', 'fall', users.cid!.id],
      ['revoke-manager', 'fall', users.tom!.id],
    ]) {
      expect(await cid.refused('activities', ...args)).toMatch(/no activity fall that you manage/);
    }
    expect(await grantsNow()).toBe(before);
  });
});
