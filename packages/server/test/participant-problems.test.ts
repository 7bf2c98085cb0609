import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { refusedWith } from './expect.js';
import { admin, uniq, inMinutes, party, activity, series, attach, participantOf, problemWithFiles, newStatement, simpleProblem, submitted, listOf, problemOf, seriesIn, fileStatus, useParticipantWorld } from './support/participant.js';

/**
 * The participant's view of series and problems (decisions §7, §9) over real HTTP and a real SQLite
 * file: a problem as a participant reads it: its effective limits and the files of its version.
 * Submissions are written straight to the database. Shared world in support/participant.ts.
 */

const sha256Hex = (t: string) => createHash('sha256').update(t).digest('hex');

describe('participant: series and problems', () => {
  useParticipantWorld();

  describe('GET /activities/{idOrSlug}/problems/{problemSlug}', () => {
    it('answers statements, participant attachments, package limits, languages and the assignment settings', async () => {
      const a = await activity({ maxUploadBytes: 4096, maxAttachments: 3 });
      const s = await series(a, { startDate: inMinutes(-5) });
      const prob = await problemWithFiles();
      const id = await attach(s, prob.problemId, {
        slug: 'Sum',
        name: 'Sum it up',
        config: { languages: ['cpp', 'python3'], checker: 'exact' },
        spec: { kind: 'io' },
        props: { colour: 'blue' },
        maxPoints: 50,
      });
      const pupil = await participantOf(a);
      const meta = async (fileId: string) => admin.call(ops.getFileMeta, { params: { id: fileId } });
      const [statement, notes, samples] = await Promise.all([meta(prob.files.statement), meta(prob.files.notes), meta(prob.files.samples)]);

      const detail = await problemOf(pupil.c, a, 'sum'); // slugs match regardless of case
      expect(detail).toEqual({
        id,
        slug: 'Sum',
        name: 'Sum it up',
        type: 'standard-io@1',
        seriesId: s.id,
        seriesSlug: s.slug,
        statements: [{ name: 'statement.en.md', language: 'en', format: 'markdown', fileId: statement.id, sha256: statement.sha256, sizeBytes: statement.sizeBytes }],
        // the participant's files, samples included (the package's data/sample/ as files of their own, read at
        // upload); never the package, the manager's or the runner's files, nor the secret data
        attachments: [
          { name: 'notes.txt', fileId: notes.id, mimeType: notes.mimeType, sizeBytes: notes.sizeBytes, sha256: notes.sha256 },
          { name: 'sample/1.ans', fileId: expect.any(String), mimeType: 'text/plain', sizeBytes: 2, sha256: sha256Hex('3\n') },
          { name: 'sample/1.in', fileId: expect.any(String), mimeType: 'text/plain', sizeBytes: 4, sha256: sha256Hex('1 2\n') },
          { name: 'samples.zip', fileId: samples.id, mimeType: samples.mimeType, sizeBytes: samples.sizeBytes, sha256: samples.sha256 },
        ],
        timeLimitSeconds: 2.5,
        memoryMiB: 512,
        languages: ['cpp', 'python3'],
        // the table's languages config.languages allows (no runner has reported its own yet)
        allowedLanguages: [expect.objectContaining({ id: 'cpp', extensions: expect.arrayContaining(['cpp', 'cc']) }), expect.objectContaining({ id: 'python3', extensions: ['py'] })],
        maxUploadBytes: 4096,
        maxAttachments: 3,
        canSubmit: true,
        status: 'untouched',
        attempts: 0,
        maxPoints: 50,
        config: { languages: ['cpp', 'python3'], checker: 'exact' },
        // the assignment's own spec, and the effective languages for clients that read them there
        spec: { kind: 'io', languages: ['cpp', 'python3'] },
        props: { colour: 'blue' },
      });
      // by the activity's id as well
      expect(await pupil.c.call(ops.getActivityProblem, { params: { idOrSlug: a.id, problemSlug: 'SUM' } })).toEqual(detail);
    });

    it('leaves languages out unless the config names them as a list of strings', async () => {
      const a = await activity();
      const s = await series(a, { startDate: inMinutes(-5) });
      const p = await simpleProblem();
      await attach(s, p.problemId, { slug: 'odd', config: { languages: ['cpp', 3] } });
      await attach(s, p.problemId, { slug: 'text', config: { languages: 'cpp' } });
      await attach(s, p.problemId, { slug: 'bare' });
      const pupil = await participantOf(a);
      for (const slug of ['odd', 'text', 'bare']) {
        const d = await problemOf(pupil.c, a, slug);
        expect(d.languages).toBeUndefined();
        // every allowed language, in spec.languages too
        expect(d.allowedLanguages.length).toBeGreaterThan(2);
        expect(d.spec).toEqual({ languages: d.allowedLanguages.map((l) => l.id) });
        // a version without a package has no limits to tell
        expect(d.timeLimitSeconds).toBeUndefined();
        expect(d.memoryMiB).toBeUndefined();
        expect(d.attachments).toEqual([]);
      }
    });

    it("takes each limit from the assignment, else from the activity, and counts the caller's submissions left", async () => {
      const a = await activity({ maxUploadBytes: 2000, maxAttachments: 2, maxSubmissionsPerProblem: 3 });
      const s = await series(a, { startDate: inMinutes(-5) });
      const p = await simpleProblem();
      const inherits = await attach(s, p.problemId, { slug: 'inherits' });
      await attach(s, p.problemId, { slug: 'overrides', maxUploadBytes: 500, maxAttachments: 5, maxSubmissions: 5 });
      const pupil = await participantOf(a);

      expect(await problemOf(pupil.c, a, 'inherits')).toMatchObject({ maxUploadBytes: 2000, maxAttachments: 2, maxSubmissions: 3, submissionsLeft: 3, canSubmit: true });
      expect(await problemOf(pupil.c, a, 'overrides')).toMatchObject({ maxUploadBytes: 500, maxAttachments: 5, maxSubmissions: 5, submissionsLeft: 5, canSubmit: true });

      // excluded or not, judged or not, every submission is used up
      await submitted(pupil.u, a, s, inherits, p.versionId, { score: 0, maxScore: 1 });
      await submitted(pupil.u, a, s, inherits, p.versionId, { excluded: true, score: 1, maxScore: 1 });
      expect(await problemOf(pupil.c, a, 'inherits')).toMatchObject({ submissionsLeft: 1, attempts: 2, canSubmit: true });
      await submitted(pupil.u, a, s, inherits, p.versionId);
      expect(await problemOf(pupil.c, a, 'inherits')).toMatchObject({ maxSubmissions: 3, submissionsLeft: 0, attempts: 3, canSubmit: false });
      // one more (a manager may have let it through) never goes below zero
      await submitted(pupil.u, a, s, inherits, p.versionId);
      expect(await problemOf(pupil.c, a, 'inherits')).toMatchObject({ submissionsLeft: 0, attempts: 4, canSubmit: false });
      // the other assignment is counted apart
      expect(await problemOf(pupil.c, a, 'overrides')).toMatchObject({ submissionsLeft: 5, attempts: 0 });

      // no limit anywhere: neither maxSubmissions nor submissionsLeft
      await admin.call(ops.updateActivity, { params: { idOrSlug: a.slug }, body: { slug: a.slug, maxSubmissionsPerProblem: null } });
      const unlimited = await problemOf(pupil.c, a, 'inherits');
      expect(unlimited.maxSubmissions).toBeUndefined();
      expect(unlimited.submissionsLeft).toBeUndefined();
      expect(unlimited.canSubmit).toBe(true);
    });

    it('serves the pinned version, or the newest when the assignment follows it', async () => {
      const a = await activity();
      const s = await series(a, { startDate: inMinutes(-5) });
      const prob = await problemWithFiles();
      const v2 = await newStatement(prob.problemId);
      const pinned = await attach(s, prob.problemId, { slug: 'pinned', pinnedProblemVersionId: prob.versionIds[0]! });
      await attach(s, prob.problemId, { slug: 'newest' });
      const pupil = await participantOf(a);

      expect((await problemOf(pupil.c, a, 'pinned')).statements.map((x) => x.fileId)).toEqual([prob.files.statement]);
      expect((await problemOf(pupil.c, a, 'newest')).statements.map((x) => x.fileId)).toEqual([v2.statement]);
      // carried forward: the same attachments in both
      expect((await problemOf(pupil.c, a, 'newest')).attachments.map((x) => x.name)).toEqual(['notes.txt', 'sample/1.ans', 'sample/1.in', 'samples.zip']);
      expect(await fileStatus(pupil.c, prob.files.statement)).toBe(200);
      expect(await fileStatus(pupil.c, v2.statement)).toBe(200);

      // a third version: the follower moves on, the pinned one stays
      const v3 = await newStatement(prob.problemId);
      expect((await problemOf(pupil.c, a, 'newest')).statements.map((x) => x.fileId)).toEqual([v3.statement]);
      expect((await problemOf(pupil.c, a, 'pinned')).statements.map((x) => x.fileId)).toEqual([prob.files.statement]);
      // version 2 is used by no assignment now: its statement is no longer the participant's to read
      expect(await fileStatus(pupil.c, v2.statement)).toBe(404);
      expect(await fileStatus(pupil.c, v3.statement)).toBe(200);
      expect(await fileStatus(pupil.c, prob.files.statement)).toBe(200);

      // unpinned: the first version's statement goes the same way
      await admin.call(ops.updateAssignment, { params: { assignmentId: pinned }, body: { problemId: prob.problemId, slug: 'pinned', pinnedProblemVersionId: null } });
      expect((await problemOf(pupil.c, a, 'pinned')).statements.map((x) => x.fileId)).toEqual([v3.statement]);
      expect(await fileStatus(pupil.c, prob.files.statement)).toBe(404);
    });

    it('cannot submit to an archived activity, nor without submission:create', async () => {
      const a = await activity();
      const s = await series(a, { startDate: inMinutes(-5) });
      const p = await simpleProblem();
      await attach(s, p.problemId, { slug: 'task' });
      const pupil = await participantOf(a);
      const reader = await party('reader');
      const readOnly = await admin.call(ops.createRole, { body: { name: uniq('Reader'), permissions: ['activity:read'], activityId: a.id } });
      await admin.call(ops.createGrant, { body: { userId: reader.u.id, roleId: readOnly.id, activityId: a.id } });

      expect((await problemOf(pupil.c, a, 'task')).canSubmit).toBe(true);
      expect((await problemOf(reader.c, a, 'task')).canSubmit).toBe(false);
      await admin.call(ops.setActivityArchived, { params: { idOrSlug: a.slug }, body: { archived: true } });
      // members still read an archived activity, but nothing is taken any more
      expect((await problemOf(pupil.c, a, 'task')).canSubmit).toBe(false);
      expect(seriesIn(await listOf(pupil.c, a), s).problems).toHaveLength(1);
    });

    it('is 404 for a slug the activity does not have, even one another activity has', async () => {
      const a = await activity();
      const b = await activity();
      const p = await simpleProblem();
      await attach(await series(b, { startDate: inMinutes(-5) }), p.problemId, { slug: 'elsewhere' });
      await series(a, { startDate: inMinutes(-5) });
      const pupil = await participantOf(a);
      await refusedWith(problemOf(pupil.c, a, 'elsewhere'), 404, 'not_found');
      await refusedWith(problemOf(pupil.c, a, 'nothing-here'), 404, 'not_found');
      await refusedWith(pupil.c.call(ops.getActivityProblem, { params: { idOrSlug: 'no-such-activity', problemSlug: 'elsewhere' } }), 404, 'not_found');
      await refusedWith(listOf(pupil.c, 'no-such-activity'), 404, 'not_found');
    });
  });
});
