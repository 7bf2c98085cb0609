import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Ranking, type Series } from '@judge/contract';
import { RunnerClient, generateRunnerKey, type JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, TestJudge } from '../packages/server/test/harness.js';
import { codeForm } from '../packages/server/test/support/forms.js';
import { legacyPackage } from '../packages/server/test/zips.js';
import { judgectlAs, type CtlSession } from './judgectl-child.js';

// `judgectl series freeze|unfreeze|reveal` against a real server, each call a child process: what a
// participant sees of the standings follows, and the dates show in the activity's time zone.

// each judgectl call is a Node process of its own: a dozen of them on a loaded machine outlast the default timeout
describe('judgectl series freeze, unfreeze and reveal', { timeout: 120_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let ctl: CtlSession;
  let asPupil: CtlSession;
  let pupil: JudgeClient;
  /** The participant's login (and, having no name, the name the standings show). */
  let pat: string;
  let work: string;
  const series = async (): Promise<Series> => (await admin.call(ops.listManagedSeries, { params: { idOrSlug: 'final' } })).find((s) => s.slug === 'main')!;
  const seen = () => pupil.call(ops.getRanking, { params: { idOrSlug: 'final' }, query: {} });
  const seriesNow = async () => JSON.stringify(await j.rows('series'));

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    work = mkdtempSync(join(tmpdir(), 'judgectl-freeze-'));
    ctl = await judgectlAs(j.url, 'admin', ADMIN_PASSWORD);
    const a = await admin.call(ops.createActivity, { body: { slug: 'final', name: 'Final', type: 'contest@1', rankingType: 'icpc', timeZone: 'Asia/Kolkata' } });
    await admin.call(ops.createSeries, { params: { idOrSlug: 'final' }, body: { slug: 'main', name: 'Main' } });
    const pkg = join(work, 'sum');
    for (const [name, content] of Object.entries(legacyPackage('Sum'))) {
      mkdirSync(dirname(join(pkg, name)), { recursive: true });
      writeFileSync(join(pkg, name), content);
    }
    await ctl.ok('problems', 'import', pkg, '--slug', 'sum');
    await ctl.ok('assign', 'final', 'main', 'sum');
    const u = await j.user('pat');
    pat = u.username;
    await j.grant(u.id, 'participant', a.id);
    pupil = await j.signIn(u);
    asPupil = await judgectlAs(j.url, u.username, u.password);
    // a judge, a problem imported through judgectl and two judgectl sessions: well over 30 s on loaded CI cores
  }, 120_000);
  afterAll(async () => {
    ctl?.close();
    asPupil?.close();
    await j?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('freezes now: a later accepted submission stays hidden from participants until the reveal', async () => {
    const before = Date.now();
    const frozen = await ctl.ok<Series>('series', 'freeze', 'final', 'main');
    expect(Date.parse(frozen.rankingFreezeAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(frozen.rankingRevealAt).toBeUndefined();
    expect(await series()).toEqual(frozen);

    // a minimal runner judges the submission made during the freeze as accepted
    const runner = new RunnerClient({ baseUrl: j.url, key: generateRunnerKey() });
    await runner.register({ name: 'lab-1', problemTypes: ['standard-io@1'] });
    await ctl.ok('runners', 'approve', runner.fingerprint.slice(0, 8));
    await pupil.call(ops.submit, { params: { idOrSlug: 'final', problemSlug: 'sum' }, form: codeForm('print(sum(map(int, input().split())))\n', 'a.py') });
    const job = await runner.claim({ waitSeconds: 5 });
    // while it judges, `runners list` names the submission it holds
    const busy = await ctl.run('runners', 'list');
    expect(busy.stdout).toMatch(new RegExp(`│\\s*lab-1\\s*│.*│\\s*final/sum #${job!.submissionId.slice(0, 8)}\\s*│`));
    const listed = await ctl.ok<{ name: string; currentJob?: unknown }[]>('runners', 'list');
    expect(listed.find((r) => r.name === 'lab-1')!.currentJob).toMatchObject({ kind: 'submission', submissionId: job!.submissionId, activitySlug: 'final', problemSlug: 'sum' });
    await runner.report(job!, { verdict: 'AC', score: 1, maxScore: 1 });
    expect((await ctl.ok<{ name: string; currentJob?: unknown }[]>('runners', 'list')).find((r) => r.name === 'lab-1')!.currentJob).toBeUndefined();
    const during = await seen();
    expect(during.frozen).toBe(true);
    expect(during.rows[0]).toMatchObject({ solved: 0 });
    // the manager sees through the freeze, and with --public sees what the participants see
    expect((await ctl.ok<Ranking>('ranking', 'final')).rows[0]).toMatchObject({ solved: 1, username: pat });
    const projected = await ctl.ok<Ranking>('ranking', 'final', '--public');
    expect(projected).toEqual(during);
    const csv = (await ctl.run('ranking', 'final', '--public', '--csv')).stdout.split('\r\n');
    expect(csv[1]).toMatch(new RegExp(`^1,,${pat},[0-9a-f-]{36},0,0,0,0,$`));
    expect((await ctl.run('ranking', 'final', '--csv')).stdout.split('\r\n')[1]).toMatch(new RegExp(`^1,${pat},${pat},[0-9a-f-]{36},1,\\d+,1,1,\\d+$`));

    const revealed = await ctl.ok<Series>('series', 'reveal', 'final', 'main');
    expect(revealed.rankingFreezeAt).toBe(frozen.rankingFreezeAt);
    expect(Date.parse(revealed.rankingRevealAt!)).toBeGreaterThanOrEqual(Date.parse(frozen.rankingFreezeAt!));
    const after = await seen();
    expect(after.frozen).toBe(false);
    expect(after.rows[0]).toMatchObject({ solved: 1 });

    // freezing again undoes the reveal that has passed; unfreeze clears both
    const again = await ctl.ok<Series>('series', 'freeze', 'final', 'main', '--at', '2026-01-01T10:00:00+05:30');
    expect([again.rankingFreezeAt, again.rankingRevealAt]).toEqual(['2026-01-01T04:30:00.000Z', undefined]);
    expect((await seen()).frozen).toBe(true);
    const thawed = await ctl.ok<Series>('series', 'unfreeze', 'final', 'main');
    expect([thawed.rankingFreezeAt, thawed.rankingRevealAt]).toEqual([undefined, undefined]);
    expect(await seen()).toMatchObject({ frozen: false, rows: [{ solved: 1 }] });
  });

  it("says where the standings stand, in the activity's time zone", async () => {
    const t = await ctl.run('series', 'freeze', 'final', 'main', '--at', '2026-01-01T04:30:00Z');
    expect(t.status, t.stderr).toBe(0);
    expect(t.stdout).toBe('main: frozen since 2026-01-01 10:00:00+05:30.\n');
    const shown = await ctl.run('activities', 'show', 'final');
    expect(shown.stdout).toMatch(/│\s*main\s*│\s*Main\s*│.*│\s*2026-01-01 10:00:00\+05:30\s*│/);
    expect((await ctl.run('series', 'reveal', 'final', 'main')).stdout).toMatch(/^main: revealed at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+05:30 \(frozen from 2026-01-01 10:00:00\+05:30\)\.\n$/);
    expect((await ctl.run('series', 'unfreeze', 'final', 'main')).stdout).toBe('main: not frozen.\n');
    const future = await ctl.run('series', 'freeze', 'final', 'main', '--at', '2099-01-01T00:00:00Z');
    expect(future.stdout).toBe('main: freezes at 2099-01-01 05:30:00+05:30.\n');
  });

  it('refuses a reveal with no freeze in force, an unknown series or activity, and bad dates, changing nothing', async () => {
    const before = await seriesNow();
    expect(await ctl.refused('series', 'reveal', 'final', 'main')).toMatch(/main freezes only at 2099-01-01 05:30:00\+05:30: `judgectl series unfreeze` drops a freeze to come/);
    expect(await ctl.refused('series', 'freeze', 'final', 'nope')).toMatch(/activity final has no series nope \(it has: main\)/);
    expect(await ctl.refused('series', 'unfreeze', 'nope', 'main')).toMatch(/no activity nope that you manage/);
    expect(await ctl.refused('series', 'freeze', 'final', 'main', '--at', 'soon')).toMatch(/not a date and time/);
    expect(await seriesNow()).toBe(before);
    await ctl.ok('series', 'unfreeze', 'final', 'main');
    const cleared = await seriesNow();
    expect(await ctl.refused('series', 'reveal', 'final', 'main')).toMatch(/main is not frozen: its standings are already shown in full/);
    expect(await seriesNow()).toBe(cleared);
  });

  it('refuses a participant', async () => {
    const before = await seriesNow();
    for (const verb of ['freeze', 'unfreeze', 'reveal']) expect(await asPupil.refused('series', verb, 'final', 'main')).toMatch(/no activity final that you manage/);
    expect(await seriesNow()).toBe(before);
  });
});
