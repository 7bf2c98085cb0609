import { describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { codeForm } from './support/forms.js';
import { act, alice, bob, manager, open, runner, submit, task, useSubmissionWorld } from './support/submissions.js';

/**
 * The series list keeps each caller's standings between requests (a very active participant's
 * submissions are most of what the list costs). Whatever happens to a submission through the API
 * (submitted, judged, excluded, included again, rejudged) shows in its author's next list, and in
 * nobody else's.
 */

async function standingOn(c: typeof alice.c, slug: string) {
  const list = await c.call(ops.listActivitySeries, { params: { idOrSlug: act.slug } });
  const p = list.find((s) => s.id === open.id)!.problems!.find((x) => x.slug === slug)!;
  return { status: p.status, attempts: p.attempts, bestScore: p.bestScore, maxScore: p.maxScore };
}

describe("participant: the series list follows the caller's submissions", () => {
  useSubmissionWorld();

  it('shows each change of a submission in its author’s next list, and in no one else’s', async () => {
    const t = await task(open);
    const untouched = { status: 'untouched', attempts: 0, bestScore: undefined, maxScore: undefined };
    // both lists are read (and kept) before anything happens
    expect(await standingOn(alice.c, t.slug)).toEqual(untouched);
    expect(await standingOn(bob.c, t.slug)).toEqual(untouched);

    const s = await submit(alice.c, t.slug, codeForm('int main() {}\n'));
    expect(await standingOn(alice.c, t.slug)).toEqual({ status: 'attempted', attempts: 1, bestScore: undefined, maxScore: undefined });

    await runner.judge('AC');
    const solved = { status: 'solved', attempts: 1, bestScore: 1, maxScore: 1 };
    expect(await standingOn(alice.c, t.slug)).toEqual(solved);

    await manager.c.call(ops.setSubmissionExcluded, { params: { id: s.id }, body: { excluded: true } });
    expect(await standingOn(alice.c, t.slug)).toEqual({ status: 'attempted', attempts: 1, bestScore: undefined, maxScore: undefined });
    await manager.c.call(ops.setSubmissionExcluded, { params: { id: s.id }, body: { excluded: false } });
    expect(await standingOn(alice.c, t.slug)).toEqual(solved);

    // a rejudge queues a new attempt: pending until judged again, then its verdict counts
    await manager.c.call(ops.rejudgeSubmission, { params: { id: s.id } });
    expect((await standingOn(alice.c, t.slug)).bestScore).toBeUndefined();
    await runner.judge('WA');
    expect(await standingOn(alice.c, t.slug)).toEqual({ status: 'attempted', attempts: 1, bestScore: 0, maxScore: 1 });

    // none of it touched the other participant's list
    expect(await standingOn(bob.c, t.slug)).toEqual(untouched);
  });
});
