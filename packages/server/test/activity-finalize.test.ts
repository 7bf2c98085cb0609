import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ops, type Activity } from '@judge/contract';
import { activities, activityAwards, series, seriesProblems, submissions } from '../src/db/schema.js';
import { refusedWith } from './expect.js';
import { ManualClock } from './harness.js';
import { T0, at, type Party } from './series-fixtures.js';
import { tableSnapshot } from './support/db-snapshot.js';
import { codeForm } from './support/forms.js';
import { Fixture, type Task } from './support/ranking.js';

/**
 * Finalising an activity (decisions §24): refused, saying why, until it has ended, everything is
 * judged and every question answered; once final, nothing that would change its results is taken.
 */

describe('finalising an activity', () => {
  const clock = new ManualClock(new Date(T0));
  let f: Fixture;
  let M: Party;
  let ann: Party, bob: Party, outsider: Party;

  beforeAll(async () => {
    f = await Fixture.start(clock);
    M = f.M;
    ann = await f.person('ann', { firstName: 'Ann', lastName: 'Lee' });
    bob = await f.person('bob', { firstName: 'Bob', lastName: 'Stone' });
    outsider = await f.person('out');
  });
  afterAll(() => f?.j.stop());
  beforeEach(() => clock.set(new Date(T0)));

  /** An activity with one series from 0 to 30 minutes and one task, ann ahead of bob. */
  async function contest(): Promise<{ a: Activity; t: Task; ids: string[] }> {
    const a = await f.activity([ann, bob]);
    const s = await f.series(a, { startDate: at(0), endDate: at(30) });
    const t = await f.task(s);
    const ids = [await f.submit(a, t, ann, { minutes: 5, verdict: 'AC' }), await f.submit(a, t, bob, { minutes: 8, verdict: 'WA' })];
    return { a, t, ids };
  }

  const finalize = (p: Party, a: Activity) => p.c.call(ops.finalizeActivity, { params: { idOrSlug: a.slug } });

  it('says that the activity has not ended yet, and when it ends', async () => {
    const { a } = await contest();
    clock.set(new Date(at(10)));
    const e = await refusedWith(finalize(M, a), 409, 'activity.finalize.blocked');
    expect(e.errors).toEqual({ notEnded: [`The activity has not ended yet: it ends at ${at(30)}`] });
    expect((await M.c.call(ops.getManagedActivity, { params: { idOrSlug: a.slug } })).finalizedAt).toBeUndefined();
  });

  it('says how many submissions are not judged yet', async () => {
    const { a, t } = await contest();
    await f.submit(a, t, bob, { minutes: 20, state: 'queued' });
    await f.submit(a, t, ann, { minutes: 21, state: 'running' });
    // an excluded one will never count: it does not hold finalisation up
    await f.submit(a, t, ann, { minutes: 22, state: 'queued', excluded: true });
    clock.set(new Date(at(40)));
    const e = await refusedWith(finalize(M, a), 409, 'activity.finalize.blocked');
    expect(e.errors).toEqual({ unjudged: ['2 submissions are not judged yet'] });
  });

  it('says how many questions are unanswered, and finalises once the last is answered', async () => {
    const { a } = await contest();
    clock.set(new Date(at(10)));
    const asked = await ann.c.call(ops.askQuestion, { params: { idOrSlug: a.slug }, body: { topic: 'Input', body: 'Is n ever 0?' } });
    clock.set(new Date(at(40)));
    const e = await refusedWith(finalize(M, a), 409, 'activity.finalize.blocked');
    expect(e.errors).toEqual({ unanswered: ['1 question is unanswered'] });
    expect((await M.c.call(ops.listActivityAwards, { params: { idOrSlug: a.slug } })).finalizeBlockers).toEqual({ unanswered: ['1 question is unanswered'] });
    await M.c.call(ops.answerQuestion, { params: { id: asked.id }, body: { body: 'No.' } });
    expect((await M.c.call(ops.listActivityAwards, { params: { idOrSlug: a.slug } })).finalizeBlockers).toBeUndefined();
    const done = await finalize(M, a);
    expect(done.finalizedAt).toBe(at(40));
  });

  it('lists every blocker at once', async () => {
    const { a, t } = await contest();
    clock.set(new Date(at(10)));
    await ann.c.call(ops.askQuestion, { params: { idOrSlug: a.slug }, body: { topic: 'Time', body: 'How long is left?' } });
    await ann.c.call(ops.askQuestion, { params: { idOrSlug: a.slug }, body: { topic: 'Time', body: 'Really?' } });
    await f.submit(a, t, bob, { minutes: 12, state: 'queued' });
    const e = await refusedWith(finalize(M, a), 409, 'activity.finalize.blocked');
    expect(e.errors).toEqual({
      notEnded: [`The activity has not ended yet: it ends at ${at(30)}`],
      unjudged: ['1 submission is not judged yet'],
      unanswered: ['2 questions are unanswered'],
    });
    expect(e.detail).toContain('1 submission is not judged yet');
    // the awards list tells who may finalise the same before they try; a participant nothing of it
    expect((await M.c.call(ops.listActivityAwards, { params: { idOrSlug: a.slug } })).finalizeBlockers).toEqual(e.errors);
    expect((await ann.c.call(ops.listActivityAwards, { params: { idOrSlug: a.slug } })).finalizeBlockers).toBeUndefined();
  });

  it('needs an end: an activity whose series never ends cannot be finalised', async () => {
    const a = await f.activity([ann]);
    await f.task(await f.series(a, { startDate: at(0) }));
    const e = await refusedWith(finalize(M, a), 409, 'activity.finalize.blocked');
    expect(e.errors!.notEnded![0]).toMatch(/no end/);
  });

  it('finalises once, stores the awards, refuses twice, and reopens', async () => {
    const { a } = await contest();
    clock.set(new Date(at(40)));
    const done = await finalize(M, a);
    expect(done).toMatchObject({ id: a.id, finalizedAt: at(40), awardRules: { gold: 4, silver: 4, bronze: 4, extraBronze: 0 } });
    const listed = await M.c.call(ops.listActivityAwards, { params: { idOrSlug: a.slug } });
    expect(listed.finalizedAt).toBe(at(40));
    expect(listed.awards.map((x) => [x.key, x.userNames])).toEqual([
      ['winner', ['Ann Lee']],
      ['gold-medal', ['Ann Lee']],
      [expect.stringMatching(/^first-to-solve-/), ['Ann Lee']],
    ]);
    // participants see that it is final
    expect((await ann.c.call(ops.getActivity, { params: { idOrSlug: a.slug } })).finalizedAt).toBe(at(40));

    clock.set(new Date(at(41)));
    await refusedWith(finalize(M, a), 409, 'activity.finalized');
    expect((await M.c.call(ops.getManagedActivity, { params: { idOrSlug: a.slug } })).finalizedAt).toBe(at(40));

    const reopened = await M.c.call(ops.reopenActivity, { params: { idOrSlug: a.slug } });
    expect(reopened.finalizedAt).toBeUndefined();
    // the awards stay, for staff, until the next finalisation
    const kept = await M.c.call(ops.listActivityAwards, { params: { idOrSlug: a.slug } });
    expect(kept.finalizedAt).toBeUndefined();
    expect(kept.awards).toHaveLength(3);
    expect((await ann.c.call(ops.listActivityAwards, { params: { idOrSlug: a.slug } })).awards).toEqual([]);
    await refusedWith(M.c.call(ops.reopenActivity, { params: { idOrSlug: a.slug } }), 409, 'activity.notFinalized');
    expect((await finalize(M, a)).finalizedAt).toBe(at(41));
  });

  it('lets staff finalise and reopen, and refuses participants, strangers and the signed out, changing nothing', async () => {
    const { a } = await contest();
    clock.set(new Date(at(40)));
    const before = await tableSnapshot(f.j, [activities, activityAwards]);
    await refusedWith(finalize(ann, a), 403, 'forbidden');
    await refusedWith(finalize(outsider, a), 404, 'not_found');
    await refusedWith(f.j.anonymous().call(ops.finalizeActivity, { params: { idOrSlug: a.slug } }), 401, 'unauthenticated');
    await refusedWith(M.c.call(ops.finalizeActivity, { params: { idOrSlug: 'no-such-activity' } }), 404, 'not_found');
    expect(await tableSnapshot(f.j, [activities, activityAwards])).toBe(before);

    await finalize(M, a);
    const final = await tableSnapshot(f.j, [activities, activityAwards]);
    await refusedWith(ann.c.call(ops.reopenActivity, { params: { idOrSlug: a.slug } }), 403, 'forbidden');
    await refusedWith(f.j.anonymous().call(ops.reopenActivity, { params: { idOrSlug: a.slug } }), 401, 'unauthenticated');
    expect(await tableSnapshot(f.j, [activities, activityAwards])).toBe(final);
    // an administrator (staff everywhere) may reopen
    expect((await f.w.admin.call(ops.reopenActivity, { params: { idOrSlug: a.slug } })).finalizedAt).toBeUndefined();
  });

  it('refuses, once final, every write that would change the results, and changes nothing', async () => {
    const { a, t, ids } = await contest();
    const [s] = await M.c.call(ops.listManagedSeries, { params: { idOrSlug: a.slug } });
    clock.set(new Date(at(40)));
    await finalize(M, a);
    const tables = [activities, series, seriesProblems, submissions, activityAwards];
    const before = await tableSnapshot(f.j, tables);
    const finalized = (p: Promise<unknown>) => refusedWith(p, 409, 'activity.finalized');

    await finalized(M.c.call(ops.submit, { params: { idOrSlug: a.slug, problemSlug: t.slug }, form: codeForm('print(1)', 'a.py') }));
    await finalized(ann.c.call(ops.submit, { params: { idOrSlug: a.slug, problemSlug: t.slug }, form: codeForm('print(1)', 'a.py') }));
    await finalized(M.c.call(ops.rejudgeSubmission, { params: { id: ids[0]! } }));
    await finalized(M.c.call(ops.rejudgeAssignment, { params: { assignmentId: t.id } }));
    await finalized(M.c.call(ops.setSubmissionExcluded, { params: { id: ids[0]! }, body: { excluded: true } }));
    await finalized(M.c.call(ops.cancelAttempt, { params: { submissionId: ids[1]!, attemptId: randomUUID() } }));
    await finalized(M.c.call(ops.updateSeries, { params: { seriesId: s!.id }, body: { importance: 3 } }));
    await finalized(M.c.call(ops.updateSeries, { params: { seriesId: s!.id }, body: { startDate: at(1) } }));
    await finalized(M.c.call(ops.shiftSeries, { params: { seriesId: s!.id }, body: { minutes: 5 } }));
    await finalized(M.c.call(ops.updateAssignment, { params: { assignmentId: t.id }, body: { problemId: t.problemId, slug: t.slug, maxPoints: 50 } }));
    await finalized(M.c.call(ops.updateActivity, { params: { idOrSlug: a.slug }, body: { slug: a.slug, rankingType: 'points' } }));
    expect(await tableSnapshot(f.j, tables)).toBe(before);

    // what does not touch the results may still change
    await M.c.call(ops.updateSeries, { params: { seriesId: s!.id }, body: { name: 'The final round' } });
    await M.c.call(ops.updateActivity, { params: { idOrSlug: a.slug }, body: { slug: a.slug, name: 'Renamed', rankingType: 'icpc' } });

    // reopened, the same writes are taken again
    await M.c.call(ops.reopenActivity, { params: { idOrSlug: a.slug } });
    const excluded = await M.c.call(ops.setSubmissionExcluded, { params: { id: ids[1]! }, body: { excluded: true } });
    expect(excluded.excluded).toBe(true);
  });
});
