import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity, type OperationInput, type ParticipantSeries, type Series } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { submissions } from '../src/db/schema.js';
import { refusedWith, sendJson } from './expect.js';
import { ManualClock, TestJudge, raw, type TestUser } from './harness.js';
import { legacyPackage, zipOf } from './zips.js';

/**
 * The participant's view of series and problems (CONTRACT §7, §9) over real HTTP and a real
 * SQLite file: which series show their problems and when, the caller's standing per problem, the
 * effective limits of a problem, and who may read the files of problem versions. Every refusal
 * to an outsider is proven by trying it.
 *
 * Submissions are written straight to the database: their API comes with the judging issue.
 */

type ActivityBody = OperationInput<typeof ops.createActivity>['body'];
type SeriesBody = OperationInput<typeof ops.createSeries>['body'];
type AssignmentBody = Omit<OperationInput<typeof ops.attachProblem>['body'], 'problemId'>;
type Party = { u: TestUser; c: JudgeClient };

const MINUTE = 60_000;

/** The files of a problem version made by `problemWithFiles`, by what they are. */
interface ProblemFiles {
  statement: string;
  notes: string;
  samples: string;
  solution: string;
  checker: string;
  pkg: string;
}

describe('participant: series and problems', () => {
  const clock = new ManualClock();
  let j: TestJudge;
  let admin: JudgeClient;
  let seq = 0;
  const uniq = (prefix: string) => `${prefix}-${++seq}`;
  const inMinutes = (m: number) => new Date(clock.now().getTime() + m * MINUTE).toISOString();

  beforeAll(async () => {
    j = await TestJudge.start({ clock });
    admin = await j.admin();
  });
  afterAll(() => j.stop());

  // ---------------------------------------------------------------- fixtures

  async function party(prefix: string): Promise<Party> {
    const u = await j.user(uniq(prefix));
    return { u, c: await j.signIn(u) };
  }

  /** A published activity anyone signed in may find and join (so that outsiders can see it exists). */
  function activity(body: Partial<ActivityBody> = {}): Promise<Activity> {
    return admin.call(ops.createActivity, {
      body: { slug: uniq('act'), name: 'Course', type: 'course@1', rankingType: 'points', timeZone: 'UTC', joinPolicy: 'open', unlisted: false, ...body },
    });
  }

  function series(a: Activity, body: Partial<SeriesBody> = {}): Promise<Series> {
    return admin.call(ops.createSeries, { params: { idOrSlug: a.slug }, body: { slug: uniq('s'), name: 'Week', ...body } });
  }

  /** Attaches a problem and answers the new assignment's id. */
  async function attach(s: Series, problemId: string, body: AssignmentBody = {}): Promise<string> {
    const slug = body.slug ?? uniq('task');
    const updated = await admin.call(ops.attachProblem, { params: { seriesId: s.id }, body: { problemId, slug, ...body } });
    return updated.problems.find((p) => p.slug === slug)!.id;
  }

  async function participantOf(a: Activity, prefix = 'pupil'): Promise<Party> {
    const p = await party(prefix);
    await p.c.call(ops.enrol, { params: { idOrSlug: a.slug }, body: {} });
    return p;
  }

  /**
   * A problem whose first version holds a statement, a participant attachment, a manager file,
   * a runner file, and a package with its samples; `versions` more versions each bring a new
   * statement (the other files carry forward).
   */
  async function problemWithFiles(): Promise<{ problemId: string; versionIds: string[]; files: ProblemFiles }> {
    const slug = uniq('prob');
    const problem = await admin.call(ops.createProblem, { body: { slug, name: `Problem ${slug}`, type: 'standard-io@1' } });
    const up = async (name: string, text: string | Buffer, mime = 'text/plain') => (await admin.upload(name, text, mime)).id;
    const f: ProblemFiles = {
      statement: await up('statement.md', `# ${slug} v1\n`, 'text/markdown'),
      notes: await up('notes.txt', 'hints'),
      samples: await up('samples.zip', await zipOf({ '1.in': '1 2\n', '1.ans': '3\n' }), 'application/zip'),
      solution: await up('solution.cpp', 'int main() {}'),
      checker: await up('checker.cpp', 'int main() { return 42; }'),
      pkg: await up('package.zip', await zipOf(legacyPackage()), 'application/zip'),
    };
    const v1 = await admin.call(ops.createProblemVersion, {
      params: { problemId: problem.id },
      body: {
        statements: [{ language: 'en', fileId: f.statement }],
        files: [
          { fileId: f.notes, name: 'notes.txt', scope: 'participant' },
          { fileId: f.solution, name: 'solution.cpp', scope: 'manager' },
          { fileId: f.checker, name: 'checker.cpp', scope: 'runner' },
        ],
        package: { fileId: f.pkg, samplesFileId: f.samples },
      },
    });
    return { problemId: problem.id, versionIds: [v1.id], files: f };
  }

  /** Appends a version with a new English statement; answers the version id and the statement's file id. */
  async function newStatement(problemId: string): Promise<{ versionId: string; statement: string }> {
    const statement = (await admin.upload('statement.md', `# ${uniq('newer')}\n`, 'text/markdown')).id;
    const v = await admin.call(ops.createProblemVersion, { params: { problemId }, body: { statements: [{ language: 'en', fileId: statement }] } });
    return { versionId: v.id, statement };
  }

  /** A plain problem with one statement. */
  async function simpleProblem(): Promise<{ problemId: string; versionId: string }> {
    const slug = uniq('plain');
    const problem = await admin.call(ops.createProblem, { body: { slug, name: `Plain ${slug}`, type: 'standard-io@1' } });
    const { versionId } = await newStatement(problem.id);
    return { problemId: problem.id, versionId };
  }

  /**
   * A submission row as the judging issue will leave it: its newest attempt's state and outcome.
   * (No submission API exists yet; it comes with the judging issue.)
   */
  function submitted(
    who: TestUser,
    a: Activity,
    s: Series,
    assignmentId: string,
    versionId: string,
    outcome: { state?: string; score?: number; maxScore?: number; excluded?: boolean; verdict?: string } = {},
  ): void {
    j.app.deps.db
      .insert(submissions)
      .values({
        id: randomUUID(),
        activityId: a.id,
        seriesId: s.id,
        seriesProblemId: assignmentId,
        problemVersionId: versionId,
        userId: who.id,
        submittedAt: clock.now().toISOString(),
        state: outcome.state ?? (outcome.score !== undefined ? 'completed' : 'queued'),
        verdict: outcome.verdict ?? null,
        score: outcome.score ?? null,
        maxScore: outcome.maxScore ?? null,
        excluded: outcome.excluded ?? false,
      })
      .run();
  }

  /**
   * Moves time on and lets the scheduler open and close series. Access tokens last an hour of
   * this clock: the administrator signs in again, and each test moves less than an hour after
   * signing its parties in.
   */
  async function passMinutes(minutes: number): Promise<void> {
    clock.advance(minutes * 60);
    j.app.scheduler.tick(clock.now());
    admin = await j.admin();
  }

  const listOf = (c: JudgeClient, a: Activity | string) => c.call(ops.listActivitySeries, { params: { idOrSlug: typeof a === 'string' ? a : a.slug } });
  const problemOf = (c: JudgeClient, a: Activity, slug: string) => c.call(ops.getActivityProblem, { params: { idOrSlug: a.slug, problemSlug: slug } });
  const seriesIn = (list: ParticipantSeries[], s: Series) => list.find((x) => x.id === s.id)!;

  /** GET /files/{id} as `c`: the status only. */
  async function fileStatus(c: JudgeClient, fileId: string): Promise<number> {
    return (await raw(`${j.url}/api/v1/files/${fileId}`, { token: c.accessToken! })).status;
  }

  /** Every read of this problem is 404 to `c`: the list shows no problems of `s`, the detail and the files are hidden. */
  async function hiddenFrom(c: JudgeClient, a: Activity, s: Series, slug: string, fileIds: string[]): Promise<void> {
    expect(seriesIn(await listOf(c, a), s).problems).toBeUndefined();
    await refusedWith(problemOf(c, a, slug), 404, 'not_found');
    for (const id of fileIds) expect({ id, status: await fileStatus(c, id) }).toEqual({ id, status: 404 });
  }

  async function shownTo(c: JudgeClient, a: Activity, s: Series, slug: string, fileIds: string[]): Promise<void> {
    expect(seriesIn(await listOf(c, a), s).problems?.map((p) => p.slug)).toContain(slug);
    expect((await problemOf(c, a, slug)).slug).toBe(slug);
    for (const id of fileIds) expect({ id, status: await fileStatus(c, id) }).toEqual({ id, status: 200 });
  }

  // ---------------------------------------------------------------- the series list

  describe('GET /activities/{idOrSlug}/series', () => {
    it('lists every series in order with the problems of those that opened, and withholds the others', async () => {
      const a = await activity();
      const open = await series(a, { startDate: inMinutes(-60), endDate: inMinutes(600) });
      const later = await series(a, { startDate: inMinutes(60) });
      const secret = await series(a, { startDate: inMinutes(60), revealProblemCount: false });
      const p1 = await simpleProblem();
      const p2 = await simpleProblem();
      const first = await attach(open, p1.problemId, { slug: 'first', name: 'The first' });
      const second = await attach(open, p2.problemId, { slug: 'second' });
      await attach(later, p1.problemId, { slug: 'later-one' });
      await attach(secret, p2.problemId, { slug: 'secret-one' });
      const pupil = await participantOf(a);

      const list = await listOf(pupil.c, a);
      expect(list.map((s) => s.id)).toEqual([open.id, later.id, secret.id]);
      expect(list[0]).toEqual({
        id: open.id,
        slug: open.slug,
        name: 'Week',
        order: 1,
        startDate: open.startDate,
        endDate: open.endDate,
        isOpen: true,
        problemCount: 2,
        problems: [
          { id: first, slug: 'first', name: 'The first', order: 1, status: 'untouched', attempts: 0 },
          { id: second, slug: 'second', name: `Plain ${(await admin.call(ops.getProblem, { params: { id: p2.problemId } })).slug}`, order: 2, status: 'untouched', attempts: 0 },
        ],
      });
      // not opened yet: no problems; their number only where the series reveals it
      expect(list[1]).toEqual({ id: later.id, slug: later.slug, name: 'Week', order: 2, startDate: later.startDate, isOpen: false, problemCount: 1 });
      expect(list[2]).toEqual({ id: secret.id, slug: secret.slug, name: 'Week', order: 3, startDate: secret.startDate, isOpen: false });

      // by id too, and by slug in any case
      expect(await listOf(pupil.c, a.id)).toEqual(list);
      expect(await listOf(pupil.c, a.slug.toUpperCase())).toEqual(list);
    });

    it("shows the caller's own status per problem, computed from their submissions", async () => {
      const a = await activity();
      const s = await series(a, { startDate: inMinutes(-10) });
      const ids: Record<string, string> = {};
      const versions: Record<string, string> = {};
      for (const slug of ['solved', 'partial', 'scaled', 'queued', 'zero', 'excluded', 'untouched', 'noscale']) {
        const p = await simpleProblem();
        versions[slug] = p.versionId;
        ids[slug] = await attach(s, p.problemId, { slug, ...(slug === 'scaled' ? { maxPoints: 20 } : {}) });
      }
      const pupil = await participantOf(a);
      const other = await participantOf(a, 'other');
      const sub = (slug: string, outcome: Parameters<typeof submitted>[5] = {}, who = pupil.u) => submitted(who, a, s, ids[slug]!, versions[slug]!, outcome);

      sub('solved', { score: 0, maxScore: 100, verdict: 'WA' });
      sub('solved', { score: 100, maxScore: 100, verdict: 'AC' });
      sub('partial', { score: 30, maxScore: 100 });
      sub('partial', { score: 50, maxScore: 100 });
      sub('partial', { score: 40, maxScore: 100 });
      sub('scaled', { score: 1, maxScore: 3 }); // round(1 / 3 × 20) = 7
      sub('queued'); // not judged yet: attempted, no score
      sub('zero', { score: 0, maxScore: 10 });
      // an excluded submission is an attempt, but its score does not count
      sub('excluded', { score: 10, maxScore: 10, excluded: true });
      sub('excluded', { score: 2, maxScore: 10 });
      sub('noscale', { score: 5 }); // a score without a scale cannot be judged against full marks
      // another participant's submissions are theirs alone
      sub('untouched', { score: 1, maxScore: 1 }, other.u);
      sub('queued', { score: 1, maxScore: 1 }, other.u);

      const problems = seriesIn(await listOf(pupil.c, a), s).problems!;
      const bySlug = Object.fromEntries(problems.map(({ slug, status, bestScore, maxScore, attempts }) => [slug, { status, bestScore, maxScore, attempts }]));
      expect(bySlug).toEqual({
        solved: { status: 'solved', bestScore: 100, maxScore: 100, attempts: 2 },
        partial: { status: 'partial', bestScore: 50, maxScore: 100, attempts: 3 },
        scaled: { status: 'partial', bestScore: 7, maxScore: 20, attempts: 1 },
        queued: { status: 'attempted', bestScore: undefined, maxScore: undefined, attempts: 1 },
        zero: { status: 'attempted', bestScore: 0, maxScore: 10, attempts: 1 },
        excluded: { status: 'partial', bestScore: 2, maxScore: 10, attempts: 2 },
        untouched: { status: 'untouched', bestScore: undefined, maxScore: undefined, attempts: 0 },
        noscale: { status: 'attempted', bestScore: undefined, maxScore: undefined, attempts: 1 },
      });
      // the other participant sees their own
      const theirs = seriesIn(await listOf(other.c, a), s).problems!;
      expect(theirs.find((p) => p.slug === 'untouched')).toMatchObject({ status: 'solved', bestScore: 1, maxScore: 1, attempts: 1 });
      expect(theirs.find((p) => p.slug === 'solved')).toMatchObject({ status: 'untouched', attempts: 0 });
      // and the detail agrees with the list
      expect(await problemOf(pupil.c, a, 'scaled')).toMatchObject({ status: 'partial', bestScore: 7, maxScore: 20, attempts: 1, maxPoints: 20 });
      expect(await problemOf(pupil.c, a, 'excluded')).toMatchObject({ status: 'partial', bestScore: 2, maxScore: 10, attempts: 2 });
    });

    it('shows managers the problems of every series, opened or not', async () => {
      const a = await activity();
      const later = await series(a, { startDate: inMinutes(60), revealProblemCount: false });
      const p = await simpleProblem();
      await attach(later, p.problemId, { slug: 'ahead' });
      const manager = await party('mgr');
      await j.grant(manager.u.id, 'manager', a.id);
      const seen = seriesIn(await listOf(manager.c, a), later);
      expect(seen).toMatchObject({ isOpen: false, problemCount: 1, problems: [{ slug: 'ahead', status: 'untouched', attempts: 0 }] });
      expect(await problemOf(manager.c, a, 'ahead')).toMatchObject({ slug: 'ahead', canSubmit: false });
      // the administrator too
      expect(seriesIn(await listOf(admin, a), later).problems).toHaveLength(1);
    });
  });

  // ---------------------------------------------------------------- one problem

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
        statements: [{ name: 'statement.en.md', language: 'en', fileId: statement.id, sha256: statement.sha256, sizeBytes: statement.sizeBytes }],
        // the participant's files, samples included; never the package, the manager's or the runner's files
        attachments: [
          { name: 'notes.txt', fileId: notes.id, mimeType: notes.mimeType, sizeBytes: notes.sizeBytes, sha256: notes.sha256 },
          { name: 'samples.zip', fileId: samples.id, mimeType: samples.mimeType, sizeBytes: samples.sizeBytes, sha256: samples.sha256 },
        ],
        timeLimitSeconds: 2.5,
        memoryMiB: 512,
        languages: ['cpp', 'python3'],
        maxUploadBytes: 4096,
        maxAttachments: 3,
        canSubmit: true,
        status: 'untouched',
        attempts: 0,
        maxPoints: 50,
        config: { languages: ['cpp', 'python3'], checker: 'exact' },
        spec: { kind: 'io' },
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
      submitted(pupil.u, a, s, inherits, p.versionId, { score: 0, maxScore: 1 });
      submitted(pupil.u, a, s, inherits, p.versionId, { excluded: true, score: 1, maxScore: 1 });
      expect(await problemOf(pupil.c, a, 'inherits')).toMatchObject({ submissionsLeft: 1, attempts: 2, canSubmit: true });
      submitted(pupil.u, a, s, inherits, p.versionId);
      expect(await problemOf(pupil.c, a, 'inherits')).toMatchObject({ maxSubmissions: 3, submissionsLeft: 0, attempts: 3, canSubmit: false });
      // one more (a manager may have let it through) never goes below zero
      submitted(pupil.u, a, s, inherits, p.versionId);
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
      expect((await problemOf(pupil.c, a, 'newest')).attachments.map((x) => x.name)).toEqual(['notes.txt', 'samples.zip']);
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

  // ---------------------------------------------------------------- when problems show

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

  // ---------------------------------------------------------------- outsiders

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

    /** Lists nothing of A, reads none of A's problems, none of its files: 404 each, as if nothing existed. */
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
