import { describe, expect, it } from 'vitest';
import { ops, type ActivityDashboard } from '@judge/contract';
import { refusedWith } from './expect.js';
import { raw } from './harness.js';
import { codeForm } from './support/forms.js';
import { UNKNOWN_UUID } from './support/ids.js';
import { j, w, admin, runner, manager, act, open, alice, bob, snapshot, submit, task, useSubmissionWorld } from './support/submissions.js';

/**
 * The activity dashboard (GET /manager/activities/{a}/dashboard): every figure follows real
 * submissions, judgings, questions and printouts made through the API, and only the activity's
 * managers and the administrators read it.
 */
describe('activity dashboard', () => {
  useSubmissionWorld();
  const dashboard = (idOrSlug = act.slug, c = manager.c): Promise<ActivityDashboard> => c.call(ops.getActivityDashboard, { params: { idOrSlug } });
  const minutes = (...pairs: [number, number][]) => {
    const out = new Array<number>(10).fill(0);
    for (const [i, n] of pairs) out[i] = n;
    return out;
  };

  it('starts empty: no submissions, nothing queued, the runner connected and idle', async () => {
    const d = await dashboard();
    expect(d).toEqual({
      activityId: act.id,
      slug: act.slug,
      at: w.clock.now().toISOString(),
      queue: { queued: 0, running: 0 },
      runners: { connected: 1, busy: 0, approved: 1, pendingApproval: 0 },
      submissions: { total: 0, lastTenMinutes: 0, perMinute: minutes() },
      states: { queued: 0, running: 0, completed: 0, failed: 0, cancelled: 0 },
      verdicts: [],
      judgingErrors: { failed: 0, judgeError: 0 },
      questions: { unanswered: 0 },
      printouts: { queued: 0, claimed: 0 },
    });
  });

  it('counts the queue and its oldest submission, the minutes they came in, and a runner busy with one', async () => {
    const t = await task(open);
    const first = await submit(alice.c, t.slug, codeForm('a1'));
    await submit(alice.c, t.slug, codeForm('a2'));
    w.clock.advance(210);
    const third = await submit(bob.c, t.slug, codeForm('b1'));
    let d = await dashboard();
    expect(d.queue).toEqual({ queued: 3, running: 0, oldestQueuedAt: first.submittedAt, oldestQueuedId: first.id });
    // three and a half minutes ago is the fourth minute back (index 6); now is the last (index 9)
    expect(d.submissions).toEqual({ total: 3, lastTenMinutes: 3, perMinute: minutes([6, 2], [9, 1]) });

    const job = await runner.claim();
    expect(job?.submissionId).toBe(first.id);
    d = await dashboard();
    expect(d.queue).toMatchObject({ queued: 2, running: 1, oldestQueuedId: expect.not.stringMatching(first.id) });
    expect(d.runners).toMatchObject({ connected: 1, busy: 1 });
    await runner.report(job!, { verdict: 'WA', score: 0, maxScore: 1 });
    await runner.judge('AC');
    await runner.judge('JE');
    d = await dashboard();
    expect(d.queue).toEqual({ queued: 0, running: 0 });
    expect(d.runners.busy).toBe(0);
    expect(d.states).toEqual({ queued: 0, running: 0, completed: 3, failed: 0, cancelled: 0 });
    expect(d.verdicts).toEqual([
      { verdict: 'AC', count: 1 },
      { verdict: 'JE', count: 1 },
      { verdict: 'WA', count: 1 },
    ]);
    expect(d.judgingErrors).toEqual({ failed: 0, judgeError: 1 });

    // seven minutes on, the first two fell out of the last ten minutes; bob's is seven back
    w.clock.advance(420);
    d = await dashboard();
    expect(d.submissions).toEqual({ total: 3, lastTenMinutes: 1, perMinute: minutes([2, 1]) });
    expect(third.userId).toBe(bob.u.id);
  });

  it('counts a cancelled submission, and one given up after five failed deliveries as a judging error', async () => {
    const t = await task(open);
    const cancelled = await submit(alice.c, t.slug, codeForm('c'));
    const detail = await admin.call(ops.getSubmission, { params: { id: cancelled.id } });
    await admin.call(ops.cancelAttempt, { params: { submissionId: cancelled.id, attemptId: detail.attemptList[0]!.id } });
    const doomed = await submit(alice.c, t.slug, codeForm('d'));
    for (let i = 0; i < 5; i++) {
      const job = await runner.claim();
      expect(job?.submissionId).toBe(doomed.id);
      await runner.report(job!, { infrastructureFailure: true, failureReason: 'disk full' });
    }
    const d = await dashboard();
    expect(d.states).toMatchObject({ failed: 1, cancelled: 1, queued: 0 });
    expect(d.judgingErrors).toEqual({ failed: 1, judgeError: 1 });
    // a verdict counts only once judged: neither of them has one
    expect(d.verdicts.reduce((s, v) => s + v.count, 0)).toBe(3);
  });

  it("counts the participants' unanswered questions (not announcements) and the printouts not resolved", async () => {
    await admin.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, modules: { questions: true, printouts: true } } });
    const q1 = await alice.c.call(ops.askQuestion, { params: { idOrSlug: act.slug }, body: { topic: 'Input', body: 'Sorted?' } });
    await bob.c.call(ops.askQuestion, { params: { idOrSlug: act.slug }, body: { topic: 'Output', body: 'Newline?' } });
    await manager.c.call(ops.createAnnouncement, { params: { idOrSlug: act.slug }, body: { topic: 'Welcome', body: 'Good luck' } });
    expect((await dashboard()).questions).toEqual({ unanswered: 2 });
    await manager.c.call(ops.answerQuestion, { params: { id: q1.id }, body: { body: 'Yes.' } });
    expect((await dashboard()).questions).toEqual({ unanswered: 1 });

    const p1 = await alice.c.call(ops.requestPrintout, { params: { idOrSlug: act.slug }, body: { fileName: 'a.c', source: 'int main(){}\n' } });
    const p2 = await bob.c.call(ops.requestPrintout, { params: { idOrSlug: act.slug }, body: { fileName: 'b.c', source: 'int main(){}\n' } });
    expect((await dashboard()).printouts).toEqual({ queued: 2, claimed: 0 });
    await admin.call(ops.claimPrintout, { params: { id: p1.id } });
    expect((await dashboard()).printouts).toEqual({ queued: 1, claimed: 1 });
    await admin.call(ops.resolvePrintout, { params: { id: p1.id }, body: {} });
    await admin.call(ops.resolvePrintout, { params: { id: p2.id }, body: {} });
    expect((await dashboard()).printouts).toEqual({ queued: 0, claimed: 0 });
  });

  it('counts only its own activity', async () => {
    const other = await w.activity({ joinPolicy: 'open', unlisted: false });
    await j.grant(manager.u.id, 'manager', other.id);
    const d = await dashboard(other.id);
    expect(d).toMatchObject({ activityId: other.id, submissions: { total: 0 }, verdicts: [], questions: { unanswered: 0 }, printouts: { queued: 0, claimed: 0 } });
    // the runners are the instance's: the same for every activity
    expect(d.runners).toEqual((await dashboard()).runners);
  });

  it('is for the managers and the administrators: a participant is refused (403), an unknown or unseen activity is 404, nobody signed in 401', async () => {
    const before = await snapshot();
    expect((await dashboard(act.slug, admin)).activityId).toBe(act.id);
    expect((await dashboard(act.id)).slug).toBe(act.slug);
    expect((await dashboard(act.slug.toUpperCase())).activityId).toBe(act.id);
    await refusedWith(dashboard(act.slug, alice.c), 403, 'forbidden');
    await refusedWith(dashboard('no-such-activity'), 404, 'not_found');
    await refusedWith(dashboard(UNKNOWN_UUID), 404, 'not_found');
    // a closed activity its manager alone sees: to anyone else it does not exist
    const hidden = await w.activity({ joinPolicy: 'closed' });
    await refusedWith(dashboard(hidden.slug, alice.c), 404, 'not_found');
    await refusedWith(dashboard(hidden.slug), 404, 'not_found');
    const anonymous = await raw(`${j.url}/api/v1/manager/activities/${act.slug}/dashboard`);
    expect({ status: anonymous.status, code: anonymous.body.code }).toEqual({ status: 401, code: 'unauthenticated' });
    // a malformed one (past 64 characters, a space) names nothing, as every malformed path
    for (const bad of ['x'.repeat(65), '%20']) {
      const res = await raw(`${j.url}/api/v1/manager/activities/${bad}/dashboard`, { token: manager.c.accessToken! });
      expect({ bad, status: res.status, code: res.body.code }).toEqual({ bad, status: 404, code: 'not_found' });
    }
    // reading changes nothing
    expect(await snapshot()).toBe(before);
  });
});
