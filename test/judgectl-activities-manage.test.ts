import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, TestJudge, type TestUser } from '../packages/server/test/harness.js';
import { codeForm } from '../packages/server/test/support/forms.js';
import { legacyPackage } from '../packages/server/test/zips.js';
import { CTL, judgectlAs, type CtlSession } from './judgectl-child.js';

// `judgectl activities update|show|delete` against a real server, each call a child process:
// every setting an administrator changes, the dates in the activity's time zone, and refusals.

// each judgectl call is a Node process of its own: a dozen of them on a loaded machine outlast the default timeout
describe('judgectl activities update and delete', { timeout: 120_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let ctl: CtlSession;
  let pupil: TestUser;
  let asPupil: CtlSession;
  let asTeacher: CtlSession;
  let work: string;
  const stored = (slug: string) => admin.call(ops.getManagedActivity, { params: { idOrSlug: slug } });
  const tables = async () => JSON.stringify(await Promise.all(['activities', 'grants', 'series'].map((t) => j.rows(t))));
  const make = (slug: string, extra: Record<string, unknown> = {}) =>
    admin.call(ops.createActivity, { body: { slug, name: slug, type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', ...extra } });

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    work = mkdtempSync(join(tmpdir(), 'judgectl-manage-'));
    ctl = await judgectlAs(j.url, 'admin', ADMIN_PASSWORD);
    const fall = await make('fall', { timeZone: 'Europe/Berlin' });
    pupil = await j.user('pia');
    await j.grant(pupil.id, 'participant', fall.id);
    asPupil = await judgectlAs(j.url, pupil.username, pupil.password);
    const teacher = await j.user('tess');
    await j.grant(teacher.id, 'manager', fall.id);
    asTeacher = await judgectlAs(j.url, teacher.username, teacher.password);
  });
  afterAll(async () => {
    for (const s of [ctl, asPupil, asTeacher]) s?.close();
    await j?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('changes exactly the settings given and answers the stored activity as JSON', async () => {
    const before = await stored('fall');
    const r = await ctl.ok<Activity>(
      'activities', 'update', 'fall',
      '--name', 'Fall round', '--no-questions', '--printouts', '--score-visibility', 'managersOnly',
      '--no-show-compile-output', '--show-test-results', '--max-submissions', '5', '--max-upload-bytes', '64K',
      '--max-attachments', '3', '--join', 'password', '--join-password', 'sesame', '--hide-ended-problems',
      '--runner-tags', 'lab,fast', '--props', '{"colour":"teal"}',
    );
    const after = await stored('fall');
    expect(r).toEqual(after);
    expect(after).toMatchObject({
      name: 'Fall round',
      modules: { questions: false, printouts: true },
      scoreVisibility: 'managersOnly',
      maxSubmissionsPerProblem: 5,
      maxUploadBytes: 65536,
      maxAttachments: 3,
      joinPolicy: 'password',
      joinPassword: 'sesame',
      hideEndedSeriesProblems: true,
      runnerTags: ['lab', 'fast'],
      props: { colour: 'teal' },
    });
    expect(after.attachmentVisibility).toEqual(
      expect.arrayContaining([
        { name: 'compile', visibility: 'managersOnly' },
        { name: 'details', visibility: 'participant' },
      ]),
    );
    // what was not named keeps its value
    expect([after.timeZone, after.rankingType, after.type, after.showGroupMembers, after.unlisted]).toEqual([
      before.timeZone, before.rankingType, before.type, before.showGroupMembers, before.unlisted,
    ]);

    // one switch again: the other attachment settings stay, and none clears a cap
    await ctl.ok('activities', 'update', 'fall', '--show-compile-output', '--max-submissions', 'none', '--props', 'none');
    const again = await stored('fall');
    expect(again.attachmentVisibility).toEqual(
      expect.arrayContaining([
        { name: 'compile', visibility: 'participant' },
        { name: 'details', visibility: 'participant' },
      ]),
    );
    expect(again.maxSubmissionsPerProblem).toBeUndefined();
    expect(again.props ?? {}).toEqual({});
    expect(again.name).toBe('Fall round');
  });

  it('shows the settings after an update as a table', async () => {
    const r = await ctl.run('activities', 'update', 'fall', '--max-submissions', '7', '--no-show-judge-log');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Updated fall\./);
    expect(r.stdout).toMatch(/max submissions\s*│\s*7\s/);
    expect(r.stdout).toMatch(/test results shown\s*│\s*yes\s/);
    expect(r.stdout).toMatch(/judge log shown\s*│\s*no\s/);
    expect(r.stdout).toMatch(/questions\s*│\s*no\s/);
  });

  it("shows an activity's dates in its time zone, with the offset; JSON keeps the server's UTC", async () => {
    await ctl.ok('activities', 'update', 'fall', '--start', '2026-11-23T19:52:00+01:00', '--end', '2026-11-23T23:00:00Z');
    const a = await stored('fall');
    expect([a.startDate, a.endDate]).toEqual(['2026-11-23T18:52:00.000Z', '2026-11-23T23:00:00.000Z']);
    await admin.call(ops.createSeries, { params: { idOrSlug: 'fall' }, body: { slug: 'main', name: 'Main', startDate: '2026-11-23T18:52:00Z', rankingFreezeAt: '2026-11-23T22:00:00Z' } });

    const shown = await ctl.run('activities', 'show', 'fall');
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/time zone\s*│\s*Europe\/Berlin/);
    expect(shown.stdout).toMatch(/start\s*│\s*2026-11-23 19:52:00\+01:00/);
    expect(shown.stdout).toMatch(/end\s*│\s*2026-11-24 00:00:00\+01:00/);
    // the series table too: start and freeze
    expect(shown.stdout).toMatch(/main\s*│\s*Main\s*│\s*2026-11-23 19:52:00\+01:00\s*│\s*│\s*2026-11-23 23:00:00\+01:00/);
    const json = await ctl.ok('activities', 'show', 'fall');
    expect([json.startDate, json.series[0].rankingFreezeAt]).toEqual(['2026-11-23T18:52:00.000Z', '2026-11-23T22:00:00.000Z']);
    const listed = await ctl.run('activities', 'list');
    expect(listed.stdout).toMatch(/2026-11-23 19:52:00\+01:00/);

    // a date without an offset goes to the server as typed: in a UTC activity it is UTC
    await make('plain');
    await ctl.ok('activities', 'update', 'plain', '--start', '2026-12-01T10:00');
    expect((await stored('plain')).startDate).toBe('2026-12-01T10:00:00.000Z');
    expect((await ctl.run('activities', 'show', 'plain')).stdout).toMatch(/start\s*│\s*2026-12-01 10:00:00Z/);
    await ctl.ok('activities', 'update', 'plain', '--start', 'none');
    expect((await stored('plain')).startDate).toBeUndefined();
  });

  it('refuses an unknown activity, nothing to change, bad values and what the server refuses, changing nothing', async () => {
    const before = await tables();
    expect(await ctl.refused('activities', 'update', 'nope', '--name', 'X')).toMatch(/no activity nope that you manage/);
    expect(await ctl.refused('activities', 'update', 'fall')).toMatch(/nothing to change/);
    expect(await ctl.refused('activities', 'update', 'fall', '--max-submissions', '0')).toMatch(/--max-submissions.*must be at least 1/);
    expect(await ctl.refused('activities', 'update', 'fall', '--start', 'tomorrow')).toMatch(/not a date and time/);
    expect(await ctl.refused('activities', 'update', 'fall', '--props', '[1]')).toMatch(/not a JSON object/);
    expect(await ctl.refused('activities', 'update', 'fall', '--ranking', 'elo')).toMatch(/Allowed choices are icpc, points/);
    expect(await ctl.refused('activities', 'update', 'fall', '--time-zone', 'Mars/Olympus')).toMatch(/422 validation_failed/);
    // the password policy needs a password to be left
    expect(await ctl.refused('activities', 'update', 'fall', '--no-join-password')).toMatch(/joinPassword: is required with the password join policy/);
    expect(await ctl.refused('activities', 'update', 'fall', '--start', '2026-11-25T00:00Z')).toMatch(/endDate: must not be before startDate/);
    expect(await tables()).toBe(before);
  });

  it('duplicates an activity with its series, every date shifted so the first start lands on --start, unpublished; refuses a taken slug and a participant', async () => {
    const spring = await make('spring', { timeZone: 'Europe/Berlin' });
    await admin.call(ops.createSeries, { params: { idOrSlug: spring.id }, body: { slug: 'r1', name: 'Round 1', startDate: '2027-03-01T09:00:00Z', endDate: '2027-03-01T12:00:00Z', rankingFreezeAt: '2027-03-01T11:00:00Z' } });
    await admin.call(ops.createSeries, { params: { idOrSlug: spring.id }, body: { slug: 'r2', name: 'Round 2', startDate: '2027-03-08T09:00:00Z', endDate: '2027-03-08T12:00:00Z' } });
    // without an offset, the start is read in the activity's zone: 10:00 in Berlin in March is 09:00 UTC
    const copy = await ctl.ok<Activity & { series: { slug: string; startDate: string; endDate: string; rankingFreezeAt?: string }[] }>('activities', 'duplicate', 'spring', 'spring-2028', '--start', '2028-03-06T10:00');
    expect(copy).toMatchObject({ slug: 'spring-2028', name: 'spring' });
    expect(copy.publishedAt).toBeUndefined();
    expect(copy.series.map((x) => [x.slug, x.startDate, x.endDate, x.rankingFreezeAt])).toEqual([
      ['r1', '2028-03-06T09:00:00.000Z', '2028-03-06T12:00:00.000Z', '2028-03-06T11:00:00.000Z'],
      ['r2', '2028-03-13T09:00:00.000Z', '2028-03-13T12:00:00.000Z', undefined],
    ]);
    const shown = await ctl.run('activities', 'duplicate', 'spring', 'spring-2029', '--start', '2029-03-05T10:00');
    expect(shown.stdout).toMatch(/Copied spring as spring-2029 \(unpublished/);
    const before = await tables();
    expect(await ctl.refused('activities', 'duplicate', 'spring', 'spring-2028', '--start', '2028-03-06T10:00')).toMatch(/activity\.slug\.taken/);
    expect(await asPupil.refused('activities', 'duplicate', 'fall', 'pia-copy', '--start', '2028-03-06T10:00')).toMatch(/no activity fall that you manage/);
    expect(await tables()).toBe(before);
  });

  it('refuses a participant, who manages nothing', async () => {
    const before = await tables();
    expect(await asPupil.refused('activities', 'update', 'fall', '--name', 'Mine now')).toMatch(/no activity fall that you manage/);
    expect(await asPupil.refused('activities', 'delete', 'fall', '--yes')).toMatch(/no activity fall that you manage/);
    expect(await tables()).toBe(before);
  });

  it('lets a co-manager update, but only an administrator delete', async () => {
    expect((await asTeacher.ok<Activity>('activities', 'update', 'fall', '--show-group-members')).showGroupMembers).toBe(true);
    const before = await tables();
    expect(await asTeacher.refused('activities', 'delete', 'fall', '--yes')).toMatch(/\(403 forbidden\)/);
    expect(await tables()).toBe(before);
  });

  it('deletes an activity only with --yes when there is no terminal to ask on', async () => {
    const a = await make('scratch');
    await admin.call(ops.createSeries, { params: { idOrSlug: a.slug }, body: { slug: 'one', name: 'One' } });
    const before = await tables();
    expect(await ctl.refused('activities', 'delete', 'scratch')).toMatch(/not deleting scratch without --yes/);
    expect(await tables()).toBe(before);
    expect(await ctl.ok('activities', 'delete', 'scratch', '--yes')).toEqual({ deleted: { id: a.id, slug: 'scratch' } });
    expect(await ctl.refused('activities', 'show', 'scratch')).toMatch(/no activity scratch that you manage/);
    expect(await j.query('SELECT count(*) AS n FROM series WHERE activity_id = ?', a.id)).toEqual([{ n: 0 }]);
    const text = await ctl.run('activities', 'delete', (await make('scratch2')).slug, '--yes');
    expect(text.stdout).toBe('Deleted scratch2.\n');
  });

  it('asks on a terminal before deleting: no keeps the activity, yes deletes it', async () => {
    // script(1) gives judgectl a terminal; the answer goes in once the question is on it
    const onTerminal = (slug: string, answer: string) =>
      new Promise<{ status: number; out: string }>((resolve) => {
        const child = spawn('script', ['-qec', `${CTL} activities delete ${slug}`, '/dev/null'], { env: ctl.env });
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          const had = out.includes('(y/N)');
          out += d.toString('utf8');
          if (!had && out.includes('(y/N)')) child.stdin.write(answer);
        });
        child.on('close', (code) => resolve({ status: code ?? 1, out }));
      });
    await make('asked');
    const no = await onTerminal('asked', 'n\r');
    expect(no.out).toMatch(/Delete asked \(asked\) with its 0 series/);
    expect(no.out).toMatch(/asked was not deleted/);
    expect(no.status).toBe(1);
    expect((await stored('asked')).slug).toBe('asked');
    const yes = await onTerminal('asked', 'y\r');
    expect(yes.out, yes.out).toMatch(/Deleted asked\./);
    expect(yes.status).toBe(0);
    expect(await ctl.refused('activities', 'show', 'asked')).toMatch(/no activity asked that you manage/);
  });

  it('refuses to delete an activity that holds submissions, saying why', async () => {
    const pkg = join(work, 'sum');
    for (const [name, content] of Object.entries(legacyPackage('Sum'))) {
      mkdirSync(dirname(join(pkg, name)), { recursive: true });
      writeFileSync(join(pkg, name), content);
    }
    await make('held');
    await admin.call(ops.createSeries, { params: { idOrSlug: 'held' }, body: { slug: 'main', name: 'Main' } });
    await ctl.ok('problems', 'import', pkg, '--slug', 'sum');
    await ctl.ok('assign', 'held', 'main', 'sum');
    await j.grant(pupil.id, 'participant', (await stored('held')).id);
    const c = await j.signIn(pupil);
    await c.call(ops.submit, { params: { idOrSlug: 'held', problemSlug: 'sum' }, form: codeForm('print(1)\n', 'a.py') });
    const before = await tables();
    expect(await ctl.refused('activities', 'delete', 'held', '--yes')).toMatch(/The activity holds submissions; archive it instead \(409 activity\.hasSubmissions\)/);
    expect(await tables()).toBe(before);
  });
});
