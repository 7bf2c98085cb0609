import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ops, type ParticipantProblem } from '@judge/contract';
import { trials } from '../src/db/schema.js';
import { ADMIN_PASSWORD } from './harness.js';
import { packagedProblem } from './support/packaged-problem.js';
import { Bench, type Runner, type Stage } from './support/runner-bench.js';
import { legacyPackage, zipOf } from './zips.js';

/**
 * A version whose package names no time limit (problem.yaml, .timelimit, domjudge-problem.ini) but
 * has accepted examples gets a trial the server queues by itself; the limit that trial computes by
 * problemtools' rule is stored with the version, shown in the views and handed with each job.
 * Over real HTTP on a real server, the runner speaking the protocol by hand (support/runner-bench.ts).
 */

/** The legacy test package without its .timelimit: it names no time limit, and has an accepted example. */
function unnamed(name = 'Calibrated'): Record<string, string> {
  const files = legacyPackage(name);
  delete files['.timelimit'];
  return files;
}

/** A runner's measurement of a package that names no limit: problemtools' suggestion from the slowest accepted example. */
const computed = (seconds: number) =>
  JSON.stringify({
    ok: true,
    timing: { timeLimitSeconds: seconds, timeLimitSource: 'computed by this trial', calibrated: true, slowestAcceptedMs: 180, suggestedTimeLimitSeconds: seconds },
    submissions: [],
    notRun: [],
  });

describe('time-limit calibration of a version whose package names none', () => {
  let b: Bench;
  beforeAll(async () => {
    b = await Bench.start();
  });
  afterAll(() => b.stop());

  const calibrations = (versionId: string) =>
    b.j.app.deps.tx.read((q) =>
      q
        .select({ state: trials.state, createdBy: trials.createdBy, activityId: trials.activityId, problemType: trials.problemType, packageFileId: trials.packageFileId })
        .from(trials)
        .where(eq(trials.calibratesVersionId, versionId)),
    );
  const trialCount = async () => (await b.j.app.deps.tx.read((q) => q.select({ id: trials.id }).from(trials))).length;

  /** A problem of a fresh type made from `files`, attached for the pupil with `config`. */
  async function staged(files: Record<string, string>, config?: Record<string, unknown>): Promise<Stage & { problemId: string }> {
    const type = b.type();
    const activity = await b.admin.call(ops.createActivity, {
      body: { slug: b.uniq('act'), name: 'Contest', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false },
    });
    const series = await b.admin.call(ops.createSeries, { params: { idOrSlug: activity.slug }, body: { slug: b.uniq('round'), name: 'Round' } });
    const { problem, version, pkg } = await packagedProblem(b.admin, { slug: b.uniq('prob'), name: 'Sum', type }, await zipOf(files));
    const slug = b.uniq('task');
    await b.admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug, ...(config ? { config } : {}) } });
    await b.pupil.c.call(ops.enrol, { params: { idOrSlug: activity.slug }, body: {} });
    return { activity, series, slug, type, version, pkg, problemId: problem.id };
  }
  const participantView = (s: Stage): Promise<ParticipantProblem> =>
    b.pupil.c.call(ops.getActivityProblem, { params: { idOrSlug: s.activity.slug, problemSlug: s.slug } });
  const versionView = async (s: Stage & { problemId: string }) =>
    (await b.admin.call(ops.listProblemVersions, { params: { problemId: s.problemId } })).find((v) => v.id === s.version.id)!;

  /** The runner claims the calibration trial and reports `measurement` (or a failure). */
  async function reportTrial(r: Runner, s: Stage, body: { measurement?: string; failureReason?: string }) {
    const claimed = await r.post('/runner/trials/claim', {});
    expect(claimed.status, claimed.text).toBe(200);
    expect(claimed.body).toMatchObject({ problemType: s.type, packageFileId: s.pkg.id });
    const res = await r.post(`/runner/trials/${claimed.body.trialId}/report`, { leaseToken: claimed.body.leaseToken, ...body });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  it('queues a system-made trial for a package that names no limit and has accepted examples, and none otherwise', async () => {
    const s = await staged(unnamed());
    expect(await calibrations(s.version.id)).toEqual([{ state: 'queued', createdBy: null, activityId: null, problemType: s.type, packageFileId: s.pkg.id }]);
    expect(s.version.package).toMatchObject({ name: 'Calibrated', memoryMiB: 512 });
    expect(s.version.package?.timeLimitSeconds).toBeUndefined();

    // a package naming its limit (.timelimit), and one naming none without accepted examples: nothing to compute
    const before = await trialCount();
    const named = await staged(legacyPackage('Named'));
    const bare = unnamed('Bare');
    delete bare['submissions/accepted/hello.py'];
    const nothingToMeasure = await staged(bare);
    expect(await calibrations(named.version.id)).toEqual([]);
    expect(await calibrations(nothingToMeasure.version.id)).toEqual([]);
    expect(await trialCount()).toBe(before);

    // the server's trial counts against nobody's quota: the administrator may still queue 3 of their own
    for (let i = 0; i < 3; i++) await b.admin.call(ops.createTrial, { body: { problemType: b.type(), packageFileId: s.pkg.id } });
  });

  it("stores the trial's computed limit with the version, tells the managers, shows it and hands it with each job", async () => {
    const s = await staged(unnamed());
    const r = await b.runner([s.type]);

    // the calibration goes before the waiting submission: the job claim answers 204 while it is queued
    await b.submit(s);
    expect((await r.claim()).status).toBe(204);
    const claimed = await r.post('/runner/trials/claim', {});
    expect(claimed.status, claimed.text).toBe(200);
    expect(claimed.body).toMatchObject({ problemType: s.type, packageFileId: s.pkg.id });
    // until the trial reports, the version is judged at the runner's default: the claim names no limit
    const early = await r.job();
    expect(early.timeLimitSeconds).toBeUndefined();
    expect((await participantView(s)).timeLimitSeconds).toBeUndefined();

    // the administrator reads every problem: the version's change reaches them on the event socket
    const listener = b.j.anonymous();
    await listener.loginWithCookie('admin', ADMIN_PASSWORD);
    const events = listener.events();
    try {
      await events.opened;
      const reported = await r.post(`/runner/trials/${claimed.body.trialId}/report`, { leaseToken: claimed.body.leaseToken, measurement: computed(1) });
      expect(reported.body).toMatchObject({ state: 'completed', duplicate: false });
      expect((await events.next('problemChanged')).data).toMatchObject({ problem: { id: s.problemId } });
    } finally {
      events.close();
    }
    expect((await versionView(s)).package).toMatchObject({ timeLimitSeconds: 1, timeLimitSource: 'trial', memoryMiB: 512 });
    expect((await participantView(s)).timeLimitSeconds).toBe(1);

    await b.submit(s);
    const job = await r.job();
    expect(job.problemVersionId).toBe(s.version.id);
    expect(job.timeLimitSeconds).toBe(1);
  });

  it('the assignment config still wins in the view, and the maxima still cap the computed figure', async () => {
    const s = await staged(unnamed(), { timeLimitSeconds: 4 });
    const r = await b.runner([s.type]);
    await reportTrial(r, s, { measurement: computed(90) });
    // the participant sees the assignment's figure; the library shows the computed one cut by the 60 s maximum
    expect((await participantView(s)).timeLimitSeconds).toBe(4);
    expect((await versionView(s)).package).toMatchObject({ timeLimitSeconds: 90, timeLimitSource: 'trial', capped: { timeLimitSeconds: 60 } });
    await b.submit(s);
    expect(await r.job()).toMatchObject({ timeLimitSeconds: 90, config: { timeLimitSeconds: 4 } });
  });

  it('gives the limit also to a later version that carried the same package forward before the trial reported', async () => {
    const s = await staged(unnamed());
    const r = await b.runner([s.type]);
    const next = await b.admin.call(ops.createProblemVersion, { params: { problemId: s.problemId }, body: { note: 'same package, new note' } });
    // carrying the package forward queues no second trial
    expect(await calibrations(next.id)).toEqual([]);
    await reportTrial(r, s, { measurement: computed(2) });
    const versions = await b.admin.call(ops.listProblemVersions, { params: { problemId: s.problemId } });
    expect(versions.map((v) => [v.version, v.package?.timeLimitSeconds, v.package?.timeLimitSource])).toEqual([
      [2, 2, 'trial'],
      [1, 2, 'trial'],
    ]);
  });

  it('keeps nothing from a failed trial, or one in which no accepted example ran', async () => {
    const failed = await staged(unnamed());
    const r1 = await b.runner([failed.type]);
    expect(await reportTrial(r1, failed, { failureReason: 'the validator does not build', measurement: computed(3) })).toMatchObject({ state: 'failed' });
    expect((await versionView(failed)).package?.timeLimitSeconds).toBeUndefined();

    const unmeasured = await staged(unnamed());
    const r2 = await b.runner([unmeasured.type]);
    const nothingRan = JSON.stringify({ ok: false, timing: { timeLimitSource: 'runner default', calibrated: true }, submissions: [], notRun: [] });
    expect(await reportTrial(r2, unmeasured, { measurement: nothingRan })).toMatchObject({ state: 'completed' });
    expect((await versionView(unmeasured)).package?.timeLimitSeconds).toBeUndefined();
    expect((await participantView(unmeasured)).timeLimitSeconds).toBeUndefined();
    await b.submit(unmeasured);
    expect((await r2.job()).timeLimitSeconds).toBeUndefined();
  });
});
