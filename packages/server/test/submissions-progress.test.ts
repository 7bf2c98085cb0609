import { beforeAll, describe, expect, it } from 'vitest';
import { ops, type SubmissionSummary } from '@judge/contract';
import type { EventStream, Frame } from '@judge/sdk';
import { listen, only, type Party } from './series-fixtures.js';
import { codeForm } from './support/forms.js';
import { j, w, admin, runner, manager, act, open, submit, task, participant, useSubmissionWorld } from './support/submissions.js';

/**
 * How far the judging of a submission got (test k of n) reaches its author and the activity's
 * managers as the runner reports it: in the summary's `progress` while the attempt runs, and pushed
 * as submissionStateChanged (author) and submissionChanged (managers). Nobody else hears of it.
 * Real HTTP, a real socket, a bare protocol runner.
 */

type Pushed = { activityId: string; submission: SubmissionSummary };
const progressOf = (frames: Frame[], type: string) => only(frames, type).map((d) => (d as Pushed).submission.progress);

describe('the progress of a running submission', () => {
  useSubmissionWorld();

  let author: Party;
  let other: Party;
  let t: { slug: string; id: string };
  let streams: { author: EventStream; other: EventStream; manager: EventStream };

  beforeAll(async () => {
    author = await participant(act, 'pia');
    other = await participant(act, 'quentin');
    t = await task(open);
    streams = { author: await listen(j, author.u), other: await listen(j, other.u), manager: await listen(j, manager.u) };
  });

  it('is pushed to the author and the managers, is in the summaries while running, and goes when the verdict comes', async () => {
    const s = await submit(author.c, t.slug, codeForm('int main() { return 0; }'));
    expect(s.progress).toBeUndefined();
    const job = (await runner.claim())!;
    expect(job.submissionId).toBe(s.id);
    await w.barrier(Object.values(streams));

    await runner.progress(job, { done: 2, total: 5 });
    const [toAuthor, toOther, toManager] = await w.barrier([streams.author, streams.other, streams.manager]);
    expect(progressOf(toAuthor!, 'submissionStateChanged')).toEqual([{ done: 2, total: 5 }]);
    expect(only(toAuthor!, 'submissionChanged')).toEqual([]);
    expect(toOther).toEqual([]);
    expect(progressOf(toManager!, 'submissionChanged')).toEqual([{ done: 2, total: 5 }]);
    expect(only(toManager!, 'submissionStateChanged')).toEqual([]);

    // what the screens refetch says the same
    const own = await author.c.call(ops.getOwnSubmission, { params: { idOrSlug: act.slug, id: s.id } });
    expect(own).toMatchObject({ state: 'running', progress: { done: 2, total: 5 } });
    const list = await author.c.call(ops.listOwnSubmissions, { params: { idOrSlug: act.slug } });
    expect(list.items.find((x) => x.id === s.id)?.progress).toEqual({ done: 2, total: 5 });
    const managed = await admin.call(ops.getSubmission, { params: { id: s.id } });
    expect(managed.progress).toEqual({ done: 2, total: 5 });

    // a later report moves it on; only done is sent, total stays
    await runner.progress(job, { done: 3 });
    const [later] = await w.barrier(Object.values(streams));
    expect(progressOf(later!, 'submissionStateChanged')).toEqual([{ done: 3, total: 5 }]);

    await runner.report(job, { verdict: 'AC', score: 1, maxScore: 1 });
    const [done] = await w.barrier(Object.values(streams));
    const final = only(done!, 'submissionStateChanged').map((d) => (d as Pushed).submission);
    expect(final.map((x) => [x.state, x.verdict, x.progress])).toEqual([['completed', 'AC', undefined]]);
    const after = await author.c.call(ops.getOwnSubmission, { params: { idOrSlug: act.slug, id: s.id } });
    expect(after.progress).toBeUndefined();
  });

  it('a progress call that only renews the lease (no figures) tells nobody', async () => {
    await submit(author.c, t.slug, codeForm('int main() { return 1; }'));
    const job = (await runner.claim())!;
    await w.barrier(Object.values(streams));
    // the submission's standings signal waits up to socket.rankingIntervalMs to be coalesced (it
    // reached the hub before the barrier's frame did): sent now, so that it cannot land in the window below
    j.app.hub.flushRankingSignals();
    await w.barrier(Object.values(streams));
    await runner.progress(job, {});
    const got = await w.barrier(Object.values(streams));
    expect(got).toEqual([[], [], []]);
    await runner.report(job, { verdict: 'WA', score: 0, maxScore: 1 });
  });
});
