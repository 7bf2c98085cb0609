import { beforeAll, describe, expect, it } from 'vitest';
import { ops, type SubmissionSummary } from '@judge/contract';
import { refusedWith } from './expect.js';
import { type Party } from './series-fixtures.js';
import { codeForm } from './support/forms.js';
import { w, admin, runner, manager, act, open, submit, task, participant, useSubmissionWorld } from './support/submissions.js';

/**
 * Submissions (decisions §7, §9): the participant's own list and detail, and who may read which
 * files. Judging is done by a bare protocol runner, so that attempts finish as they do in
 * production; shared setup in support/submissions.ts.
 */

describe('submissions', () => {
  useSubmissionWorld();

  describe("the participant's own", () => {
    let t: { slug: string; id: string };
    let mine: SubmissionSummary;
    let theirs: SubmissionSummary;
    let carol: Party;
    let dave: Party;

    beforeAll(async () => {
      carol = await participant(act, 'carol');
      dave = await participant(act, 'dave');
      t = await task(open);
      await admin.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, attachmentVisibility: [{ name: 'log', visibility: 'participant' }] } });
      mine = await submit(carol.c, t.slug, codeForm('mine'));
      await runner.judge('WA', { log: 'compiler said hello', details: '{"tests":[]}' });
      theirs = await submit(dave.c, t.slug, codeForm('theirs'));
      await runner.judge('AC');
      await submit(carol.c, t.slug, codeForm('mine again'));
      await runner.judge('AC');
    });

    it('lists only the caller own, newest first, with results; filters by assignment', async () => {
      const page = await carol.c.call(ops.listOwnSubmissions, { params: { idOrSlug: act.slug }, query: { pageSize: 1 } });
      expect(page.total).toBe(2);
      expect(page.items).toHaveLength(1);
      expect(page.items[0]).toMatchObject({ userId: carol.u.id, verdict: 'AC', score: 1, maxScore: 1, state: 'completed' });
      const all = await carol.c.call(ops.listOwnSubmissions, { params: { idOrSlug: act.slug }, query: { seriesProblemId: t.id } });
      expect(all.items.map((s) => s.id)).toContain(mine.id);
      expect(all.items.map((s) => s.id)).not.toContain(theirs.id);
      const none = await carol.c.call(ops.listOwnSubmissions, { params: { idOrSlug: act.slug }, query: { seriesProblemId: open.id } });
      expect(none.total).toBe(0);
    });

    it('shows the attempts and the attachments the activity lets participants see', async () => {
      const d = await carol.c.call(ops.getOwnSubmission, { params: { idOrSlug: act.slug, id: mine.id } });
      expect(d.attemptList).toHaveLength(1);
      expect(d.attemptList[0]!.files.map((f) => f.name)).toEqual(['log']);
      expect(d.attemptList[0]).toMatchObject({ verdict: 'WA', state: 'completed' });
      expect(d.attemptList[0]!.runnerName).toBeUndefined();
      expect(d.ipAddress).toBeUndefined();
      // the log is readable by its author; the details are not, nor is anybody else's source
      const log = d.attemptList[0]!.files[0]!;
      expect(Buffer.from(await carol.c.call(ops.downloadFile, { params: { id: log.fileId } })).toString()).toBe('compiler said hello');
      const m = await admin.call(ops.getSubmission, { params: { id: mine.id } });
      const details = m.attemptList[0]!.files.find((f) => f.name === 'details')!;
      await refusedWith(carol.c.call(ops.downloadFile, { params: { id: details.fileId } }), 404, 'not_found');
      await refusedWith(dave.c.call(ops.downloadFile, { params: { id: m.files[0]!.fileId } }), 404, 'not_found');
      await refusedWith(dave.c.call(ops.downloadFile, { params: { id: log.fileId } }), 404, 'not_found');
      // the manager reads both attachments and the source
      expect(m.attemptList[0]!.files.map((f) => f.name)).toEqual(['details', 'log']);
      expect(Buffer.from(await manager.c.call(ops.downloadFile, { params: { id: details.fileId } })).toString()).toBe('{"tests":[]}');
      expect(Buffer.from(await manager.c.call(ops.downloadFile, { params: { id: m.files[0]!.fileId } })).toString()).toBe('mine');
    });

    it("another participant's submission is 404, as is one of another activity; a manager reads it here too", async () => {
      await refusedWith(carol.c.call(ops.getOwnSubmission, { params: { idOrSlug: act.slug, id: theirs.id } }), 404, 'not_found');
      const other = await w.activity({ joinPolicy: 'open', unlisted: false });
      await carol.c.call(ops.enrol, { params: { idOrSlug: other.slug }, body: {} });
      await refusedWith(carol.c.call(ops.getOwnSubmission, { params: { idOrSlug: other.slug, id: mine.id } }), 404, 'not_found');
      const d = await manager.c.call(ops.getOwnSubmission, { params: { idOrSlug: act.slug, id: theirs.id } });
      expect(d.userId).toBe(dave.u.id);
    });

    it('a stranger to the activity cannot list in it', async () => {
      const closed = await w.activity();
      await refusedWith(carol.c.call(ops.listOwnSubmissions, { params: { idOrSlug: closed.slug } }), 404, 'not_found');
    });
  });
});
