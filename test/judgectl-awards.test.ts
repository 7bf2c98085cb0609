import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity, type ActivityAwards } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { judgeInDatabase } from '../packages/server/test/support/awards.js';
import { ADMIN_PASSWORD, TestJudge } from '../packages/server/test/harness.js';
import { codeForm } from '../packages/server/test/support/forms.js';
import { zipOf } from '../packages/server/test/zips.js';
import { judgectlAs, type CtlSession } from './judgectl-child.js';
import { SUM_PACKAGE, oneProblemContest } from './one-problem-contest.js';

// `judgectl activities finalize|reopen|awards|award-citation|medals` against a real server (no
// runner: submissions wait in the queue until the test judges them in the database), a child
// process per call (decisions §24).

describe('judgectl: finalising and awards', { timeout: 120_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let pupil: JudgeClient;
  let act: Activity;
  let asAdmin: CtlSession;
  let asPupil: CtlSession;
  let submissionId: string;
  let questionId: string;

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    ({ act, pupil } = await oneProblemContest(j, admin, { slug: 'final', name: 'Final', problemSlug: 'sum', problemName: 'Sum', zip: await zipOf(SUM_PACKAGE) }));
    submissionId = (await pupil.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: 'sum' }, form: codeForm('print(1)\n', 'sum.py') })).id;
    questionId = (await pupil.call(ops.askQuestion, { params: { idOrSlug: act.slug }, body: { topic: 'Limits', body: 'How large is n?' } })).id;
    asAdmin = await judgectlAs(j.url, 'admin', ADMIN_PASSWORD);
    const other = await j.user('pim');
    await j.grant(other.id, 'participant', act.id);
    asPupil = await judgectlAs(j.url, other.username, other.password);
  });
  afterAll(async () => {
    for (const s of [asAdmin, asPupil]) s?.close();
    await j?.stop();
  });

  it('says in plain words what keeps the activity from being finalised, and exits non-zero', async () => {
    const r = await asAdmin.run('activities', 'finalize', 'final');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('final cannot be finalised yet:');
    expect(r.stderr).toContain('  - The activity has no end');
    expect(r.stderr).toContain('  - 1 submission is not judged yet');
    expect(r.stderr).toContain('  - 1 question is unanswered');
    // --json keeps the server's problem, blockers and all
    const json = await asAdmin.run('activities', 'finalize', 'final', '--json');
    const failure = JSON.parse(json.stderr) as { error: { code: string; problem: { errors: Record<string, string[]> } } };
    expect(failure.error.code).toBe('activity.finalize.blocked');
    expect(Object.keys(failure.error.problem.errors).sort()).toEqual(['notEnded', 'unanswered', 'unjudged']);
    // the awards command says the same before anyone tries
    const before = await asAdmin.run('activities', 'awards', 'final');
    expect(before.stdout).toContain('Before it can be finalised:\n  - The activity has no end');
  });

  it('switches the public scoreboard and shows, rotates and removes the display link; a participant may not', async () => {
    expect((await asAdmin.run('activities', 'update', 'final', '--public-scoreboard')).status).toBe(0);
    expect((await admin.call(ops.getManagedActivity, { params: { idOrSlug: 'final' } })).publicScoreboard).toBe(true);
    expect((await asAdmin.run('activities', 'display-link', 'final')).stdout).toContain('final has no display link');
    const made = await asAdmin.ok<{ token: string; url: string }>('activities', 'display-link', 'final', '--rotate');
    expect(made.url).toBe(`${j.url}/display/${made.token}`);
    expect((await asAdmin.run('activities', 'display-link', 'final')).stdout).toContain(made.url);
    const again = await asAdmin.ok<{ token: string }>('activities', 'display-link', 'final', '--rotate');
    expect(again.token).not.toBe(made.token);
    expect(await asPupil.refused('activities', 'display-link', 'final', '--rotate')).toMatch(/activity:update|manage/);
    expect(await asAdmin.refused('activities', 'display-link', 'final', '--rotate', '--remove')).toContain('not both');
    expect((await asAdmin.run('activities', 'display-link', 'final', '--remove')).stdout).toContain('final has no display link now');
    expect((await admin.call(ops.getDisplayLink, { params: { idOrSlug: 'final' } })).token).toBeUndefined();
    expect((await asAdmin.run('activities', 'update', 'final', '--no-public-scoreboard')).status).toBe(0);
    expect((await admin.call(ops.getManagedActivity, { params: { idOrSlug: 'final' } })).publicScoreboard).toBe(false);
  });

  it('finalises once nothing blocks it, prints the awards, edits a citation and reopens', async () => {
    expect((await asAdmin.run('activities', 'medals', 'final', '1,1,1,1')).stdout).toContain('final: 1 gold, 1 silver, 1 bronze, 1 extra bronze.');
    await admin.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, endDate: new Date(Date.now() - 1000).toISOString() } });
    await admin.call(ops.answerQuestion, { params: { id: questionId }, body: { body: 'Up to 1000.' } });
    await judgeInDatabase(j, submissionId, 'AC');

    const r = await asAdmin.run('activities', 'finalize', 'final');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Finalised final at \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\./);
    expect(r.stdout).toMatch(/winner\s+│?\s*Contest winner/);
    expect(r.stdout).toContain('Gold medal winner');
    expect(r.stdout).toContain('First to solve problem sum');
    expect((await asAdmin.refused('activities', 'finalize', 'final'))).toContain('(409 activity.finalized)');

    const edited = await asAdmin.ok<{ key: string; citation: string; adjusted: boolean }>('activities', 'award-citation', 'final', 'winner', 'Champion of the final');
    expect(edited).toMatchObject({ key: 'winner', citation: 'Champion of the final', adjusted: true });
    const listed = await asAdmin.ok<ActivityAwards>('activities', 'awards', 'final');
    expect(listed).toEqual(await admin.call(ops.listActivityAwards, { params: { idOrSlug: 'final' } }));
    const table = await asAdmin.run('activities', 'awards', 'final');
    expect(table.stdout).toMatch(/Champion of the final\s+│?\s*yes/);

    expect(await asPupil.refused('activities', 'award-citation', 'final', 'winner', 'Me')).toMatch(/activity:update/);
    expect(await asAdmin.refused('activities', 'award-citation', 'final', 'no-such', 'x')).toContain('(404 not_found)');
    expect(await asPupil.refused('activities', 'reopen', 'final')).toContain('no activity final that you manage');
    expect((await asAdmin.run('activities', 'reopen', 'final')).stdout).toContain('Reopened final');
    expect(await asAdmin.refused('activities', 'reopen', 'final')).toContain('(409 activity.notFinalized)');
  });
});
