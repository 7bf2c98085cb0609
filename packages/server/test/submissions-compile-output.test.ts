import { beforeAll, describe, expect, it } from 'vitest';
import { ops, type SubmissionSummary } from '@judge/contract';
import { refusedWith } from './expect.js';
import { type Party } from './series-fixtures.js';
import { codeForm } from './support/forms.js';
import { admin, runner, act, open, submit, task, participant, useSubmissionWorld } from './support/submissions.js';

/**
 * The compiler's output is an attachment of its own (`compile`) that the submission's author sees
 * by default (decisions §6), while the judge's log and the per-test details stay with managers; an
 * activity that sets `compile` otherwise hides it. Judged by a bare protocol runner.
 */

describe('the compiler output of a submission', () => {
  useSubmissionWorld();

  let t: { slug: string; id: string };
  let failed: SubmissionSummary;
  let author: Party;
  let other: Party;

  beforeAll(async () => {
    author = await participant(act, 'erin');
    other = await participant(act, 'frank');
    t = await task(open);
    failed = await submit(author.c, t.slug, codeForm('int main( {'));
    await runner.judge('CE', { compile: "main.cpp:1:10: error: expected ')' before '{' token\ncompilation failed", log: 'the judge log', details: '{"tests":[]}' });
  });

  it('is shown to its author by default, and only the compile attachment is', async () => {
    const d = await author.c.call(ops.getOwnSubmission, { params: { idOrSlug: act.slug, id: failed.id } });
    expect(d.attemptList[0]).toMatchObject({ verdict: 'CE', state: 'completed' });
    const files = d.attemptList[0]!.files;
    expect(files.map((f) => f.name)).toEqual(['compile']);
    const text = Buffer.from(await author.c.call(ops.downloadFile, { params: { id: files[0]!.fileId } })).toString();
    expect(text).toContain("error: expected ')'");
    // nobody else's: another participant may not read it
    await refusedWith(other.c.call(ops.downloadFile, { params: { id: files[0]!.fileId } }), 404, 'not_found');
    // the log and the details stay with managers
    const m = await admin.call(ops.getSubmission, { params: { id: failed.id } });
    expect(m.attemptList[0]!.files.map((f) => f.name).sort()).toEqual(['compile', 'details', 'log']);
    for (const f of m.attemptList[0]!.files.filter((x) => x.name !== 'compile')) {
      await refusedWith(author.c.call(ops.downloadFile, { params: { id: f.fileId } }), 404, 'not_found');
    }
  });

  it('an activity that keeps compile for managers only hides it from the author, in the view and at download', async () => {
    const before = await author.c.call(ops.getOwnSubmission, { params: { idOrSlug: act.slug, id: failed.id } });
    const compileFile = before.attemptList[0]!.files[0]!;
    await admin.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, attachmentVisibility: [{ name: 'compile', visibility: 'managersOnly' }] } });
    try {
      const d = await author.c.call(ops.getOwnSubmission, { params: { idOrSlug: act.slug, id: failed.id } });
      expect(d.attemptList[0]!.files).toEqual([]);
      await refusedWith(author.c.call(ops.downloadFile, { params: { id: compileFile.fileId } }), 404, 'not_found');
    } finally {
      await admin.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, attachmentVisibility: [] } });
    }
    // back to the default: shown again
    const again = await author.c.call(ops.getOwnSubmission, { params: { idOrSlug: act.slug, id: failed.id } });
    expect(again.attemptList[0]!.files.map((f) => f.name)).toEqual(['compile']);
  });
});
