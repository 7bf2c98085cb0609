import nacl from 'tweetnacl';
import { expect } from 'vitest';
import { ops, type Activity, type ClaimedJob, type FileMeta, type ProblemVersion, type Runner as RunnerRecord, type Series, type SubmissionSummary } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { refusedWith, sendJson } from '../expect.js';
import { ManualClock, TestJudge, raw, type TestUser } from '../harness.js';
import { legacyPackage, zipOf } from '../zips.js';
import { codeForm, sha256 } from './forms.js';
import { packagedProblem } from './packaged-problem.js';
import { eq } from 'drizzle-orm';
import { attempts } from '../../src/db/schema.js';

export { sha256 };

/**
 * What the runner-protocol tests share (decisions §7, §8): a judging machine that speaks the
 * protocol with plain fetch and tweetnacl, as any runner would, not through the SDK; and a Bench,
 * one server per describe block with an administrator, a pupil and a package. Time that matters
 * runs on a ManualClock; the reaper's timer is stopped and `tick(now)` is called by hand. Every
 * refusal is shown to leave the judging tables as they were.
 */
export type Res = Awaited<ReturnType<typeof sendJson>>;

export const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
export const plus = (d: Date, seconds: number) => new Date(d.getTime() + seconds * 1000).toISOString();
export const HOUR = 3600;

/**
 * Everything a refusal could touch, read the same way before and after. A runner's lastSeenAt and
 * address are left out: an authenticated call notes them before its refusal, which is bookkeeping.
 */
/**
 * What a refused runner call must leave unchanged: the runners' stable columns (not when they were
 * last seen, from where) and every row of the judging tables, read on either engine.
 */
const RUNNER_FIELDS = ['id', 'name', 'publicKey', 'fingerprint', 'state', 'problemTypes', 'tags', 'version', 'registeredAt', 'approvedAt', 'revokedAt', 'revokedReason', 'completedJobs'];
const SNAPSHOT = ['runner_tokens', 'runner_files', 'submissions', 'attempts', 'attempt_files', 'trials', 'files'];

/** A judging machine: an Ed25519 key pair, and the protocol spoken over raw HTTP. */
export class Runner {
  readonly keys = nacl.sign.keyPair();
  id = '';
  token = '';

  constructor(
    readonly url: string,
    readonly name: string,
    readonly problemTypes: string[],
    readonly tags?: string[],
  ) {}

  get publicKey(): string {
    return b64(this.keys.publicKey);
  }

  get fingerprint(): string {
    return sha256(this.keys.publicKey);
  }

  /** A JSON request with this runner's token, or with `token` (null: none). */
  send(method: string, path: string, body?: unknown, token?: string | null): Promise<Res> {
    const t = token === undefined ? this.token : (token ?? undefined);
    return sendJson(this.url, method, path, t || undefined, body);
  }

  post(path: string, body?: unknown, token?: string | null): Promise<Res> {
    return this.send('POST', path, body, token);
  }

  async register(over: Record<string, unknown> = {}): Promise<Res> {
    const res = await this.post(
      '/runner/register',
      { name: this.name, publicKey: this.publicKey, problemTypes: this.problemTypes, ...(this.tags ? { tags: this.tags } : {}), ...over },
      null,
    );
    if (res.status === 200) this.id = res.body.runnerId;
    return res;
  }

  async challenge(): Promise<{ nonce: string; expiresAt: string }> {
    const res = await this.post('/runner/auth/challenge', { fingerprint: this.fingerprint }, null);
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  /** The signature the protocol asks for: over the UTF-8 bytes of the nonce string as received. */
  sign(nonce: string, secretKey = this.keys.secretKey): string {
    return b64(nacl.sign.detached(Buffer.from(nonce, 'utf8'), secretKey));
  }

  exchange(nonce: string, signature: string, fingerprint = this.fingerprint): Promise<Res> {
    return this.post('/runner/auth/token', { fingerprint, nonce, signature }, null);
  }

  async authenticate(): Promise<string> {
    const { nonce } = await this.challenge();
    const res = await this.exchange(nonce, this.sign(nonce));
    expect(res.status, res.text).toBe(200);
    this.token = res.body.token;
    return this.token;
  }

  claim(body: { leaseSeconds?: number; waitSeconds?: number } = {}): Promise<Res> {
    return this.post('/runner/jobs/claim', body);
  }

  async job(body: { leaseSeconds?: number; waitSeconds?: number } = {}): Promise<ClaimedJob> {
    const res = await this.claim(body);
    expect(res.status, res.text).toBe(200);
    return res.body as ClaimedJob;
  }

  report(jobId: string, body: Record<string, unknown>): Promise<Res> {
    return this.post(`/runner/jobs/${jobId}/report`, body);
  }

  /** POST /runner/files: the raw response. */
  uploadRaw(form: FormData, token: string | null = this.token) {
    return raw(`${this.url}/api/v1/runner/files`, { method: 'POST', body: form, ...(token ? { token } : {}) });
  }

  async upload(name: string, content: string): Promise<FileMeta> {
    const form = new FormData();
    form.set('sha256', sha256(content));
    form.set('file', new Blob([content], { type: 'text/plain' }), name);
    const res = await this.uploadRaw(form);
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/v1/runner/files/${res.body.id}`);
    return res.body as FileMeta;
  }

  async download(id: string): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
    const res = await fetch(`${this.url}/api/v1/runner/files/${id}`, { headers: { authorization: `Bearer ${this.token}` } });
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
  }
}

/** A problem attached to an open series of a published activity the pupil is enrolled in. */
export interface Stage {
  activity: Activity;
  series: Series;
  slug: string;
  type: string;
  version: ProblemVersion;
  pkg: FileMeta;
}

export interface AttemptRow {
  id: string;
  state: string;
  attempt: number;
  deliveries: number;
  runnerId: string | null;
  leaseExpiresAt: string | null;
  failureReason: string | null;
  verdict: string | null;
  progressDone: number | null;
  progressTotal: number | null;
}

/**
 * One server per describe block, with what its tests share: an administrator, a pupil, a package.
 */
export class Bench {
  private seq = 0;

  private constructor(
    readonly j: TestJudge,
    readonly clock: ManualClock,
    readonly admin: JudgeClient,
    readonly pupil: { u: TestUser; c: JudgeClient },
    readonly zip: Buffer,
  ) {}

  static async start(): Promise<Bench> {
    const clock = new ManualClock();
    const j = await TestJudge.start({ clock });
    // the tests drive the reaper with tick(now): a timer firing mid-test would make them racy
    j.app.reaper.stop();
    const admin = await j.admin();
    const u = await j.user('pupil');
    return new Bench(j, clock, admin, { u, c: await j.signIn(u) }, await zipOf(legacyPackage()));
  }

  stop(): Promise<void> {
    return this.j.stop();
  }

  uniq(prefix: string): string {
    return `${prefix}-${++this.seq}`;
  }

  /** A problem type no other test uses, so that a test's runners see only its own jobs. */
  type(): string {
    return `kind${++this.seq}@1`;
  }

  /** A registered runner, approved and authenticated unless asked otherwise. */
  async runner(types: string[], opts: { tags?: string[]; approve?: boolean; name?: string } = {}): Promise<Runner> {
    const r = new Runner(this.j.url, opts.name ?? this.uniq('runner'), types, opts.tags);
    const res = await r.register();
    expect(res.status, res.text).toBe(200);
    if (opts.approve !== false) {
      await this.admin.call(ops.approveRunner, { params: { id: r.id } });
      await r.authenticate();
    }
    return r;
  }

  view(r: Runner | string): Promise<RunnerRecord> {
    return this.admin.call(ops.getRunner, { params: { id: typeof r === 'string' ? r : r.id } });
  }

  async stage(opts: { type?: string; activityTags?: string[]; seriesTags?: string[]; config?: Record<string, unknown> } = {}): Promise<Stage> {
    const type = opts.type ?? this.type();
    const activity = await this.admin.call(ops.createActivity, {
      body: {
        slug: this.uniq('act'),
        name: 'Contest',
        type: 'contest@1',
        rankingType: 'icpc',
        timeZone: 'UTC',
        joinPolicy: 'open',
        unlisted: false,
        ...(opts.activityTags ? { runnerTags: opts.activityTags } : {}),
      },
    });
    const series = await this.admin.call(ops.createSeries, {
      params: { idOrSlug: activity.slug },
      body: { slug: this.uniq('round'), name: 'Round', ...(opts.seriesTags ? { runnerTags: opts.seriesTags } : {}) },
    });
    const { problem, version, pkg } = await packagedProblem(this.admin, { slug: this.uniq('prob'), name: 'Sum', type }, this.zip);
    const slug = this.uniq('task');
    await this.admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug, ...(opts.config ? { config: opts.config } : {}) } });
    await this.pupil.c.call(ops.enrol, { params: { idOrSlug: activity.slug }, body: {} });
    return { activity, series, slug, type, version, pkg };
  }

  /** The pupil submits pasted code (multipart, with its SHA-256). */
  submit(s: Stage, code = `print(${++this.seq})\n`, opts: { fileName?: string; props?: Record<string, unknown> } = {}): Promise<SubmissionSummary> {
    const form = codeForm(code, opts.fileName ?? 'main.py', opts.props ? { props: JSON.stringify(opts.props) } : {});
    return this.pupil.c.call(ops.submit, { params: { idOrSlug: s.activity.slug, problemSlug: s.slug }, form });
  }

  /** A stage, a runner of its type, a submission, and that runner's claim of it. */
  async held(claim: { leaseSeconds?: number } = {}) {
    const s = await this.stage();
    const r = await this.runner([s.type]);
    const sub = await this.submit(s);
    const job = await r.job(claim);
    expect(job.submissionId).toBe(sub.id);
    return { s, r, sub, job };
  }

  /**
   * Lets the reaper take every lease that will ever lapse, so that a test's own tick counts only
   * its own jobs: earlier tests of the block leave jobs held (of problem types nobody claims
   * again).
   */
  async reapAll(): Promise<void> {
    await this.j.app.reaper.tick(new Date('2100-01-01T00:00:00.000Z'));
  }

  async attempt(id: string): Promise<AttemptRow> {
    const [row] = await this.j.app.deps.tx.read((q) =>
      q
        .select({
          id: attempts.id,
          state: attempts.state,
          attempt: attempts.attempt,
          deliveries: attempts.deliveries,
          runnerId: attempts.runnerId,
          leaseExpiresAt: attempts.leaseExpiresAt,
          failureReason: attempts.failureReason,
          verdict: attempts.verdict,
          progressDone: attempts.progressDone,
          progressTotal: attempts.progressTotal,
        })
        .from(attempts)
        .where(eq(attempts.id, id)),
    );
    return row as AttemptRow;
  }

  async snapshot(): Promise<string> {
    const runners = (await this.j.rows('runners')).map((r) => RUNNER_FIELDS.map((f) => r[f]));
    return JSON.stringify([runners, ...(await Promise.all(SNAPSHOT.map((t) => this.j.rows(t))))]);
  }

  /** A raw call that must be refused with this status and code and change nothing. */
  async refused(send: () => Promise<{ status: number; body: any; text: string }>, status: number, code: string) {
    const before = await this.snapshot();
    const res = await send();
    expect({ status: res.status, code: res.body?.code }, res.text).toEqual({ status, code });
    expect(await this.snapshot()).toBe(before);
    return res;
  }

  /** A typed call that must be refused with this status and code and change nothing. */
  async refusedCall(call: () => Promise<unknown>, status: number, code: string) {
    const before = await this.snapshot();
    const p = await refusedWith(call(), status, code);
    expect(await this.snapshot()).toBe(before);
    return p;
  }

  /** A call that succeeds without changing anything (a duplicate, an idempotent repeat). */
  async unchanged<T>(send: () => Promise<T>): Promise<T> {
    const before = await this.snapshot();
    const out = await send();
    expect(await this.snapshot()).toBe(before);
    return out;
  }
}

// =====================================================================================================
