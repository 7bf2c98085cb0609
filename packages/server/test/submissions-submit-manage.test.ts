import { beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity, type Series, type SubmissionSummary } from '@judge/contract';
import type { ApiProblem } from '@judge/sdk';
import { refusedWith } from './expect.js';
import { raw } from './harness.js';
import { at, listen, only, type Party } from './series-fixtures.js';
import { codeForm, fileForm, sha256 } from './support/forms.js';
import { j, w, admin, runner, manager, act, open, later, alice, bob, snapshot, incoming, refused, submit, task, participant, useSubmissionWorld } from './support/submissions.js';

/**
 * Submissions (decisions §7, §9): the participant's submit with its refusals in the documented
 * order, then the managers' list, detail, rejudge, cancel and exclusion of what was submitted.
 * Judging is done by a bare protocol runner, so that attempts finish as they do in production;
 * shared setup in support/submissions.ts.
 */

describe('submissions', () => {
  useSubmissionWorld();

  describe('submit', () => {
    it('takes pasted code: 201 with Location, queued, the bytes stored under their SHA-256, the language from the extension', async () => {
      const t = await task(open);
      const res = await alice.c.send(ops.submit, { params: { idOrSlug: act.slug, problemSlug: t.slug }, form: codeForm('int main() {}\n', 'main.cc', { deviceId: 'lab-pc-7' }) });
      const s = (await res.json()) as SubmissionSummary;
      expect(res.status, JSON.stringify(s)).toBe(201);
      expect(res.headers.get('location')).toBe(`/api/v1/activities/${act.slug}/submissions/${s.id}`);
      expect(s).toMatchObject({ activityId: act.id, activitySlug: act.slug, seriesId: open.id, seriesName: 'Open', seriesProblemId: t.id, problemSlug: t.slug, userId: alice.u.id, userName: alice.u.username, state: 'queued', attempts: 1, excluded: false });
      expect(s.verdict).toBeUndefined();
      const d = await admin.call(ops.getSubmission, { params: { id: s.id } });
      expect(d.files).toEqual([{ name: 'source', fileName: 'main.cc', language: 'cpp', fileId: expect.any(String), sha256: sha256('int main() {}\n'), sizeBytes: 14 }]);
      expect(d).toMatchObject({ ipAddress: '127.0.0.1', deviceId: 'lab-pc-7', sessionId: expect.any(String), problemType: 'standard-io@1' });
      expect(d.attemptList).toEqual([expect.objectContaining({ attempt: 1, state: 'queued' })]);
      // the author reads the bytes back
      const bytes = await alice.c.call(ops.downloadFile, { params: { id: d.files[0]!.fileId } });
      expect(Buffer.from(bytes).toString()).toBe('int main() {}\n');
      await runner.judge('AC');
    });

    it('takes a file part; props.language wins over the extension', async () => {
      const t = await task(open);
      const s = await submit(alice.c, t.slug, fileForm('print(1)\n', 'x.txt', { props: '{"language":"python3"}' }));
      expect(s.props).toEqual({ language: 'python3' });
      const d = await admin.call(ops.getSubmission, { params: { id: s.id } });
      expect(d.files[0]).toMatchObject({ fileName: 'x.txt', language: 'python3' });
      await runner.judge('WA');
    });

    it('tells the author and the managers, and no other participant', async () => {
      const t = await task(open);
      const author = await participant(act, 'listener', 'cookie');
      const authorSocket = await listen(j, author.u);
      const otherSocket = await listen(j, bob.u);
      const managerSocket = await listen(j, manager.u);
      const s = await submit(author.c, t.slug, codeForm('x'));
      const [a, o, m] = await w.barrier([authorSocket, otherSocket, managerSocket]);
      // the author's copy also names the assignment problemId, as the peer's summary does
      expect(only(a!, 'submissionStateChanged')).toEqual([{ activityId: act.id, submission: { ...s, problemId: t.id } }]);
      expect(only(a!, 'submissionChanged')).toEqual([]);
      expect(o!.filter((f) => f.type.startsWith('submission'))).toEqual([]);
      expect(only(m!, 'submissionChanged')).toEqual([{ activityId: act.id, submission: s }]);
      for (const x of [authorSocket, otherSocket, managerSocket]) x.close();
      await runner.judge('AC');
    });

    describe('refusals, in the documented order, each leaving nothing behind', () => {
      let limited: { slug: string; id: string };
      let restricted: { slug: string; id: string; versionId: string };
      let restrictedSeries: Series;

      beforeAll(async () => {
        limited = await task(open, { maxSubmissions: 1, maxUploadBytes: 10 });
        await submit(alice.c, limited.slug, codeForm('ok'));
        await runner.judge('WA');
        restrictedSeries = await admin.call(ops.createSeries, {
          params: { idOrSlug: act.slug },
          body: { slug: 'lab', name: 'Lab only', restrictionsEnabled: true, addressRules: [{ network: '10.0.0.0/8' }] },
        });
        restricted = await task(restrictedSeries, { maxSubmissions: 1, maxUploadBytes: 10 });
        // alice's one submission there came from inside the lab network: the limit is reached as well
        await w.submit({ activityId: act.id, seriesId: restrictedSeries.id, assignmentId: restricted.id, versionId: restricted.versionId, userId: alice.u.id });
      });

      it('an archived activity: 409 before anything else', async () => {
        const a = await w.activity({ joinPolicy: 'open', unlisted: false });
        const s = await admin.call(ops.createSeries, { params: { idOrSlug: a.slug }, body: { slug: 's', name: 'S', endDate: at(-1) } });
        const { problem } = await w.problem(admin, { package: true });
        await admin.call(ops.attachProblem, { params: { seriesId: s.id }, body: { problemId: problem.id, slug: 'p' } });
        const p = await participant(a);
        await w.archived(a.id, true);
        const bad = codeForm('way too large for the limit', 'a.cpp');
        bad.set('sha256', sha256('other'));
        await refused(submit(p.c, 'p', bad, a.slug), 409, 'activity.archived');
      });

      it('a problem not shown (its series never opened): 404, before the closed series and the checksum', async () => {
        const t = await task(later);
        const bad = codeForm('x');
        bad.set('sha256', sha256('other'));
        await refused(submit(alice.c, t.slug, bad), 404, 'not_found');
        await refused(submit(alice.c, 'no-such-problem', codeForm('x')), 404, 'not_found');
      });

      it('a series that takes no submissions: 403 series.closed, before the address rules and the limit', async () => {
        const paused = await admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: w.uniq('paused'), name: 'Paused' } });
        const t = await task(paused, { maxSubmissions: 1 });
        await submit(alice.c, t.slug, codeForm('first'));
        await runner.judge('WA');
        // now the address rules and the limit would refuse it too
        await admin.call(ops.updateSeries, { params: { seriesId: paused.id }, body: { restrictionsEnabled: true, addressRules: [{ network: '10.0.0.0/8' }] } });
        await admin.call(ops.pauseSeries, { params: { seriesId: paused.id }, body: { hideProblems: false } });
        const e = await refused(submit(alice.c, t.slug, codeForm('second')), 403, 'series.closed');
        expect(e.detail).toMatch(/paused/);
      });

      it('an address outside the rules: 403 series.address, before the limit', async () => {
        await refused(submit(alice.c, restricted.slug, codeForm('far too long for ten bytes')), 403, 'series.address');
      });

      it('the limit reached: 403 submission.limit, before the size and the checksum', async () => {
        const bad = codeForm('far too long for ten bytes');
        bad.set('sha256', sha256('other'));
        await refused(submit(alice.c, limited.slug, bad), 403, 'submission.limit');
      });

      it('too large for the assignment: 413, before the checksum; a file part as well as code', async () => {
        const t = await task(open, { maxUploadBytes: 10 });
        const bad = codeForm('eleven byte');
        bad.set('sha256', sha256('other'));
        await refused(submit(bob.c, t.slug, bad), 413, 'payload_too_large');
        await refused(submit(bob.c, t.slug, fileForm('eleven byte')), 413, 'payload_too_large');
        // exactly the limit is fine
        await submit(bob.c, t.slug, codeForm('ten bytes!'));
        await runner.judge('AC');
      });

      it('a checksum that does not match the bytes: 422', async () => {
        const t = await task(open);
        const bad = codeForm('int main() {}');
        bad.set('sha256', sha256('int main() { }'));
        await refused(submit(bob.c, t.slug, bad), 422, 'checksum_mismatch');
        const badFile = fileForm('print(2)');
        badFile.set('sha256', sha256('print(3)'));
        await refused(submit(bob.c, t.slug, badFile), 422, 'checksum_mismatch');
      });
    });

    describe('who may submit', () => {
      it('anonymous: 401; a stranger to a closed activity: 404; a member without submission:create: 403', async () => {
        const t = await task(open);
        await refused(j.anonymous().call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: t.slug }, form: codeForm('x') }), 401, 'unauthenticated');
        const closed = await w.activity();
        const s = await admin.call(ops.createSeries, { params: { idOrSlug: closed.slug }, body: { slug: 's', name: 'S' } });
        const { problem } = await w.problem(admin, { package: true });
        await admin.call(ops.attachProblem, { params: { seriesId: s.id }, body: { problemId: problem.id, slug: 'p' } });
        await refused(submit(bob.c, 'p', codeForm('x'), closed.slug), 404, 'not_found');
        await admin.call(ops.createRole, { body: { name: 'Reader', permissions: ['activity:read', 'submission:read:own'] } });
        const reader = await w.party('reader');
        await j.grant(reader.u.id, 'Reader', closed.id);
        const e = await refused(submit(reader.c, 'p', codeForm('x'), closed.slug), 403, 'forbidden');
        expect(e.detail).toMatch(/submission:create/);
      });

      it('a manager may test a problem in a series that is not open yet, past any limit', async () => {
        const t = await task(later, { maxSubmissions: 1 });
        await submit(manager.c, t.slug, codeForm('one'));
        const s = await submit(manager.c, t.slug, codeForm('two'));
        expect(s.state).toBe('queued');
        await runner.judge('AC');
        await runner.judge('AC');
      });

      it('two submissions racing for the last one: one is taken, the other refused', async () => {
        const t = await task(open, { maxSubmissions: 1 });
        const p = await participant(act, 'racer');
        const results = await Promise.allSettled([submit(p.c, t.slug, codeForm('a')), submit(p.c, t.slug, codeForm('b'))]);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect((lost.reason as ApiProblem).code).toBe('submission.limit');
        expect(incoming()).toEqual([]);
        await runner.judge('AC');
      });
    });

    describe('bad input changes nothing', () => {
      let t: { slug: string; id: string };
      beforeAll(async () => {
        t = await task(open);
      });
      const form = (parts: Record<string, string>) => {
        const f = new FormData();
        for (const [k, v] of Object.entries(parts)) f.set(k, v);
        return f;
      };

      it('neither file nor code: 422 submission.empty', () => refused(submit(alice.c, t.slug, form({ sha256: sha256('') })), 422, 'submission.empty'));
      it('code without a fileName: 422 submission.fileName.missing', () => refused(submit(alice.c, t.slug, form({ code: 'x', sha256: sha256('x') })), 422, 'submission.fileName.missing'));
      it('a file name with a slash: 422', () => refused(submit(alice.c, t.slug, form({ code: 'x', fileName: '../a.c', sha256: sha256('x') })), 422, 'validation_failed'));
      it('both a file and code: 422', async () => {
        const f = fileForm('x');
        f.set('code', 'y');
        await refused(submit(alice.c, t.slug, f), 422, 'validation_failed');
      });
      it('two file parts: 422 file.tooMany', async () => {
        const f = fileForm('x');
        f.append('other', new Blob(['y']), 'b.py');
        await refused(submit(alice.c, t.slug, f), 422, 'file.tooMany');
      });
      it('props that are not a JSON object: 422 naming props', async () => {
        for (const props of ['not json', '[1,2]', '"text"', 'null']) {
          const e = await refused(submit(alice.c, t.slug, codeForm('x', 'a.c', { props })), 422, 'validation_failed');
          expect(Object.keys(e.errors ?? {})).toEqual(['props']);
        }
      });
      it('a malformed or missing sha256: 422', async () => {
        const f = codeForm('x');
        f.set('sha256', 'xyz');
        await refused(submit(alice.c, t.slug, f), 422, 'validation_failed');
        await refused(submit(alice.c, t.slug, form({ code: 'x', fileName: 'a.c' })), 422, 'validation_failed');
      });
      it('JSON instead of multipart: 415', async () => {
        const before = await snapshot();
        const res = await raw(`${j.url}/api/v1/activities/${act.slug}/problems/${t.slug}/submissions`, {
          method: 'POST',
          token: alice.c.accessToken,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ code: 'x' }),
        });
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 415, code: 'unsupported_media_type' });
        expect(await snapshot()).toBe(before);
      });
    });
  });

  describe('the managers side', () => {
    let other: Activity;
    let t: { slug: string; id: string };
    let erin: Party;
    let frank: Party;
    let first: SubmissionSummary;
    let second: SubmissionSummary;
    let otherManager: Party;

    beforeAll(async () => {
      erin = await participant(act, 'erin');
      frank = await participant(act, 'frank');
      t = await task(open, { maxPoints: 50 });
      first = await submit(erin.c, t.slug, codeForm('e1'));
      await runner.judge('WA');
      // a submission in another activity, which this activity's manager must not see
      other = await w.activity({ joinPolicy: 'open', unlisted: false });
      otherManager = await w.party('other-manager');
      await j.grant(otherManager.u.id, 'manager', other.id);
      const s = await admin.call(ops.createSeries, { params: { idOrSlug: other.slug }, body: { slug: 's', name: 'S' } });
      const { problem } = await w.problem(admin, { package: true });
      await admin.call(ops.attachProblem, { params: { seriesId: s.id }, body: { problemId: problem.id, slug: 'p' } });
      await erin.c.call(ops.enrol, { params: { idOrSlug: other.slug }, body: {} });
      await submit(erin.c, 'p', codeForm('elsewhere'), other.slug);
      await runner.judge('AC');
      // frank's stays queued for the tests below
      second = await submit(frank.c, t.slug, codeForm('f1'));
    });

    it('lists the submissions of the activities the caller manages; filters apply before paging', async () => {
      const mine = await manager.c.call(ops.listSubmissions, { query: { seriesProblemId: t.id } });
      expect(mine.items.map((s) => s.id)).toEqual([second.id, first.id]);
      const everything = await manager.c.call(ops.listSubmissions, { query: { pageSize: 200 } });
      expect(everything.items.every((s) => s.activityId === act.id)).toBe(true);
      const theirs = await otherManager.c.call(ops.listSubmissions, {});
      expect(theirs.items.map((s) => s.activityId)).toEqual([other.id]);
      // each filter narrows, and total counts what it lets through
      const byUser = await manager.c.call(ops.listSubmissions, { query: { userId: erin.u.id, pageSize: 1 } });
      expect(byUser.total).toBe(1);
      const byVerdict = await manager.c.call(ops.listSubmissions, { query: { seriesProblemId: t.id, verdict: 'WA' } });
      expect(byVerdict.items.map((s) => s.id)).toEqual([first.id]);
      const byState = await manager.c.call(ops.listSubmissions, { query: { seriesProblemId: t.id, state: 'queued' } });
      expect(byState.items.map((s) => s.id)).toEqual([second.id]);
      const bySearch = await manager.c.call(ops.listSubmissions, { query: { search: frank.u.username } });
      expect(bySearch.items.map((s) => s.id)).toEqual([second.id]);
      const bySeries = await manager.c.call(ops.listSubmissions, { query: { seriesId: later.id } });
      expect(bySeries.total).toBeGreaterThan(0);
      expect(bySeries.items.every((s) => s.seriesId === later.id)).toBe(true);
      const all = await admin.call(ops.listSubmissions, { query: { activityId: other.id } });
      expect(all.total).toBe(1);
      // the score is shown on the assignment's scale
      expect(byVerdict.items[0]).toMatchObject({ score: 0, maxScore: 50 });
    });

    it('a system-wide holder of submission:read:all lists every activity but one where an override grant stands them down', async () => {
      await admin.call(ops.createRole, { body: { name: 'Auditor', permissions: ['submission:read:all'] } });
      const auditor = await w.party('auditor');
      await j.grant(auditor.u.id, 'Auditor');
      const activities = async () => new Set((await auditor.c.call(ops.listSubmissions, { query: { pageSize: 200 } })).items.map((s) => s.activityId));
      expect(await activities()).toEqual(new Set([act.id, other.id]));
      await j.grant(auditor.u.id, 'participant', other.id, true);
      expect(await activities()).toEqual(new Set([act.id]));
      expect((await auditor.c.call(ops.listSubmissions, { query: { activityId: other.id } })).total).toBe(0);
    });

    it('narrows by the time of submission (any offset) and names each language as the language table does', async () => {
      const t2 = await task(open);
      const early = w.clock.now();
      await w.submit({ activityId: act.id, seriesId: open.id, assignmentId: t2.id, versionId: t2.versionId, userId: erin.u.id });
      w.clock.advance(60);
      await w.submit({ activityId: act.id, seriesId: open.id, assignmentId: t2.id, versionId: t2.versionId, userId: frank.u.id });
      const late = w.clock.now();
      const ids = (q: Record<string, string>) => manager.c.call(ops.listSubmissions, { query: { seriesProblemId: t2.id, ...q } }).then((p) => p.items.map((s) => s.userId));
      expect(await ids({})).toEqual([frank.u.id, erin.u.id]);
      expect(await ids({ submittedBefore: late.toISOString() })).toEqual([erin.u.id]);
      expect(await ids({ submittedFrom: late.toISOString() })).toEqual([frank.u.id]);
      expect(await ids({ submittedFrom: early.toISOString(), submittedBefore: new Date(early.getTime() + 1).toISOString() })).toEqual([erin.u.id]);
      // the same instant written in Berlin's winter offset bounds the same way
      const inBerlin = `${new Date(late.getTime() + 3600_000).toISOString().slice(0, 23)}+01:00`;
      expect(await ids({ submittedFrom: inBerlin })).toEqual([frank.u.id]);
      expect(await ids({ submittedBefore: inBerlin })).toEqual([erin.u.id]);
      // a participant's window over the same time lists nothing
      expect((await erin.c.call(ops.listSubmissions, { query: { submittedFrom: early.toISOString() } })).total).toBe(0);
      for (const bad of ['yesterday', '2026-11-27', '2026-11-27T10:00:00']) {
        await refusedWith(manager.c.call(ops.listSubmissions, { query: { submittedFrom: bad } }), 422, 'validation_failed');
        await refusedWith(manager.c.call(ops.listSubmissions, { query: { submittedBefore: bad } }), 422, 'validation_failed');
      }
      // the language by its id and by the table's name, on the list, the page and the author's own list
      const cpp = { language: 'cpp', languageName: 'C++ (g++, gnu++20)' };
      expect((await manager.c.call(ops.listSubmissions, { query: { seriesProblemId: t.id, userId: erin.u.id } })).items[0]).toMatchObject(cpp);
      expect(await manager.c.call(ops.getSubmission, { params: { id: first.id } })).toMatchObject(cpp);
      expect((await erin.c.call(ops.listOwnSubmissions, { params: { idOrSlug: act.slug }, query: { seriesProblemId: t.id } })).items[0]).toMatchObject(cpp);
      expect(await erin.c.call(ops.getOwnSubmission, { params: { idOrSlug: act.slug, id: first.id } })).toMatchObject(cpp);
    });

    it('a participant lists nothing and reads no submission here; bad queries are 422', async () => {
      const none = await erin.c.call(ops.listSubmissions, {});
      expect(none).toEqual({ items: [], total: 0, page: 1, pageSize: 20 });
      await refusedWith(erin.c.call(ops.getSubmission, { params: { id: first.id } }), 404, 'not_found');
      await refusedWith(otherManager.c.call(ops.getSubmission, { params: { id: first.id } }), 404, 'not_found');
      await refusedWith(manager.c.call(ops.listSubmissions, { query: { state: 'judged' as never } }), 422, 'validation_failed');
      await refusedWith(manager.c.call(ops.listSubmissions, { query: { activityId: 'not-a-uuid' } }), 422, 'validation_failed');
    });

    it('rejudge: a new attempt behind first attempts; the old unfinished one is cancelled', async () => {
      const s = await manager.c.call(ops.rejudgeSubmission, { params: { id: first.id } });
      expect(s).toMatchObject({ id: first.id, state: 'queued', attempts: 2 });
      expect(s.verdict).toBeUndefined();
      const d = await manager.c.call(ops.getSubmission, { params: { id: first.id } });
      expect(d.attemptList.map((a) => [a.attempt, a.state])).toEqual([
        [2, 'queued'],
        [1, 'completed'],
      ]);
      // the first attempt of frank's submission is claimed before the rejudge
      const job = await runner.judge('AC');
      expect(job.submissionId).toBe(second.id);
      const again = await runner.judge('AC');
      expect(again).toMatchObject({ submissionId: first.id, attempt: 2 });
      expect((await manager.c.call(ops.getSubmission, { params: { id: first.id } })).verdict).toBe('AC');
    });

    it('rejudge refusals: a participant 404, a manager without submission:rejudge 403', async () => {
      await refusedWith(erin.c.call(ops.rejudgeSubmission, { params: { id: first.id } }), 404, 'not_found');
      await admin.call(ops.createRole, { body: { name: 'Watcher', permissions: ['activity:read', 'submission:read:all'] } });
      const watcher = await w.party('watcher');
      await j.grant(watcher.u.id, 'Watcher', act.id);
      const before = await snapshot();
      await refusedWith(watcher.c.call(ops.rejudgeSubmission, { params: { id: first.id } }), 403, 'forbidden');
      await refusedWith(watcher.c.call(ops.cancelAttempt, { params: { submissionId: first.id, attemptId: first.id } }), 403, 'forbidden');
      await refusedWith(watcher.c.call(ops.setSubmissionExcluded, { params: { id: first.id }, body: { excluded: true } }), 403, 'forbidden');
      await refusedWith(watcher.c.call(ops.rejudgeAssignment, { params: { assignmentId: t.id } }), 403, 'forbidden');
      expect(await snapshot()).toBe(before);
    });

    it('cancel: a queued attempt is cancelled; a finished one is 409; an unknown one 404', async () => {
      const s = await submit(erin.c, t.slug, codeForm('to cancel'));
      const attemptId = (await manager.c.call(ops.getSubmission, { params: { id: s.id } })).attemptList[0]!.id;
      const d = await manager.c.call(ops.cancelAttempt, { params: { submissionId: s.id, attemptId } });
      expect(d.state).toBe('cancelled');
      expect(d.attemptList[0]).toMatchObject({ state: 'cancelled', finishedAt: expect.any(String) });
      await refusedWith(manager.c.call(ops.cancelAttempt, { params: { submissionId: s.id, attemptId } }), 409, 'attempt.finished');
      await refusedWith(manager.c.call(ops.cancelAttempt, { params: { submissionId: s.id, attemptId: s.id } }), 404, 'not_found');
      await refusedWith(manager.c.call(ops.cancelAttempt, { params: { submissionId: first.id, attemptId } }), 404, 'not_found');
      // nothing is left for a runner
      expect(await runner.claim()).toBeUndefined();
    });

    it('exclusion with a reason, and back; the author hears the standing changed', async () => {
      const sock = await listen(j, erin.u);
      const d = await manager.c.call(ops.setSubmissionExcluded, { params: { id: first.id }, body: { excluded: true, reason: 'copied' } });
      expect(d).toMatchObject({ excluded: true, excludedAt: expect.any(String), excludedBy: manager.u.id, exclusionReason: 'copied' });
      const status = await sock.next('problemStatusChanged');
      expect(status.data).toMatchObject({ activityId: act.id, problem: { id: t.id, status: 'attempted' } });
      const back = await manager.c.call(ops.setSubmissionExcluded, { params: { id: first.id }, body: { excluded: false } });
      expect(back.excluded).toBe(false);
      expect(back.excludedAt).toBeUndefined();
      expect(back.exclusionReason).toBeUndefined();
      expect((await sock.next('problemStatusChanged')).data).toMatchObject({ problem: { status: 'solved', bestScore: 50, maxScore: 50 } });
      sock.close();
      const before = await snapshot();
      const res = await raw(`${j.url}/api/v1/submissions/${first.id}/excluded`, { method: 'POST', token: manager.c.accessToken, headers: { 'content-type': 'application/json' }, body: '{"excluded":"yes"}' });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 422, code: 'validation_failed' });
      expect(await snapshot()).toBe(before);
      await refusedWith(erin.c.call(ops.setSubmissionExcluded, { params: { id: first.id }, body: { excluded: true } }), 404, 'not_found');
    });

    it('rejudge of a whole assignment answers how many submissions were queued', async () => {
      const n = await manager.c.call(ops.rejudgeAssignment, { params: { assignmentId: t.id } });
      const count = (await manager.c.call(ops.listSubmissions, { query: { seriesProblemId: t.id } })).total;
      expect(n).toBe(count);
      const queued = await manager.c.call(ops.listSubmissions, { query: { seriesProblemId: t.id, state: 'queued' } });
      expect(queued.total).toBe(count);
      for (let i = 0; i < count; i++) await runner.judge('AC');
      await refusedWith(erin.c.call(ops.rejudgeAssignment, { params: { assignmentId: t.id } }), 403, 'forbidden');
      await refusedWith(otherManager.c.call(ops.rejudgeAssignment, { params: { assignmentId: t.id } }), 403, 'forbidden');
      await refusedWith(manager.c.call(ops.rejudgeAssignment, { params: { assignmentId: erin.u.id } }), 404, 'not_found');
    });
  });
});
