import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity, type ParticipantProblem } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { ConfigError, loadConfig } from '@judge/server';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refusedWith } from './expect.js';
import { TestJudge } from './harness.js';
import { codeForm } from './support/forms.js';
import { packagedProblem } from './support/packaged-problem.js';
import { Runner } from './support/runner-bench.js';
import { zipOf } from './zips.js';

/**
 * Effective limits over real HTTP and a real SQLite file: a package's time limit from problem.yaml,
 * domjudge-problem.ini or .timelimit; every limit capped by the instance's maxima (settings
 * `judging.*`), shown so in the problem views and handed to the runners with each job.
 */

const DATA = { 'data/sample/1.in': '1 2\n', 'data/sample/1.ans': '3\n', 'data/secret/1.in': '2 2\n', 'data/secret/1.ans': '4\n' };
const HUGE = { 'problem.yaml': 'name: Huge\nlimits:\n  time_limit: 100000\n  memory: 1000000\n  output: 100000\n', ...DATA };

/** One server, an administrator and a pupil; problems are attached to an open series the pupil joined. */
function world(config: Parameters<typeof TestJudge.start>[0] = {}) {
  const w = {} as { j: TestJudge; admin: JudgeClient; pupil: JudgeClient; activity: Activity; seriesId: string };
  let seq = 0;
  beforeAll(async () => {
    w.j = await TestJudge.start(config);
    w.admin = await w.j.admin();
    const u = await w.j.user('pupil');
    w.pupil = await w.j.signIn(u);
    w.activity = await w.admin.call(ops.createActivity, {
      body: { slug: 'limits', name: 'Limits', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false },
    });
    w.seriesId = (await w.admin.call(ops.createSeries, { params: { idOrSlug: w.activity.slug }, body: { slug: 'round', name: 'Round' } })).id;
    await w.pupil.call(ops.enrol, { params: { idOrSlug: w.activity.slug }, body: {} });
  });
  afterAll(() => w.j?.stop());
  /** Uploads the package as a problem of `type`, attaches it with `config`, and answers its version and the pupil's view. */
  const attached = async (files: Record<string, string>, config?: Record<string, unknown>, type = 'standard-io@1') => {
    const n = ++seq;
    const { problem, version } = await packagedProblem(w.admin, { slug: `p${n}`, name: `P${n}`, type }, await zipOf(files));
    const slug = `task${n}`;
    await w.admin.call(ops.attachProblem, { params: { seriesId: w.seriesId }, body: { problemId: problem.id, slug, ...(config ? { config } : {}) } });
    const view = (c: JudgeClient): Promise<ParticipantProblem> => c.call(ops.getActivityProblem, { params: { idOrSlug: w.activity.slug, problemSlug: slug } });
    return { version, slug, view, problemId: problem.id };
  };
  return { w, attached };
}

const limitsOf = (p: ParticipantProblem) => ({ timeLimitSeconds: p.timeLimitSeconds, memoryMiB: p.memoryMiB, outputMiB: p.outputMiB });

describe('limits on an instance with the default maxima (60 s, 2048 MiB, 64 MiB)', () => {
  const { w, attached } = world();

  it('a package asking for 100,000 s and 1,000,000 MiB shows the capped figures to participants and managers', async () => {
    const { version, view, problemId } = await attached(HUGE);
    expect(version.package).toMatchObject({
      timeLimitSeconds: 100_000,
      memoryMiB: 1_000_000,
      outputMiB: 100_000,
      capped: { timeLimitSeconds: 60, memoryMiB: 2048, outputMiB: 64 },
    });
    expect(limitsOf(await view(w.pupil))).toEqual({ timeLimitSeconds: 60, memoryMiB: 2048, outputMiB: 64 });
    expect(limitsOf(await view(w.admin))).toEqual({ timeLimitSeconds: 60, memoryMiB: 2048, outputMiB: 64 });
    // the library's version list says the same
    const [listed] = await w.admin.call(ops.listProblemVersions, { params: { problemId } });
    expect(listed!.package?.capped).toEqual({ timeLimitSeconds: 60, memoryMiB: 2048, outputMiB: 64 });
  });

  it("the assignment's figures win over the package's, within the maxima; what neither names is left to the judge's defaults", async () => {
    const { view } = await attached(HUGE, { timeLimitSeconds: 5, memoryMiB: 512, outputMiB: 1_000 });
    expect(limitsOf(await view(w.pupil))).toEqual({ timeLimitSeconds: 5, memoryMiB: 512, outputMiB: 64 });
    const plain = await attached({ 'problem.yaml': 'name: Plain\nlimits:\n  memory: 256\n', '.timelimit': '1.5\n', ...DATA });
    expect(plain.version.package).not.toHaveProperty('capped');
    expect(limitsOf(await plain.view(w.pupil))).toEqual({ timeLimitSeconds: 1.5, memoryMiB: 256, outputMiB: undefined });
  });

  it("the time limit comes from problem.yaml, else domjudge-problem.ini, else .timelimit", async () => {
    const ini = await attached({ 'problem.yaml': 'name: Ini\n', 'domjudge-problem.ini': 'name = "Ini"\ntimelimit = 3\n', '.timelimit': '5\n', ...DATA });
    expect(ini.version.package?.timeLimitSeconds).toBe(3);
    expect((await ini.view(w.pupil)).timeLimitSeconds).toBe(3);
    const yaml = await attached({ 'problem.yaml': 'name: Y\nlimits:\n  time_limit: 4\n', 'domjudge-problem.ini': 'timelimit = 3\n', ...DATA });
    expect((await yaml.view(w.pupil)).timeLimitSeconds).toBe(4);
    const dot = await attached({ 'problem.yaml': 'name: D\n', 'domjudge-problem.ini': 'name = D\n', '.timelimit': '5\n', ...DATA });
    expect((await dot.view(w.pupil)).timeLimitSeconds).toBe(5);
  });

  it('a bad timelimit in domjudge-problem.ini refuses the package, naming it', async () => {
    const problem = await w.admin.call(ops.createProblem, { body: { slug: 'badini', name: 'Bad', type: 'standard-io@1' } });
    const pkg = await w.admin.upload('package.zip', await zipOf({ 'problem.yaml': 'name: Bad\n', 'domjudge-problem.ini': 'timelimit = soon\n', ...DATA }), 'application/zip');
    const before = (await w.j.count('problem_versions'));
    const e = await refusedWith(w.admin.call(ops.createProblemVersion, { params: { problemId: problem.id }, body: { package: { fileId: pkg.id } } }), 422, 'package.invalid');
    expect(e.detail).toMatch(/timelimit in domjudge-problem\.ini must be a positive number of seconds/);
    expect((await w.j.count('problem_versions'))).toBe(before);
  });

  it('a job on this instance carries no maxima: a runner applies the same defaults without', async () => {
    const { slug } = await attached(HUGE, undefined, 'limits-default@1');
    const r = new Runner(w.j.url, 'runner-default', ['limits-default@1']);
    expect((await r.register()).status).toBe(200);
    await w.admin.call(ops.approveRunner, { params: { id: r.id } });
    await r.authenticate();
    await w.pupil.call(ops.submit, { params: { idOrSlug: w.activity.slug, problemSlug: slug }, form: codeForm('print(3)\n', 'a.py') });
    const job = await r.job();
    expect(job.problemType).toBe('limits-default@1');
    expect(job).not.toHaveProperty('maxima');
  });
});

describe('limits on an instance whose administrator lowered the maxima', () => {
  const { w, attached } = world({ config: { judging: { maxTimeLimitSeconds: 10, maxMemoryMib: 1024, maxOutputMib: 16 } } });

  it('views show the lowered caps, and every job and trial hands them to the runner', async () => {
    const { version, slug, view } = await attached(HUGE, { timeLimitSeconds: 20 }, 'limits-low@1');
    expect(version.package?.capped).toEqual({ timeLimitSeconds: 10, memoryMiB: 1024, outputMiB: 16 });
    expect(limitsOf(await view(w.pupil))).toEqual({ timeLimitSeconds: 10, memoryMiB: 1024, outputMiB: 16 });
    const small = await attached({ 'problem.yaml': 'name: S\nlimits:\n  time_limit: 2\n  memory: 128\n  output: 4\n', ...DATA });
    expect(small.version.package).not.toHaveProperty('capped');
    expect(limitsOf(await small.view(w.pupil))).toEqual({ timeLimitSeconds: 2, memoryMiB: 128, outputMiB: 4 });

    const r = new Runner(w.j.url, 'runner-low', ['limits-low@1']);
    expect((await r.register()).status).toBe(200);
    await w.admin.call(ops.approveRunner, { params: { id: r.id } });
    await r.authenticate();
    await w.pupil.call(ops.submit, { params: { idOrSlug: w.activity.slug, problemSlug: slug }, form: codeForm('print(3)\n', 'a.py') });
    const job = await r.job();
    expect(job.maxima).toEqual({ timeLimitSeconds: 10, memoryMiB: 1024, outputMiB: 16 });
    expect(job.config).toEqual({ timeLimitSeconds: 20 });

    const pkg = await w.admin.upload('trial.zip', await zipOf(HUGE), 'application/zip');
    await w.admin.call(ops.createTrial, { body: { problemType: 'limits-low@1', packageFileId: pkg.id } });
    const trial = await r.post('/runner/trials/claim', {});
    expect(trial.status, trial.text).toBe(200);
    expect(trial.body.maxima).toEqual({ timeLimitSeconds: 10, memoryMiB: 1024, outputMiB: 16 });
  });
});

describe('the judging.* settings', () => {
  it('come from the defaults, judge.json or JUDGE_JUDGING_* variables, and refuse what is not a positive number', () => {
    const dir = mkdtempSync(join(tmpdir(), 'judge-limits-'));
    try {
      expect(loadConfig(dir, {}, {}).judging).toEqual({ maxTimeLimitSeconds: 60, maxMemoryMib: 2048, maxOutputMib: 64 });
      expect(loadConfig(dir, {}, { JUDGE_JUDGING_MAX_TIME_LIMIT_SECONDS: '120' }).judging.maxTimeLimitSeconds).toBe(120);
      expect(() => loadConfig(dir, { judging: { maxMemoryMib: 0 } }, {})).toThrow(ConfigError);
      expect(() => loadConfig(dir, {}, { JUDGE_JUDGING_MAX_OUTPUT_MIB: 'lots' })).toThrow(/is not a number/);
      expect(loadConfig(dir, {}, { JUDGE_JUDGING_MAX_MEMORY_MIB: '4096' }).judging.maxMemoryMib).toBe(4096);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
