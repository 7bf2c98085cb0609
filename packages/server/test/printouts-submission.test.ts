import { beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { refusedWith } from './expect.js';
import { codeForm } from './support/forms.js';
import { act, admin, alice, bob, open, submit, task, useSubmissionWorld } from './support/submissions.js';

/** A printout of a submission: its author's own only, printed with its problem's name. */
describe('printing a submission', () => {
  useSubmissionWorld();
  let slug: string;

  beforeAll(async () => {
    await admin.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, modules: { printouts: true } } });
    slug = (await task(open)).slug;
  });

  it("prints the author's own submission under its problem; another's is not found", async () => {
    const code = 'int main() { return 0; }\n';
    const s = await submit(alice.c, slug, codeForm(code, 'main.cpp'));
    const p = await alice.c.call(ops.requestPrintout, { params: { idOrSlug: act.slug }, body: { submissionId: s.id } });
    expect(p).toMatchObject({ fileName: 'main.cpp', state: 'queued', sizeBytes: code.length });
    const d = await admin.call(ops.getPrintout, { params: { id: p.id } });
    expect(d).toMatchObject({ source: code, problemSlug: slug });
    expect(d.problemName).toBe(p.title);
    const before = await bob.c.call(ops.listOwnPrintouts, { params: { idOrSlug: act.slug } });
    await refusedWith(bob.c.call(ops.requestPrintout, { params: { idOrSlug: act.slug }, body: { submissionId: s.id } }), 404, 'not_found');
    expect((await bob.c.call(ops.listOwnPrintouts, { params: { idOrSlug: act.slug } })).total).toBe(before.total);
  });
});
