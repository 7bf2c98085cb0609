import { beforeAll, describe, expect, it } from 'vitest';
import type { SubmissionSummary } from '@judge/contract';
import type { EventStream } from '@judge/sdk';
import { listen, only } from './series-fixtures.js';
import { codeForm } from './support/forms.js';
import { act, alice, bob, j, manager, open, runner, submit, task, useSubmissionWorld, w } from './support/submissions.js';

/**
 * While the standings' signals wait to be coalesced (socket.rankingIntervalMs, here an hour so
 * that only the test's flush sends them), the author still hears of their own submission at
 * once: queued, running, its verdict and its problem's status; then, when the interval ends,
 * every member is told once that the standings changed. Real HTTP, a bare protocol runner.
 */

describe('coalesced standings signals and the live verdict', () => {
  useSubmissionWorld({ socket: { rankingIntervalMs: 3_600_000 } });

  let streams: { alice: EventStream; bob: EventStream; manager: EventStream };
  let t: { slug: string };

  beforeAll(async () => {
    t = await task(open);
    streams = { alice: await listen(j, alice.u), bob: await listen(j, bob.u), manager: await listen(j, manager.u) };
  });

  it('the author hears of the verdict at once, every member of the standings once, after the last change', async () => {
    const all = () => w.barrier([streams.alice, streams.bob, streams.manager]);
    await all();
    const first = await submit(alice.c, t.slug, codeForm('int main() { return 0; }'));
    const second = await submit(alice.c, t.slug, codeForm('int main() { return 1; }'));
    for (const verdict of ['AC', 'WA']) {
      const job = (await runner.claim())!;
      await runner.report(job, { verdict, score: verdict === 'AC' ? 1 : 0, maxScore: 1 });
    }

    const [toAlice, toBob, toManager] = await all();
    const states = only(toAlice!, 'submissionStateChanged').map((d) => (d as { submission: SubmissionSummary }).submission);
    expect(states.filter((s) => s.state === 'completed').map((s) => [s.id, s.verdict])).toEqual([
      [first.id, 'AC'],
      [second.id, 'WA'],
    ]);
    // the problem's status after each submit and after each verdict
    expect(only(toAlice!, 'problemStatusChanged')).toHaveLength(4);
    for (const frames of [toAlice!, toBob!, toManager!]) expect(only(frames, 'rankingChanged')).toEqual([]);

    j.app.hub.flushRankingSignals();
    const after = await all();
    for (const frames of after) expect(only(frames, 'rankingChanged')).toEqual([{ activityId: act.id, change: 'result', seriesId: open.id }]);
  });
});
