import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import nacl from 'tweetnacl';
import { afterAll, beforeAll, expect } from 'vitest';
import { ops, type Activity, type ClaimedJob, type Series } from '@judge/contract';
import type { ApiProblem, JudgeClient } from '@judge/sdk';
import { refusedWith } from '../expect.js';
import type { ConfigOverrides } from '@judge/server';
import { ManualClock, TestJudge, raw } from '../harness.js';
import { World, at, type Party } from '../series-fixtures.js';
import { sha256 } from './forms.js';
import { attemptFiles, attempts, files, submissionFiles, submissions } from '../../src/db/schema.js';

/**
 * What the submission tests share: a minimal runner speaking the protocol over HTTP (enough to
 * claim and report), one server with an activity, a problem and the parties, and refusals that must
 * leave the judging tables as they were.
 */


/** A minimal runner speaking the protocol over HTTP: enough to claim and report. */
export class ProtocolRunner {
  private token = '';
  constructor(
    private readonly j: TestJudge,
    readonly id: string,
    private readonly secretKey: Uint8Array,
    private readonly fingerprint: string,
  ) {}

  static async approved(j: TestJudge, admin: JudgeClient, name: string): Promise<ProtocolRunner> {
    const kp = nacl.sign.keyPair();
    const reg = await ProtocolRunner.post(j, '/runner/register', { name, publicKey: Buffer.from(kp.publicKey).toString('base64'), problemTypes: ['standard-io@1'] });
    await admin.call(ops.approveRunner, { params: { id: reg.runnerId } });
    const r = new ProtocolRunner(j, reg.runnerId, kp.secretKey, reg.fingerprint);
    const ch = await ProtocolRunner.post(j, '/runner/auth/challenge', { fingerprint: reg.fingerprint });
    const signature = Buffer.from(nacl.sign.detached(Buffer.from(ch.nonce, 'utf8'), r.secretKey)).toString('base64');
    r.token = (await ProtocolRunner.post(j, '/runner/auth/token', { fingerprint: r.fingerprint, nonce: ch.nonce, signature })).token;
    return r;
  }

  private static async post(j: TestJudge, path: string, body: unknown, token?: string): Promise<any> {
    const res = await raw(`${j.url}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...(token ? { token } : {}) });
    if (res.status >= 400) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  }

  async claim(): Promise<ClaimedJob | undefined> {
    return ProtocolRunner.post(this.j, '/runner/jobs/claim', {}, this.token);
  }

  async upload(name: string, content: string): Promise<string> {
    const form = new FormData();
    form.set('sha256', sha256(content));
    form.set('file', new Blob([content]), name);
    const res = await raw(`${this.j.url}/api/v1/runner/files`, { method: 'POST', body: form, token: this.token });
    return res.body.id as string;
  }

  report(job: ClaimedJob, body: Record<string, unknown>): Promise<{ duplicate: boolean }> {
    return ProtocolRunner.post(this.j, `/runner/jobs/${job.jobId}/report`, { leaseToken: job.leaseToken, ...body }, this.token);
  }

  progress(job: ClaimedJob, body: { done?: number; total?: number }): Promise<unknown> {
    return ProtocolRunner.post(this.j, `/runner/jobs/${job.jobId}/progress`, { leaseToken: job.leaseToken, ...body }, this.token);
  }

  /** Claims the next job and reports a verdict with a score of 1 (AC) or 0 (anything else). */
  async judge(verdict: string, files: Record<string, string> = {}): Promise<ClaimedJob> {
    const job = await this.claim();
    if (!job) throw new Error('no job to judge');
    const attached = [];
    for (const [name, content] of Object.entries(files)) attached.push({ name, fileId: await this.upload(`${name}.txt`, content) });
    await this.report(job, { verdict, score: verdict === 'AC' ? 1 : 0, maxScore: 1, files: attached });
    return job;
  }
}

const clock = new ManualClock(new Date('2026-11-22T08:00:00.000Z'));
export let j: TestJudge;
export let w: World;
export let admin: JudgeClient;
export let runner: ProtocolRunner;
export let manager: Party;
/** An open contest with two series: `open` (open now), `later` (opens tomorrow) */
export let act: Activity;
export let open: Series;
export let later: Series;
export let alice: Party;
export let bob: Party;

export const snapshot = () =>
  j.app.deps.tx.read(async (q) =>
    JSON.stringify([
      await q.select().from(submissions).orderBy(submissions.id),
      await q.select().from(attempts).orderBy(attempts.id),
      await q.select().from(submissionFiles).orderBy(submissionFiles.submissionId, submissionFiles.name),
      await q.select().from(attemptFiles).orderBy(attemptFiles.attemptId, attemptFiles.name),
      await q.select().from(files).orderBy(files.id),
    ]),
  );
export const incoming = () => readdirSync(join(j.dataDir, 'files', '.incoming'));

/** A refusal that leaves the database and the upload folder exactly as they were. */
export async function refused(call: Promise<unknown>, status: number, code: string): Promise<ApiProblem> {
  // the call is under way already, and its refusal may come while the snapshot is still read:
  // handled here, so that it is no unhandled rejection in the meantime; refusedWith looks at it
  call.catch(() => undefined);
  const before = await snapshot();
  const e = await refusedWith(call, status, code);
  expect(await snapshot()).toBe(before);
  expect(incoming()).toEqual([]);
  return e;
}

export const submit = (c: JudgeClient, problemSlug: string, form: FormData, idOrSlug = act.slug) => c.call(ops.submit, { params: { idOrSlug, problemSlug }, form });

/** Attaches a fresh problem (with a package) to a series; answers the assignment's slug and id. */
export async function task(s: Series, opts: Record<string, unknown> = {}): Promise<{ slug: string; id: string; versionId: string }> {
  const { problem, version } = await w.problem(admin, { package: true });
  const slug = w.uniq('task');
  const updated = await admin.call(ops.attachProblem, { params: { seriesId: s.id }, body: { problemId: problem.id, slug, ...opts } });
  return { slug, id: updated.problems.find((p) => p.slug === slug)!.id, versionId: version.id };
}

export async function participant(a: Activity, prefix = 'pupil', how: 'bearer' | 'cookie' = 'bearer'): Promise<Party> {
  const p = await w.party(prefix, { how });
  await p.c.call(ops.enrol, { params: { idOrSlug: a.slug }, body: {} });
  return p;
}

/**
 * Starts the server and builds the activity and parties before the calling block, and stops it
 * after.
 */
export function useSubmissionWorld(config?: ConfigOverrides): void {
  beforeAll(async () => {
    j = await TestJudge.start({ clock, ...(config ? { config } : {}) });
    w = await World.create(j, clock);
    admin = w.admin;
    runner = await ProtocolRunner.approved(j, admin, 'runner-1');
    manager = await w.party('manager');
    act = await w.activity({ joinPolicy: 'open', unlisted: false });
    await j.grant(manager.u.id, 'manager', act.id);
    open = await admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'open', name: 'Open' } });
    later = await admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'later', name: 'Later', startDate: at(24 * 60) } });
    alice = await participant(act, 'alice');
    bob = await participant(act, 'bob');
  });
  afterAll(() => j.stop());
}
