import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity, type ActivityDashboard } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, TestJudge } from '../packages/server/test/harness.js';
import { codeForm } from '../packages/server/test/support/forms.js';
import { zipOf } from '../packages/server/test/zips.js';
import { judgectlAs, type CtlSession } from './judgectl-child.js';
import { SUM_PACKAGE, oneProblemContest } from './one-problem-contest.js';

// `judgectl activities dashboard` against a real server (no runner: what is submitted waits in the
// queue), a child process per call: the same figures as the web dashboard, as JSON and as text.

describe('judgectl activities dashboard', { timeout: 120_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let pupil: JudgeClient;
  let act: Activity;
  let asAdmin: CtlSession;
  let asPupil: CtlSession;

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    ({ act, pupil } = await oneProblemContest(j, admin, { slug: 'board', name: 'Board', problemSlug: 'sum', problemName: 'Sum', zip: await zipOf(SUM_PACKAGE) }));
    await admin.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, modules: { questions: true, printouts: true } } });
    for (const code of ['print(1)\n', 'print(2)\n']) await pupil.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: 'sum' }, form: codeForm(code, 'sum.py') });
    await pupil.call(ops.askQuestion, { params: { idOrSlug: act.slug }, body: { topic: 'Limits', body: 'How large is n?' } });
    await pupil.call(ops.requestPrintout, { params: { idOrSlug: act.slug }, body: { fileName: 'sum.py', source: 'print(1)\n' } });
    asAdmin = await judgectlAs(j.url, 'admin', ADMIN_PASSWORD);
    const other = await j.user('pim');
    await j.grant(other.id, 'participant', act.id);
    asPupil = await judgectlAs(j.url, other.username, other.password);
  });
  afterAll(async () => {
    for (const s of [asAdmin, asPupil]) s?.close();
    await j?.stop();
  });

  it('--json answers what GET /manager/activities/{a}/dashboard answers', async () => {
    const d = await asAdmin.ok<ActivityDashboard>('activities', 'dashboard', 'board');
    const api = await admin.call(ops.getActivityDashboard, { params: { idOrSlug: 'board' } });
    expect({ ...d, at: '', queue: { ...d.queue, oldestQueuedAt: '' } }).toEqual({ ...api, at: '', queue: { ...api.queue, oldestQueuedAt: '' } });
    expect(d).toMatchObject({ slug: 'board', queue: { queued: 2, running: 0 }, submissions: { total: 2, lastTenMinutes: 2 }, questions: { unanswered: 1 }, printouts: { queued: 1, claimed: 0 } });
  });

  it('prints each figure on a line of its own', async () => {
    const r = await asAdmin.run('activities', 'dashboard', 'board');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^board at \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ/);
    expect(r.stdout).toMatch(/queue\s+│?\s*2 waiting \(the oldest for \d+s: [0-9a-f-]{36}\), 0 being judged/);
    expect(r.stdout).toContain('2 in all, 2 in the last 10 minutes');
    expect(r.stdout).toContain('0 0 0 0 0 0 0 0 0 2 (oldest minute first)');
    expect(r.stdout).toContain('none yet');
    expect(r.stdout).toContain('1 unanswered');
    expect(r.stdout).toContain('1 queued, 0 claimed');
  });

  it("refuses a participant and an unknown activity with the server's reason", async () => {
    expect(await asPupil.refused('activities', 'dashboard', 'board')).toMatch(/activity:update/);
    expect(await asAdmin.refused('activities', 'dashboard', 'no-such')).toContain('The activity does not exist or is not visible to you (404 not_found)');
  });
});
