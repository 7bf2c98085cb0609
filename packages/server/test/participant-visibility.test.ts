import { beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity, type Series } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { refusedWith, sendJson } from './expect.js';
import { j, admin, inMinutes, party, activity, series, attach, participantOf, problemWithFiles, simpleProblem, passMinutes, listOf, problemOf, seriesIn, fileStatus, hiddenFrom, shownTo, useParticipantWorld } from './support/participant.js';

/**
 * The participant's view of series and problems (decisions §7, §9) over real HTTP and a real SQLite
 * file: when a series shows its problems, and every refusal to an outsider, proven by trying it.
 * Submissions are written straight to the database. Shared world in support/participant.ts.
 */

describe('participant: series and problems', () => {
  useParticipantWorld();

  describe('when a series shows its problems', () => {
    it('hides them before the series opens (list, detail and files) and shows them once it opens', async () => {
      const a = await activity();
      const s = await series(a, { startDate: inMinutes(30) });
      const prob = await problemWithFiles();
      await attach(s, prob.problemId, { slug: 'soon' });
      const pupil = await participantOf(a);
      const participantFiles = [prob.files.statement, prob.files.notes, prob.files.samples];

      await hiddenFrom(pupil.c, a, s, 'soon', participantFiles);
      expect(seriesIn(await listOf(pupil.c, a), s)).toMatchObject({ isOpen: false, problemCount: 1 });

      await passMinutes(30);
      await shownTo(pupil.c, a, s, 'soon', participantFiles);
      expect(await problemOf(pupil.c, a, 'soon')).toMatchObject({ canSubmit: true });
      // the package and the manager's and runner's files stay out of reach
      for (const id of [prob.files.pkg, prob.files.solution, prob.files.checker]) expect({ id, status: await fileStatus(pupil.c, id) }).toEqual({ id, status: 404 });
    });

    it('hides them while paused with hideProblems, keeps them (closed to submissions) without', async () => {
      const a = await activity();
      const s = await series(a, { startDate: inMinutes(-5) });
      const prob = await problemWithFiles();
      await attach(s, prob.problemId, { slug: 'pausing' });
      const pupil = await participantOf(a);
      const participantFiles = [prob.files.statement, prob.files.notes];

      await admin.call(ops.pauseSeries, { params: { seriesId: s.id }, body: { hideProblems: true } });
      await hiddenFrom(pupil.c, a, s, 'pausing', participantFiles);
      expect(seriesIn(await listOf(pupil.c, a), s)).toMatchObject({ isOpen: false, pausedAt: expect.any(String), problemCount: 1 });

      await admin.call(ops.resumeSeries, { params: { seriesId: s.id }, body: { extendEnd: false } });
      await shownTo(pupil.c, a, s, 'pausing', participantFiles);

      await admin.call(ops.pauseSeries, { params: { seriesId: s.id }, body: { hideProblems: false } });
      await shownTo(pupil.c, a, s, 'pausing', participantFiles);
      expect(await problemOf(pupil.c, a, 'pausing')).toMatchObject({ canSubmit: false });
    });

    it('keeps the problems of an ended series, unless the activity hides ended series', async () => {
      const a = await activity();
      const s = await series(a, { startDate: inMinutes(-60), endDate: inMinutes(10) });
      const prob = await problemWithFiles();
      await attach(s, prob.problemId, { slug: 'past' });
      const pupil = await participantOf(a);
      const participantFiles = [prob.files.statement, prob.files.samples];

      await passMinutes(10);
      await shownTo(pupil.c, a, s, 'past', participantFiles);
      expect(await problemOf(pupil.c, a, 'past')).toMatchObject({ canSubmit: false });
      expect(seriesIn(await listOf(pupil.c, a), s).isOpen).toBe(false);

      await admin.call(ops.updateActivity, { params: { idOrSlug: a.slug }, body: { slug: a.slug, hideEndedSeriesProblems: true } });
      await hiddenFrom(pupil.c, a, s, 'past', participantFiles);

      await admin.call(ops.updateActivity, { params: { idOrSlug: a.slug }, body: { slug: a.slug, hideEndedSeriesProblems: false } });
      await shownTo(pupil.c, a, s, 'past', participantFiles);
    });

    it('shows managers the problems and every file of their activity at any time, and nobody else the manager files', async () => {
      const a = await activity();
      const s = await series(a, { startDate: inMinutes(30) });
      const prob = await problemWithFiles();
      await attach(s, prob.problemId, { slug: 'hidden' });
      const manager = await party('mgr');
      await j.grant(manager.u.id, 'manager', a.id);
      const pupil = await participantOf(a);
      for (const id of Object.values(prob.files)) expect({ id, status: await fileStatus(manager.c, id) }).toEqual({ id, status: 200 });
      expect(await problemOf(manager.c, a, 'hidden')).toMatchObject({ slug: 'hidden' });

      // once open, the participant reads the participant's files and still not the others
      await passMinutes(30);
      for (const id of [prob.files.statement, prob.files.notes, prob.files.samples]) expect({ id, status: await fileStatus(pupil.c, id) }).toEqual({ id, status: 200 });
      for (const id of [prob.files.solution, prob.files.checker, prob.files.pkg]) expect({ id, status: await fileStatus(pupil.c, id) }).toEqual({ id, status: 404 });

      // a manager of another activity that does not use the problem reads none of it
      const elsewhere = await activity();
      const stranger = await party('mgr-b');
      await j.grant(stranger.u.id, 'manager', elsewhere.id);
      for (const id of Object.values(prob.files)) expect({ id, status: await fileStatus(stranger.c, id) }).toEqual({ id, status: 404 });
    });
  });

  describe('who may not read', () => {
    let a: Activity;
    let s: Series;
    let prob: Awaited<ReturnType<typeof problemWithFiles>>;

    beforeAll(async () => {
      a = await activity();
      s = await series(a, { startDate: inMinutes(-5) });
      prob = await problemWithFiles();
      await attach(s, prob.problemId, { slug: 'inside' });
      // the insider sees all of it, so each refusal below is about who asks
      const insider = await participantOf(a);
      await shownTo(insider.c, a, s, 'inside', [prob.files.statement, prob.files.notes, prob.files.samples]);
    });

    /**
     * Lists nothing of A, reads none of A's problems, none of its files: 404 each, as if nothing
     * existed.
     */
    async function refusedEverything(c: JudgeClient): Promise<void> {
      await refusedWith(listOf(c, a), 404, 'not_found');
      await refusedWith(listOf(c, a.id), 404, 'not_found');
      await refusedWith(problemOf(c, a, 'inside'), 404, 'not_found');
      for (const id of Object.values(prob.files)) expect({ id, status: await fileStatus(c, id) }).toEqual({ id, status: 404 });
    }

    it('refuses a participant of another activity', async () => {
      const b = await activity();
      const outsider = await participantOf(b, 'b-pupil');
      // B's own series are theirs to list
      expect(await listOf(outsider.c, b)).toEqual([]);
      await refusedEverything(outsider.c);
    });

    it('refuses a signed-in user who has not enrolled, though the open activity itself is visible to them', async () => {
      const stranger = await party('stranger');
      expect((await stranger.c.call(ops.getActivity, { params: { idOrSlug: a.slug } })).enrolled).toBe(false);
      await refusedEverything(stranger.c);
      // enrolling is what opens it
      await stranger.c.call(ops.enrol, { params: { idOrSlug: a.slug }, body: {} });
      expect(seriesIn(await listOf(stranger.c, a), s).problems).toHaveLength(1);
    });

    it('refuses a manager of another activity', async () => {
      const b = await activity();
      const other = await party('b-mgr');
      await j.grant(other.u.id, 'manager', b.id);
      await refusedEverything(other.c);
    });

    it('refuses everyone but managers while the activity is unpublished, members included', async () => {
      const c = await activity();
      const cs = await series(c, { startDate: inMinutes(-5) });
      const cp = await problemWithFiles();
      await attach(cs, cp.problemId, { slug: 'draft' });
      const member = await participantOf(c);
      const manager = await party('c-mgr');
      await j.grant(manager.u.id, 'manager', c.id);
      await shownTo(member.c, c, cs, 'draft', [cp.files.statement]);

      await admin.call(ops.setActivityPublished, { params: { id: c.id }, body: { published: false } });
      await refusedWith(listOf(member.c, c), 404, 'not_found');
      await refusedWith(problemOf(member.c, c, 'draft'), 404, 'not_found');
      expect(await fileStatus(member.c, cp.files.statement)).toBe(404);
      expect(seriesIn(await listOf(manager.c, c), cs).problems).toHaveLength(1);
      expect(await problemOf(manager.c, c, 'draft')).toMatchObject({ canSubmit: false });
      expect(await fileStatus(manager.c, cp.files.statement)).toBe(200);
    });

    it('refuses a participant of a closed activity they are not in', async () => {
      const closed = await activity({ joinPolicy: 'closed' });
      const cs = await series(closed, { startDate: inMinutes(-5) });
      await attach(cs, (await simpleProblem()).problemId, { slug: 'closed-task' });
      const member = await party('closed-member');
      await j.grant(member.u.id, 'participant', closed.id);
      expect(seriesIn(await listOf(member.c, closed), cs).problems).toHaveLength(1);
      const pupil = await participantOf(a);
      await refusedWith(listOf(pupil.c, closed), 404, 'not_found');
      await refusedWith(problemOf(pupil.c, closed, 'closed-task'), 404, 'not_found');
    });

    it('answers 401 to an anonymous caller', async () => {
      await refusedWith(j.anonymous().call(ops.listActivitySeries, { params: { idOrSlug: a.slug } }), 401, 'unauthenticated');
      await refusedWith(j.anonymous().call(ops.getActivityProblem, { params: { idOrSlug: a.slug, problemSlug: 'inside' } }), 401, 'unauthenticated');
    });

    it('answers 404 problem+json to a malformed path: a slug that could not exist names nothing', async () => {
      const pupil = await participantOf(a);
      const long = 'x'.repeat(65);
      for (const path of [`/activities/${long}/series`, `/activities/${a.slug}/problems/${long}`, `/activities/${long}/problems/inside`, `/activities/${a.slug}/problems/%20`]) {
        const res = await sendJson(j.url, 'GET', path, pupil.c.accessToken);
        expect({ path, status: res.status, code: res.body?.code }).toEqual({ path, status: 404, code: 'not_found' });
      }
      // the same activity and problem, well named, are there
      expect((await problemOf(pupil.c, a, 'inside')).slug).toBe('inside');
    });
  });
});
