import { createHash, randomBytes, randomUUID } from 'node:crypto';
import nacl from 'tweetnacl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity, type ClaimedJob, type FileMeta, type ProblemVersion, type Runner as RunnerRecord, type Series, type SubmissionSummary } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { refusedWith, sendJson } from './expect.js';
import { ADMIN_PASSWORD, ManualClock, TestJudge, raw, type TestUser } from './harness.js';
import { UNKNOWN_UUID, World, listen, only } from './series-fixtures.js';
import { legacyPackage, zipOf } from './zips.js';

/**
 * The runner protocol and runner management (CONTRACT §7, §8) over real HTTP on a real server:
 * registration and the Ed25519 handshake, runner tokens, claiming (types, tags, order, leases,
 * long polls), holding and reporting jobs, runner files, the lease reaper, the administrators'
 * side with its permission matrix and events, matchingRunners, and trials.
 *
 * The protocol is spoken with plain fetch and tweetnacl, as any runner would, not through the SDK.
 * Time that matters runs on a ManualClock; the reaper's timer is stopped and `tick(now)` is called
 * by hand. Every refusal is shown to leave the judging tables as they were.
 */

type Res = Awaited<ReturnType<typeof sendJson>>;

const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
const plus = (d: Date, seconds: number) => new Date(d.getTime() + seconds * 1000).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const HOUR = 3600;

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await sleep(5);
  }
}

/**
 * Everything a refusal could touch, read the same way before and after. A runner's lastSeenAt and
 * address are left out: an authenticated call notes them before its refusal, which is bookkeeping.
 */
const SNAPSHOT = [
  `SELECT id, name, public_key, fingerprint, state, problem_types, tags, version, registered_at, approved_at, revoked_at, revoked_reason, completed_jobs
   FROM runners ORDER BY rowid`,
  'SELECT * FROM runner_tokens ORDER BY rowid',
  'SELECT * FROM runner_files ORDER BY rowid',
  'SELECT * FROM submissions ORDER BY rowid',
  'SELECT * FROM attempts ORDER BY rowid',
  'SELECT * FROM attempt_files ORDER BY rowid',
  'SELECT * FROM trials ORDER BY rowid',
  'SELECT * FROM files ORDER BY rowid',
];

/** A judging machine: an Ed25519 key pair, and the protocol spoken over raw HTTP. */
class Runner {
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
interface Stage {
  activity: Activity;
  series: Series;
  slug: string;
  type: string;
  version: ProblemVersion;
  pkg: FileMeta;
}

interface AttemptRow {
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

/** One server per describe block, with what its tests share: an administrator, a pupil, a package. */
class Bench {
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
    const problem = await this.admin.call(ops.createProblem, { body: { slug: this.uniq('prob'), name: 'Sum', type } });
    const pkg = await this.admin.upload('package.zip', this.zip, 'application/zip');
    const version = await this.admin.call(ops.createProblemVersion, { params: { problemId: problem.id }, body: { package: { fileId: pkg.id } } });
    const slug = this.uniq('task');
    await this.admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug, ...(opts.config ? { config: opts.config } : {}) } });
    await this.pupil.c.call(ops.enrol, { params: { idOrSlug: activity.slug }, body: {} });
    return { activity, series, slug, type, version, pkg };
  }

  /** The pupil submits pasted code (multipart, with its SHA-256). */
  submit(s: Stage, code = `print(${++this.seq})\n`, opts: { fileName?: string; props?: Record<string, unknown> } = {}): Promise<SubmissionSummary> {
    const form = new FormData();
    form.set('code', code);
    form.set('fileName', opts.fileName ?? 'main.py');
    form.set('sha256', sha256(code));
    if (opts.props) form.set('props', JSON.stringify(opts.props));
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
   * its own jobs: earlier tests of the block leave jobs held (of problem types nobody claims again).
   */
  reapAll(): void {
    this.j.app.reaper.tick(new Date('2100-01-01T00:00:00.000Z'));
  }

  attempt(id: string): AttemptRow {
    return this.j.app.deps.sqlite
      .prepare(
        `SELECT id, state, attempt, deliveries, runner_id AS runnerId, lease_expires_at AS leaseExpiresAt, failure_reason AS failureReason, verdict,
                progress_done AS progressDone, progress_total AS progressTotal
         FROM attempts WHERE id = ?`,
      )
      .get(id) as AttemptRow;
  }

  snapshot(): string {
    return JSON.stringify(SNAPSHOT.map((sql) => this.j.app.deps.sqlite.prepare(sql).all()));
  }

  /** A raw call that must be refused with this status and code and change nothing. */
  async refused(send: () => Promise<{ status: number; body: any; text: string }>, status: number, code: string) {
    const before = this.snapshot();
    const res = await send();
    expect({ status: res.status, code: res.body?.code }, res.text).toEqual({ status, code });
    expect(this.snapshot()).toBe(before);
    return res;
  }

  /** A typed call that must be refused with this status and code and change nothing. */
  async refusedCall(call: () => Promise<unknown>, status: number, code: string) {
    const before = this.snapshot();
    const p = await refusedWith(call(), status, code);
    expect(this.snapshot()).toBe(before);
    return p;
  }

  /** A call that succeeds without changing anything (a duplicate, an idempotent repeat). */
  async unchanged<T>(send: () => Promise<T>): Promise<T> {
    const before = this.snapshot();
    const out = await send();
    expect(this.snapshot()).toBe(before);
    return out;
  }
}

// =====================================================================================================

describe('runners: registration and the handshake', () => {
  let b: Bench;
  beforeAll(async () => {
    b = await Bench.start();
  });
  afterAll(() => b.stop());

  describe('register', () => {
    it('a new key waits for approval; its fingerprint is the hex SHA-256 of the raw key', async () => {
      const r = new Runner(b.j.url, 'lab-1', ['standard-io@1'], ['gpu']);
      const res = await r.register({ version: '0.1.0' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ runnerId: expect.any(String), fingerprint: sha256(r.keys.publicKey), state: 'pendingApproval' });
      expect(res.body.fingerprint).toMatch(/^[0-9a-f]{64}$/);
      const view = await b.view(r);
      expect(view).toMatchObject({
        id: r.id,
        name: 'lab-1',
        state: 'pendingApproval',
        fingerprint: r.fingerprint,
        problemTypes: ['standard-io@1'],
        tags: ['gpu'],
        version: '0.1.0',
        registeredAt: b.clock.now().toISOString(),
        completedJobs: 0,
        files: [],
      });
      expect(view.approvedAt).toBeUndefined();
      expect(view.currentJobId).toBeUndefined();
    });

    it('the same key again keeps its id, state and tags, and refreshes its name, version and problem types', async () => {
      const r = new Runner(b.j.url, 'lab-2', ['standard-io@1'], ['gpu']);
      await r.register({ version: '0.1.0' });
      await b.admin.call(ops.approveRunner, { params: { id: r.id } });
      const rows = b.j.count('runners');
      const again = await r.register({ name: 'lab-2b', problemTypes: ['standard-io@1', 'output-only@1'], tags: ['cpu', 'big'], version: '0.2.0' });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ runnerId: r.id, fingerprint: r.fingerprint, state: 'approved' });
      expect(b.j.count('runners')).toBe(rows);
      expect(await b.view(r)).toMatchObject({
        id: r.id,
        name: 'lab-2b',
        state: 'approved',
        problemTypes: ['standard-io@1', 'output-only@1'],
        tags: ['gpu'],
        version: '0.2.0',
      });
    });

    it('refuses a key that is not base64 (422 runner.key.malformed) and changes nothing', async () => {
      const r = new Runner(b.j.url, 'bad', ['standard-io@1']);
      for (const publicKey of ['not base64!', 'abc', `${b64(randomBytes(32))}#`]) {
        const res = await b.refused(() => r.register({ publicKey }), 422, 'runner.key.malformed');
        expect(res.body.errors).toHaveProperty('publicKey');
      }
    });

    it('refuses a key that is not 32 bytes (422 runner.key.length) and changes nothing', async () => {
      const r = new Runner(b.j.url, 'bad', ['standard-io@1']);
      for (const n of [31, 33, 64]) await b.refused(() => r.register({ publicKey: b64(randomBytes(n)) }), 422, 'runner.key.length');
    });

    it('refuses a revoked key (409 runner.revoked) and changes nothing', async () => {
      const r = await b.runner(['standard-io@1'], { approve: false });
      await b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: {} });
      await b.refused(() => r.register({ name: 'back again' }), 409, 'runner.revoked');
      expect((await b.view(r)).name).toBe(r.name);
    });

    it('refuses malformed registrations (422 validation_failed) and changes nothing', async () => {
      const r = new Runner(b.j.url, 'bad', ['standard-io@1']);
      const bodies: Record<string, unknown>[] = [
        { problemTypes: undefined },
        { problemTypes: [] },
        { problemTypes: ['Standard IO'] },
        { problemTypes: ['standard-io'] },
        { problemTypes: 'standard-io@1' },
        { name: '' },
        { name: 'x'.repeat(101) },
        { publicKey: undefined },
        { tags: ['no spaces allowed'] },
        { version: 7 },
      ];
      for (const over of bodies) {
        const res = await b.refused(() => r.register(over), 422, 'validation_failed');
        expect(Object.keys(res.body.errors ?? {}).length).toBeGreaterThan(0);
      }
      await b.refused(() => r.post('/runner/register', '{"name":', null), 400, 'request.malformed');
    });
  });

  describe('challenge', () => {
    it('answers a single-use nonce: base64 of 32 random bytes, valid 2 minutes', async () => {
      const r = await b.runner(['standard-io@1'], { approve: false });
      const one = await r.challenge();
      const two = await r.challenge();
      expect(Buffer.from(one.nonce, 'base64')).toHaveLength(32);
      expect(b64(Buffer.from(one.nonce, 'base64'))).toBe(one.nonce);
      expect(one.expiresAt).toBe(plus(b.clock.now(), 120));
      expect(two.nonce).not.toBe(one.nonce);
    });

    it('an unknown fingerprint is 404, a malformed one 422', async () => {
      const r = new Runner(b.j.url, 'never registered', ['standard-io@1']);
      await b.refused(() => r.post('/runner/auth/challenge', { fingerprint: r.fingerprint }, null), 404, 'not_found');
      for (const fingerprint of ['abc', r.fingerprint.toUpperCase(), 42]) {
        await b.refused(() => r.post('/runner/auth/challenge', { fingerprint }, null), 422, 'validation_failed');
      }
    });
  });

  describe('token', () => {
    let r: Runner;
    beforeAll(async () => {
      r = await b.runner(['standard-io@1']);
    });

    it('an approved runner gets a 12-hour token, stored only as its SHA-256', async () => {
      const { nonce } = await r.challenge();
      const res = await r.exchange(nonce, r.sign(nonce));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9_-]{16,128}$/), expiresAt: plus(b.clock.now(), 12 * HOUR) });
      const hashes = (b.j.app.deps.sqlite.prepare('SELECT hash FROM runner_tokens WHERE runner_id = ?').all(r.id) as { hash: string }[]).map((h) => h.hash);
      expect(hashes).toContain(sha256(res.body.token));
      expect(hashes).not.toContain(res.body.token);
      expect((await r.post('/runner/heartbeat', undefined, res.body.token)).status).toBe(204);
    });

    it('an unknown nonce is 403 runner.nonce.unknown; a spent one too, even when the attempt that spent it failed', async () => {
      await b.refused(() => r.exchange(b64(randomBytes(32)), r.sign('whatever')), 403, 'runner.nonce.unknown');
      // spent by a success
      const first = await r.challenge();
      expect((await r.exchange(first.nonce, r.sign(first.nonce))).status).toBe(200);
      await b.refused(() => r.exchange(first.nonce, r.sign(first.nonce)), 403, 'runner.nonce.unknown');
      // spent by a failure
      const second = await r.challenge();
      await b.refused(() => r.exchange(second.nonce, b64(randomBytes(64))), 403, 'runner.signature');
      await b.refused(() => r.exchange(second.nonce, r.sign(second.nonce)), 403, 'runner.nonce.unknown');
    });

    it('a nonce older than 2 minutes is 403 runner.nonce.expired', async () => {
      const fresh = await r.challenge();
      b.clock.advance(119);
      expect((await r.exchange(fresh.nonce, r.sign(fresh.nonce))).status).toBe(200);
      const stale = await r.challenge();
      b.clock.advance(121);
      await b.refused(() => r.exchange(stale.nonce, r.sign(stale.nonce)), 403, 'runner.nonce.expired');
    });

    it('a nonce issued to another key is 403 runner.nonce.mismatch', async () => {
      const other = await b.runner(['standard-io@1']);
      const { nonce } = await r.challenge();
      await b.refused(() => other.exchange(nonce, other.sign(nonce)), 403, 'runner.nonce.mismatch');
    });

    it('a signature that does not verify is 403 runner.signature', async () => {
      const stranger = nacl.sign.keyPair();
      const cases: ((nonce: string) => string)[] = [
        (nonce) => r.sign(nonce, stranger.secretKey), // another key
        (nonce) => b64(nacl.sign.detached(Buffer.from(nonce, 'base64'), r.keys.secretKey)), // the decoded bytes, not the string
        (nonce) => r.sign(`${nonce}x`), // another message
        () => 'not base64!', // not even base64
        (nonce) => b64(nacl.sign.detached(Buffer.from(nonce, 'utf8'), r.keys.secretKey).subarray(0, 63)), // 63 bytes
      ];
      for (const signature of cases) {
        const { nonce } = await r.challenge();
        await b.refused(() => r.exchange(nonce, signature(nonce)), 403, 'runner.signature');
      }
    });

    it('a runner waiting for approval is 403 runner.notApproved, but only once its signature verifies', async () => {
      const pending = await b.runner(['standard-io@1'], { approve: false });
      let c = await pending.challenge();
      await b.refused(() => pending.exchange(c.nonce, b64(randomBytes(64))), 403, 'runner.signature');
      c = await pending.challenge();
      await b.refused(() => pending.exchange(c.nonce, pending.sign(c.nonce)), 403, 'runner.notApproved');
    });

    it('a runner deleted after its challenge is 404', async () => {
      const gone = await b.runner(['standard-io@1']);
      const { nonce } = await gone.challenge();
      await b.admin.call(ops.revokeRunner, { params: { id: gone.id }, body: {} });
      await b.admin.call(ops.deleteRunner, { params: { id: gone.id } });
      await b.refused(() => gone.exchange(nonce, gone.sign(nonce)), 404, 'not_found');
    });

    it('refuses malformed token requests (422)', async () => {
      const { nonce } = await r.challenge();
      await b.refused(() => r.post('/runner/auth/token', { fingerprint: r.fingerprint, nonce }, null), 422, 'validation_failed');
      await b.refused(() => r.post('/runner/auth/token', { fingerprint: 'xyz', nonce, signature: r.sign(nonce) }, null), 422, 'validation_failed');
    });
  });

  describe('runner-authenticated calls', () => {
    it('need a runner token: none, garbage and unknown tokens are 401', async () => {
      const r = await b.runner(['standard-io@1']);
      await b.refused(() => r.post('/runner/heartbeat', undefined, null), 401, 'unauthenticated');
      await b.refused(() => r.post('/runner/heartbeat', undefined, 'garbage'), 401, 'unauthenticated');
      await b.refused(() => r.post('/runner/heartbeat', undefined, randomBytes(32).toString('base64url')), 401, 'unauthenticated');
      const basic = await raw(`${b.j.url}/api/v1/runner/heartbeat`, { method: 'POST', headers: { authorization: `Basic ${r.token}` } });
      expect({ status: basic.status, code: basic.body?.code }).toEqual({ status: 401, code: 'unauthenticated' });
      await b.refused(() => r.post('/runner/jobs/claim', {}, null), 401, 'unauthenticated');
    });

    it('a user bearer token is not a runner token, and a runner token is not a user token', async () => {
      const r = await b.runner(['standard-io@1']);
      await b.refused(() => r.post('/runner/heartbeat', undefined, b.pupil.c.accessToken), 401, 'unauthenticated');
      await b.refused(() => r.post('/runner/jobs/claim', {}, b.admin.accessToken), 401, 'unauthenticated');
      for (const path of ['/account', '/runners', `/runners/${r.id}`]) {
        await b.refused(() => r.send('GET', path), 401, 'unauthenticated');
      }
    });

    it('a token lasts 12 hours (401 afterwards); a new handshake gives a new one', async () => {
      const r = await b.runner(['standard-io@1']);
      b.clock.advance(12 * HOUR - 1);
      expect((await r.post('/runner/heartbeat')).status).toBe(204);
      b.clock.advance(1);
      await b.refused(() => r.post('/runner/heartbeat'), 401, 'unauthenticated');
      await r.authenticate();
      expect((await r.post('/runner/heartbeat')).status).toBe(204);
      // the administrator's hour-long access token lapsed too
      await b.admin.login('admin', ADMIN_PASSWORD);
    });

    it('a revoked runner: its token dies (401) and no new one is issued (403 runner.notApproved)', async () => {
      const r = await b.runner(['standard-io@1']);
      await b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: { reason: 'retired' } });
      expect(b.j.app.deps.sqlite.prepare('SELECT count(*) AS n FROM runner_tokens WHERE runner_id = ?').get(r.id)).toEqual({ n: 0 });
      await b.refused(() => r.post('/runner/heartbeat'), 401, 'unauthenticated');
      const { nonce } = await r.challenge();
      await b.refused(() => r.exchange(nonce, r.sign(nonce)), 403, 'runner.notApproved');
    });

    it('every call re-reads the runner: a live token of a runner that is no longer approved is 403 runner.notApproved', async () => {
      // revoking deletes the tokens in the same transaction; this is the check behind it, reached by
      // changing the state alone, as a revocation committed between two calls would look to the second
      const r = await b.runner(['standard-io@1']);
      b.j.app.deps.sqlite.prepare("UPDATE runners SET state = 'revoked' WHERE id = ?").run(r.id);
      await b.refused(() => r.post('/runner/heartbeat'), 403, 'runner.notApproved');
      await b.refused(() => r.claim({}), 403, 'runner.notApproved');
    });
  });

  describe('heartbeat', () => {
    it('answers 204 and notes lastSeenAt; a runner not seen for 2 minutes is not connected', async () => {
      const r = await b.runner(['standard-io@1']);
      b.clock.advance(30);
      const res = await r.post('/runner/heartbeat');
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const seen = b.clock.now().toISOString();
      expect(await b.view(r)).toMatchObject({ lastSeenAt: seen, isConnected: true });
      b.clock.advance(3 * 60);
      expect(await b.view(r)).toMatchObject({ lastSeenAt: seen, isConnected: false });
      expect((await r.post('/runner/heartbeat')).status).toBe(204);
      expect(await b.view(r)).toMatchObject({ lastSeenAt: b.clock.now().toISOString(), isConnected: true });
    });
  });
});

describe('runners: the handshake is rate limited per address', () => {
  it('300 registrations, challenges and token requests a minute from one address, then 429 with Retry-After', async () => {
    const b = await Bench.start();
    try {
      const challenge = () =>
        raw(`${b.j.url}/api/v1/runner/auth/challenge`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fingerprint: '0'.repeat(64) }) });
      for (let i = 0; i < 300; i += 50) {
        const batch = await Promise.all(Array.from({ length: 50 }, challenge));
        expect(batch.map((r) => r.status)).toEqual(Array(50).fill(404));
      }
      const limited = await challenge();
      expect({ status: limited.status, code: limited.body.code }).toEqual({ status: 429, code: 'rate_limited' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      const before = b.j.count('runners');
      const r = new Runner(b.j.url, 'late', ['standard-io@1']);
      expect((await r.register()).status).toBe(429);
      expect(b.j.count('runners')).toBe(before);
    } finally {
      await b.stop();
    }
  });
});

// =====================================================================================================

describe('runners: claiming jobs', () => {
  let b: Bench;
  beforeAll(async () => {
    b = await Bench.start();
  });
  afterAll(() => b.stop());

  it('answers 204 with no body when there is nothing to judge', async () => {
    const r = await b.runner([b.type()]);
    const res = await r.claim({});
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await r.post('/runner/jobs/claim')).status).toBe(204);
  });

  it('hands out only jobs of the problem types the runner registered', async () => {
    const a = await b.stage();
    const c = await b.stage();
    const onlyA = await b.runner([a.type]);
    const both = await b.runner([a.type, c.type]);
    const sub = await b.submit(c);
    expect((await onlyA.claim()).status).toBe(204);
    const job = await both.job();
    expect({ submissionId: job.submissionId, problemType: job.problemType }).toEqual({ submissionId: sub.id, problemType: c.type });
  });

  it("requires the series' runner tags, else the activity's, all held by the runner", async () => {
    const type = b.type();
    const r = await b.runner([type]);
    const setTags = (tags: string[]) => b.admin.call(ops.setRunnerTags, { params: { id: r.id }, body: { tags } });

    // the activity's tags, when the series has none
    const viaActivity = await b.stage({ type, activityTags: ['gpu'] });
    const first = await b.submit(viaActivity);
    expect((await r.claim()).status).toBe(204);
    await setTags(['gpu']);
    expect((await r.job()).submissionId).toBe(first.id);

    // the series' tags replace the activity's, and every one of them is needed
    const viaSeries = await b.stage({ type, activityTags: ['gpu'], seriesTags: ['fast', 'ssd'] });
    const second = await b.submit(viaSeries);
    expect((await r.claim()).status).toBe(204);
    await setTags(['gpu', 'fast']);
    expect((await r.claim()).status).toBe(204);
    await setTags(['fast', 'ssd', 'extra']);
    expect((await r.job()).submissionId).toBe(second.id);

    // no tags required: any runner
    const untagged = await b.stage({ type });
    const third = await b.submit(untagged);
    await setTags([]);
    expect((await r.job()).submissionId).toBe(third.id);
  });

  it('hands out first attempts before rejudges, otherwise the oldest first', async () => {
    const s = await b.stage();
    const r = await b.runner([s.type]);
    const judged = await b.submit(s);
    const j1 = await r.job();
    expect((await r.report(j1.jobId, { leaseToken: j1.leaseToken, verdict: 'WA' })).status).toBe(200);
    b.clock.advance(1);
    await b.admin.call(ops.rejudgeSubmission, { params: { id: judged.id } });
    b.clock.advance(1);
    const older = await b.submit(s);
    b.clock.advance(1);
    const newer = await b.submit(s);
    const order: [string, number][] = [];
    for (let i = 0; i < 3; i++) {
      const job = await r.job();
      order.push([job.submissionId, job.attempt]);
    }
    expect(order).toEqual([
      [older.id, 1],
      [newer.id, 1],
      [judged.id, 2],
    ]);
    expect((await r.claim()).status).toBe(204);
  });

  it('leases for 60 s by default, clamped to 15..3600', async () => {
    const s = await b.stage();
    const r = await b.runner([s.type]);
    const cases: [number | undefined, number][] = [
      [undefined, 60],
      [0, 15],
      [-30, 15],
      [14, 15],
      [15, 15],
      [600, 600],
      [3600, 3600],
      [99_999, 3600],
    ];
    for (const [asked, seconds] of cases) {
      await b.submit(s);
      const job = await r.job(asked === undefined ? {} : { leaseSeconds: asked });
      expect(job.leaseExpiresAt, `leaseSeconds ${asked}`).toBe(plus(b.clock.now(), seconds));
      expect(b.attempt(job.jobId)).toMatchObject({ state: 'running', runnerId: r.id, leaseExpiresAt: job.leaseExpiresAt, deliveries: 1 });
    }
  });

  it('refuses waitSeconds over 30 and malformed claims (422) and hands nothing out', async () => {
    const s = await b.stage();
    const r = await b.runner([s.type]);
    await b.submit(s);
    for (const body of [{ waitSeconds: 31 }, { waitSeconds: -1 }, { waitSeconds: 1.5 }, { waitSeconds: '5' }, { leaseSeconds: 'long' }, { leaseSeconds: 60.5 }]) {
      await b.refused(() => r.claim(body as never), 422, 'validation_failed');
    }
    await b.refused(() => r.post('/runner/jobs/claim', '{oops'), 400, 'request.malformed');
    expect((await r.job({ waitSeconds: 30 })).problemType).toBe(s.type);
  });

  it('two claims at once never get the same job', async () => {
    const s = await b.stage();
    const one = await b.runner([s.type]);
    const two = await b.runner([s.type]);
    const sub = await b.submit(s);
    const answers = await Promise.all([one.claim(), two.claim(), one.claim(), two.claim()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 204, 204, 204]);
    expect(answers.find((a) => a.status === 200)!.body.submissionId).toBe(sub.id);
  });

  it('a long poll answers as soon as a job is submitted, and 204 when the wait ends with none', async () => {
    const s = await b.stage();
    const r = await b.runner([s.type]);
    const idle = await b.runner([b.type()]);
    const signal = b.j.app.services.jobs.signal;
    const started = Date.now();
    const waiting = r.claim({ waitSeconds: 5 });
    const nothing = idle.claim({ waitSeconds: 2 });
    await until(() => signal.waiting >= 2);
    const sub = await b.submit(s);
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.submissionId).toBe(sub.id);
    expect(Date.now() - started).toBeLessThan(4000);
    const none = await nothing;
    expect(none.status).toBe(204);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
  });

  it('a claimed job carries what judging needs: submission, version, package, source files, props, config', async () => {
    const config = { languages: ['cpp'], checker: { exact: true } };
    const s = await b.stage({ config });
    const r = await b.runner([s.type]);
    const code = '#include <cstdio>\nint main() { int a, b; scanf("%d %d", &a, &b); printf("%d\\n", a + b); }\n';
    const sub = await b.submit(s, code, { fileName: 'sum.cpp', props: { language: 'cpp', note: 'first try' } });
    const job = await r.job();
    expect(job).toEqual({
      jobId: expect.any(String),
      submissionId: sub.id,
      attempt: 1,
      leaseToken: expect.stringMatching(/^[A-Za-z0-9_-]{16,128}$/),
      leaseExpiresAt: plus(b.clock.now(), 60),
      problemType: s.type,
      problemVersionId: s.version.id,
      packageFileId: s.pkg.id,
      packageSha256: sha256(b.zip),
      files: [{ name: 'source', fileName: 'sum.cpp', language: 'cpp', fileId: expect.any(String), sha256: sha256(code), sizeBytes: Buffer.byteLength(code) }],
      props: { language: 'cpp', note: 'first try' },
      config,
    });
    expect(s.version.files).toContainEqual(expect.objectContaining({ fileId: job.packageFileId, sha256: job.packageSha256 }));
    // the job is the submission's attempt; the manager sees it running on this runner
    const detail = await b.admin.call(ops.getSubmission, { params: { id: sub.id } });
    expect(detail).toMatchObject({ state: 'running', attempts: 1 });
    expect(detail.attemptList[0]).toMatchObject({ id: job.jobId, attempt: 1, state: 'running', runnerName: r.name, startedAt: b.clock.now().toISOString() });
    expect((await b.view(r)).currentJobId).toBe(job.jobId);
  });
});

// =====================================================================================================

describe('runners: holding and reporting jobs', () => {
  let b: Bench;
  beforeAll(async () => {
    b = await Bench.start();
  });
  afterAll(() => b.stop());

  const lease = (r: Runner, jobId: string, body: Record<string, unknown>) => r.post(`/runner/jobs/${jobId}/lease`, body);

  /** Every call about a held job, with a body that is valid apart from whose token it is. */
  async function heldCalls(r: Runner, jobId: string, leaseToken: string): Promise<[string, () => Promise<Res>][]> {
    const f = await r.upload('note.txt', `note ${randomUUID()}`);
    return [
      ['lease', () => r.post(`/runner/jobs/${jobId}/lease`, { leaseToken, leaseSeconds: 120 })],
      ['progress', () => r.post(`/runner/jobs/${jobId}/progress`, { leaseToken, done: 1, total: 2 })],
      ['release', () => r.post(`/runner/jobs/${jobId}/release`, { leaseToken })],
      ['report', () => r.report(jobId, { leaseToken, verdict: 'AC' })],
      ['files', () => r.post(`/runner/jobs/${jobId}/files`, { leaseToken, fileId: f.id, name: 'note' })],
    ];
  }

  describe('leases', () => {
    it('renewing never shortens a lease, and extends it otherwise', async () => {
      const { r, job } = await b.held({ leaseSeconds: 600 });
      const t0 = b.clock.now();
      expect(job.leaseExpiresAt).toBe(plus(t0, 600));
      let res = await lease(r, job.jobId, { leaseToken: job.leaseToken, leaseSeconds: 15 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ jobId: job.jobId, leaseToken: job.leaseToken, leaseExpiresAt: plus(t0, 600) });
      res = await lease(r, job.jobId, { leaseToken: job.leaseToken });
      expect(res.body.leaseExpiresAt).toBe(plus(t0, 600));
      b.clock.advance(100);
      res = await lease(r, job.jobId, { leaseToken: job.leaseToken, leaseSeconds: 900 });
      expect(res.body.leaseExpiresAt).toBe(plus(b.clock.now(), 900));
      res = await lease(r, job.jobId, { leaseToken: job.leaseToken, leaseSeconds: 99_999 });
      expect(res.body.leaseExpiresAt).toBe(plus(b.clock.now(), 3600));
      expect(b.attempt(job.jobId).leaseExpiresAt).toBe(plus(b.clock.now(), 3600));
    });

    it('progress answers 204, records how far judging got, and extends the lease by its default', async () => {
      const { r, job } = await b.held({ leaseSeconds: 15 });
      b.clock.advance(10);
      const res = await r.post(`/runner/jobs/${job.jobId}/progress`, { leaseToken: job.leaseToken, done: 2, total: 5 });
      expect(res.status).toBe(204);
      expect(b.attempt(job.jobId)).toMatchObject({ leaseExpiresAt: plus(b.clock.now(), 60), progressDone: 2, progressTotal: 5 });
      expect((await r.post(`/runner/jobs/${job.jobId}/progress`, { leaseToken: job.leaseToken, done: 3 })).status).toBe(204);
      expect(b.attempt(job.jobId)).toMatchObject({ progressDone: 3, progressTotal: 5 });
      await b.refused(() => r.post(`/runner/jobs/${job.jobId}/progress`, { leaseToken: job.leaseToken, done: -1 }), 422, 'validation_failed');
    });

    it('release puts the job back in the queue at once, for any runner; the old lease is stale', async () => {
      const { s, r, sub, job } = await b.held();
      const res = await r.post(`/runner/jobs/${job.jobId}/release`, { leaseToken: job.leaseToken });
      expect(res.status).toBe(204);
      // a polite release is not a failed delivery
      expect(b.attempt(job.jobId)).toMatchObject({ state: 'queued', runnerId: null, leaseExpiresAt: null, deliveries: 0 });
      expect((await b.admin.call(ops.getSubmission, { params: { id: sub.id } })).state).toBe('queued');
      const other = await b.runner([s.type]);
      const again = await other.job();
      expect({ jobId: again.jobId, attempt: again.attempt }).toEqual({ jobId: job.jobId, attempt: 1 });
      expect(again.leaseToken).not.toBe(job.leaseToken);
      expect(b.attempt(job.jobId)).toMatchObject({ state: 'running', runnerId: other.id, deliveries: 1 });
      for (const [what, call] of await heldCalls(r, job.jobId, job.leaseToken)) {
        const p = await b.refused(call, 403, 'runner.lease.stale');
        expect(p.body.code, what).toBe('runner.lease.stale');
      }
    });

    it("another runner presenting the holder's lease token is 403 runner.lease.foreign", async () => {
      const { s, job } = await b.held();
      const intruder = await b.runner([s.type]);
      for (const [what, call] of await heldCalls(intruder, job.jobId, job.leaseToken)) {
        const p = await b.refused(call, 403, 'runner.lease.foreign');
        expect(p.body.code, what).toBe('runner.lease.foreign');
      }
    });

    it('a wrong lease token is stale; an unknown or malformed job id is 404', async () => {
      const { r, job } = await b.held();
      for (const [, call] of await heldCalls(r, job.jobId, 'not-the-lease-token')) await b.refused(call, 403, 'runner.lease.stale');
      for (const [, call] of await heldCalls(r, randomUUID(), job.leaseToken)) await b.refused(call, 404, 'not_found');
      for (const [, call] of await heldCalls(r, 'not-a-uuid', job.leaseToken)) await b.refused(call, 404, 'not_found');
      await b.refused(() => lease(r, job.jobId, {}), 422, 'validation_failed');
      await b.refused(() => lease(r, job.jobId, { leaseToken: '' }), 422, 'validation_failed');
    });

    it('a job that is no longer running refuses the calls of its last holder (409 job.state)', async () => {
      const { r, job } = await b.held();
      expect((await r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC' })).status).toBe(200);
      for (const [what, call] of (await heldCalls(r, job.jobId, job.leaseToken)).filter(([w]) => w !== 'report')) {
        const p = await b.refused(call, 409, 'job.state');
        expect(p.body.code, what).toBe('job.state');
      }
    });

    it('the reaper puts a lapsed job back in the queue: the old lease is stale, another runner gets it', async () => {
      b.reapAll();
      const { s, r, job } = await b.held({ leaseSeconds: 15 });
      b.clock.advance(14);
      expect(b.j.app.reaper.tick(b.clock.now())).toEqual({ jobs: 0, trials: 0 });
      expect(b.attempt(job.jobId).state).toBe('running');
      b.clock.advance(1);
      expect(b.j.app.reaper.tick(b.clock.now())).toEqual({ jobs: 1, trials: 0 });
      expect(b.attempt(job.jobId)).toMatchObject({ state: 'queued', runnerId: null, deliveries: 1 });
      await b.refused(() => lease(r, job.jobId, { leaseToken: job.leaseToken }), 403, 'runner.lease.stale');
      await b.refused(() => r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC' }), 403, 'runner.lease.stale');
      const other = await b.runner([s.type]);
      const again = await other.job();
      expect(again.jobId).toBe(job.jobId);
      expect(b.attempt(job.jobId)).toMatchObject({ state: 'running', runnerId: other.id, deliveries: 2 });
    });
  });

  describe('reports', () => {
    it('a verdict completes the job once; a repeat is a duplicate that changes nothing', async () => {
      const { r, sub, job } = await b.held();
      const body = { leaseToken: job.leaseToken, verdict: 'AC', score: 1, maxScore: 1, runnerVersion: '1.2.3', extra: { tests: 3 }, props: { slowestMs: 120 } };
      const res = await r.report(job.jobId, body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ resultId: expect.any(String), state: 'completed', duplicate: false });
      expect(b.attempt(job.jobId)).toMatchObject({ state: 'completed', verdict: 'AC', leaseExpiresAt: null });
      expect((await b.view(r)).completedJobs).toBe(1);
      expect((await b.view(r)).currentJobId).toBeUndefined();
      const detail = await b.admin.call(ops.getSubmission, { params: { id: sub.id } });
      expect(detail).toMatchObject({ state: 'completed', verdict: 'AC', score: 1, maxScore: 1 });
      expect(detail.attemptList[0]).toMatchObject({ id: job.jobId, state: 'completed', verdict: 'AC', runnerName: r.name, finishedAt: b.clock.now().toISOString() });

      const again = await b.unchanged(() => r.report(job.jobId, body));
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ resultId: res.body.resultId, state: 'completed', duplicate: true });
      const otherVerdict = await b.unchanged(() => r.report(job.jobId, { ...body, verdict: 'WA' }));
      expect(otherVerdict.body).toEqual({ resultId: res.body.resultId, state: 'completed', duplicate: true });
      expect((await b.view(r)).completedJobs).toBe(1);
    });

    it('refuses a report without a verdict (422 result.verdict.missing) and malformed reports (422), keeping the job held', async () => {
      const { r, job } = await b.held();
      const p = await b.refused(() => r.report(job.jobId, { leaseToken: job.leaseToken, score: 1 }), 422, 'result.verdict.missing');
      expect(p.body.errors).toHaveProperty('verdict');
      const bad: Record<string, unknown>[] = [
        { verdict: 'AC', extra: { blob: 'x'.repeat(2100) } },
        { verdict: 'AC', extra: [1, 2] },
        { verdict: '' },
        { verdict: 'x'.repeat(65) },
        { verdict: 'AC', score: 'full' },
        { verdict: 'AC', files: [{ name: '../log', fileId: randomUUID() }] },
        { verdict: 'AC', files: [{ name: 'log', fileId: 'nope' }] },
        { verdict: 'AC', props: 'fast' },
      ];
      for (const over of bad) await b.refused(() => r.report(job.jobId, { leaseToken: job.leaseToken, ...over }), 422, 'validation_failed');
      expect(b.attempt(job.jobId)).toMatchObject({ state: 'running', runnerId: r.id });
      expect((await r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'TLE', extra: { blob: 'x'.repeat(1900) } })).status).toBe(200);
    });

    it('a report after a manager cancelled the attempt is 403 runner.lease.stale', async () => {
      const { r, sub, job } = await b.held();
      const cancelled = await b.admin.call(ops.cancelAttempt, { params: { submissionId: sub.id, attemptId: job.jobId } });
      expect(cancelled.attemptList[0]).toMatchObject({ id: job.jobId, state: 'cancelled' });
      await b.refused(() => r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC' }), 403, 'runner.lease.stale');
      await b.refused(() => r.report(job.jobId, { leaseToken: job.leaseToken, infrastructureFailure: true }), 403, 'runner.lease.stale');
      await b.refused(() => lease(r, job.jobId, { leaseToken: job.leaseToken }), 403, 'runner.lease.stale');
      expect((await r.claim()).status).toBe(204);
    });

    it('an infrastructure failure queues the job again and counts a delivery; its repeat is a duplicate', async () => {
      const { r, sub, job } = await b.held();
      const body = { leaseToken: job.leaseToken, infrastructureFailure: true, failureReason: 'the sandbox did not start' };
      const res = await r.report(job.jobId, body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ resultId: expect.any(String), state: 'failed', duplicate: false });
      expect(b.attempt(job.jobId)).toMatchObject({ state: 'queued', runnerId: null, deliveries: 1 });
      expect((await b.admin.call(ops.getSubmission, { params: { id: sub.id } })).state).toBe('queued');
      const again = await b.unchanged(() => r.report(job.jobId, body));
      expect(again.body).toEqual({ resultId: res.body.resultId, state: 'failed', duplicate: true });
      expect((await b.view(r)).completedJobs).toBe(0);
      const next = await r.job();
      expect({ jobId: next.jobId, attempt: next.attempt }).toEqual({ jobId: job.jobId, attempt: 1 });
      expect(b.attempt(job.jobId).deliveries).toBe(2);
    });

    it('after five deliveries ending in infrastructure failures the attempt fails with a reason', async () => {
      const { r, sub, job: first } = await b.held();
      let job = first;
      let last: Res | undefined;
      for (let delivery = 1; delivery <= 5; delivery++) {
        if (delivery > 1) job = await r.job();
        expect(job.jobId).toBe(first.jobId);
        last = await r.report(job.jobId, { leaseToken: job.leaseToken, infrastructureFailure: true, failureReason: `broken ${delivery}` });
        expect(last.body).toMatchObject({ state: 'failed', duplicate: false });
        expect(b.attempt(job.jobId).state).toBe(delivery < 5 ? 'queued' : 'failed');
      }
      expect(b.attempt(first.jobId)).toMatchObject({ state: 'failed', deliveries: 5, failureReason: expect.stringMatching(/5 deliveries.*broken 5/) });
      expect((await r.claim()).status).toBe(204);
      const detail = await b.admin.call(ops.getSubmission, { params: { id: sub.id } });
      expect(detail.state).toBe('failed');
      expect(detail.attemptList[0]).toMatchObject({ id: first.jobId, state: 'failed', failureReason: expect.stringContaining('5 deliveries') });
      const repeat = await b.unchanged(() => r.report(job.jobId, { leaseToken: job.leaseToken, infrastructureFailure: true, failureReason: 'broken 5' }));
      expect(repeat.body).toEqual({ resultId: last!.body.resultId, state: 'failed', duplicate: true });
    });

    it('after five deliveries whose leases lapsed the reaper fails the attempt', async () => {
      b.reapAll();
      const { r, sub, job: first } = await b.held({ leaseSeconds: 15 });
      let job = first;
      for (let delivery = 1; delivery <= 5; delivery++) {
        if (delivery > 1) job = await r.job({ leaseSeconds: 15 });
        expect(job.jobId).toBe(first.jobId);
        b.clock.advance(16);
        expect(b.j.app.reaper.tick(b.clock.now()).jobs).toBe(1);
        expect(b.attempt(first.jobId)).toMatchObject({ state: delivery < 5 ? 'queued' : 'failed', deliveries: delivery });
      }
      expect(b.attempt(first.jobId).failureReason).toMatch(/Given up after 5 deliveries/);
      expect((await b.admin.call(ops.getSubmission, { params: { id: sub.id } })).state).toBe('failed');
      expect((await r.claim()).status).toBe(204);
      await b.refused(() => r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC' }), 403, 'runner.lease.stale');
    });
  });

  describe('files of jobs', () => {
    it("a report attaches this runner's uploads under their names; others' files and repeated names are refused", async () => {
      const { s, r, sub, job } = await b.held();
      const log = await r.upload('compile.txt', 'g++ -O2 main.cpp\nok\n');
      const details = await r.upload('details.json', JSON.stringify([{ test: '1', verdict: 'AC', timeMs: 3 }]));
      const usersFile = await b.pupil.c.upload('mine.txt', 'a user upload');
      const other = await b.runner([s.type]);
      const othersFile = await other.upload('theirs.txt', 'another runner upload');
      const report = (files: { name: string; fileId: string }[]) => () => r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC', files });

      // the first file would attach; the second is not ours, so nothing is attached
      await b.refused(report([{ name: 'log', fileId: log.id }, { name: 'details', fileId: usersFile.id }]), 422, 'file.missing');
      await b.refused(report([{ name: 'log', fileId: othersFile.id }]), 422, 'file.missing');
      await b.refused(report([{ name: 'log', fileId: randomUUID() }]), 422, 'file.missing');
      await b.refused(report([{ name: 'log', fileId: log.id }, { name: 'log', fileId: details.id }]), 409, 'attempt.file.duplicate');

      const res = await report([{ name: 'log', fileId: log.id }, { name: 'details', fileId: details.id }])();
      expect(res.status).toBe(200);
      const detail = await b.admin.call(ops.getSubmission, { params: { id: sub.id } });
      const files = detail.attemptList[0]!.files.map((f) => ({ name: f.name, fileId: f.fileId, sha256: f.sha256, sizeBytes: f.sizeBytes }));
      expect(files).toEqual(
        expect.arrayContaining([
          { name: 'log', fileId: log.id, sha256: log.sha256, sizeBytes: log.sizeBytes },
          { name: 'details', fileId: details.id, sha256: details.sha256, sizeBytes: details.sizeBytes },
        ]),
      );
      expect(files).toHaveLength(2);
    });

    it('attaching a file to a held job: 204, then a taken name is 409 and an unknown file 422', async () => {
      const { r, sub, job } = await b.held();
      const attach = (fileId: string, name: string) => () => r.post(`/runner/jobs/${job.jobId}/files`, { leaseToken: job.leaseToken, fileId, name });
      const partial = await r.upload('partial.log', 'test 1 ok\n');
      const res = await attach(partial.id, 'log')();
      expect(res.status).toBe(204);
      const another = await r.upload('partial2.log', 'test 2 ok\n');
      await b.refused(attach(another.id, 'log'), 409, 'attempt.file.duplicate');
      await b.refused(attach(randomUUID(), 'other'), 422, 'file.missing');
      await b.refused(attach((await b.pupil.c.upload('u.txt', 'user bytes')).id, 'other'), 422, 'file.missing');
      await b.refused(attach(another.id, 'bad name'), 422, 'validation_failed');
      // the name is taken for the report too
      await b.refused(() => r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC', files: [{ name: 'log', fileId: another.id }] }), 409, 'attempt.file.duplicate');
      expect((await r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC', files: [{ name: 'details', fileId: another.id }] })).status).toBe(200);
      const detail = await b.admin.call(ops.getSubmission, { params: { id: sub.id } });
      expect(detail.attemptList[0]!.files.map((f) => [f.name, f.fileId]).sort()).toEqual([
        ['details', another.id],
        ['log', partial.id],
      ]);
    });

    it('the files of a delivery that gave no result do not block the names of the next delivery', async () => {
      const { s, r, sub, job } = await b.held();
      const filesOf = async () =>
        (await b.admin.call(ops.getSubmission, { params: { id: sub.id } })).attemptList[0]!.files.map((f) => [f.name, f.fileId]).sort();
      // an infrastructure failure with its log: kept while the job waits, so a manager can see why
      const failedLog = await r.upload('infra.log', 'the sandbox did not start\n');
      const failed = await r.report(job.jobId, { leaseToken: job.leaseToken, infrastructureFailure: true, files: [{ name: 'log', fileId: failedLog.id }] });
      expect(failed.body).toMatchObject({ state: 'failed', duplicate: false });
      expect(await filesOf()).toEqual([['log', failedLog.id]]);
      // a delivery that attached a log and was released
      const second = await r.job();
      const partial = await r.upload('partial.log', 'test 1 ok\n');
      expect((await r.post(`/runner/jobs/${second.jobId}/files`, { leaseToken: second.leaseToken, fileId: partial.id, name: 'log' })).status).toBe(204);
      expect((await r.post(`/runner/jobs/${second.jobId}/release`, { leaseToken: second.leaseToken })).status).toBe(204);
      // the delivery that gives the result attaches its own log and details
      const other = await b.runner([s.type]);
      const third = await other.job();
      const log = await other.upload('judge.log', 'all tests passed\n');
      const details = await other.upload('details.json', '[]');
      const done = await other.report(third.jobId, {
        leaseToken: third.leaseToken,
        verdict: 'AC',
        files: [
          { name: 'log', fileId: log.id },
          { name: 'details', fileId: details.id },
        ],
      });
      expect(done.status, done.text).toBe(200);
      expect(await filesOf()).toEqual([
        ['details', details.id],
        ['log', log.id],
      ]);
    });

    it('a runner downloads the package and sources of a job it holds, and nothing else', async () => {
      const { s, r, job } = await b.held();
      const pkg = await r.download(job.packageFileId);
      expect(pkg.status).toBe(200);
      expect(sha256(pkg.bytes)).toBe(job.packageSha256);
      expect(pkg.bytes.equals(b.zip)).toBe(true);
      expect(pkg.headers.get('etag')).toBe(`"${job.packageSha256}"`);
      const source = await r.download(job.files[0]!.fileId);
      expect(source.status).toBe(200);
      expect(sha256(source.bytes)).toBe(job.files[0]!.sha256);

      const other = await b.runner([s.type]);
      expect((await other.download(job.packageFileId)).status).toBe(404);
      expect((await other.download(job.files[0]!.fileId)).status).toBe(404);
      expect((await r.download(randomUUID())).status).toBe(404);
      expect((await r.download('not-a-uuid')).status).toBe(404);
      expect((await r.download((await b.pupil.c.upload('x.txt', 'a user file')).id)).status).toBe(404);
      const anonymous = await fetch(`${b.j.url}/api/v1/runner/files/${job.packageFileId}`);
      expect(anonymous.status).toBe(401);

      expect((await r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC' })).status).toBe(200);
      expect((await r.download(job.packageFileId)).status).toBe(404);
      expect((await r.download(job.files[0]!.fileId)).status).toBe(404);
    });

    it('uploads are checked: a checksum mismatch is 422 checksum_mismatch, a missing file part 422 file.required', async () => {
      const r = await b.runner([b.type()]);
      const mismatch = new FormData();
      mismatch.set('sha256', sha256('other bytes'));
      mismatch.set('file', new Blob(['these bytes']), 'a.txt');
      await b.refused(() => r.uploadRaw(mismatch), 422, 'checksum_mismatch');
      const noFile = new FormData();
      noFile.set('sha256', sha256('x'));
      await b.refused(() => r.uploadRaw(noFile), 422, 'file.required');
      const badSum = new FormData();
      badSum.set('sha256', 'abc');
      badSum.set('file', new Blob(['x']), 'a.txt');
      await b.refused(() => r.uploadRaw(badSum), 422, 'validation_failed');
      const ok = new FormData();
      ok.set('sha256', sha256('x'));
      ok.set('file', new Blob(['x']), 'a.txt');
      await b.refused(() => r.uploadRaw(ok, null), 401, 'unauthenticated');
    });

    it('a runner attaches a file to itself; the same name again replaces it', async () => {
      const r = await b.runner([b.type()]);
      const attach = (fileId: string, name: string) => () => r.post('/runner/files/attach', { fileId, name });
      const first = await r.upload('machine.txt', 'cores: 8\n');
      expect((await attach(first.id, 'machine')()).status).toBe(204);
      expect((await b.view(r)).files).toEqual([{ name: 'machine', fileId: first.id, sizeBytes: first.sizeBytes, sha256: first.sha256 }]);
      const second = await r.upload('machine.txt', 'cores: 16\n');
      expect((await attach(second.id, 'machine')()).status).toBe(204);
      const log = await r.upload('runner.log', 'started\n');
      expect((await attach(log.id, 'log')()).status).toBe(204);
      expect((await b.view(r)).files).toEqual([
        { name: 'log', fileId: log.id, sizeBytes: log.sizeBytes, sha256: log.sha256 },
        { name: 'machine', fileId: second.id, sizeBytes: second.sizeBytes, sha256: second.sha256 },
      ]);
      await b.refused(attach((await b.pupil.c.upload('u.txt', 'user bytes 2')).id, 'other'), 422, 'file.missing');
      await b.refused(attach(randomUUID(), 'other'), 422, 'file.missing');
      await b.refused(attach(first.id, '../etc'), 422, 'validation_failed');
    });
  });
});

// =====================================================================================================

describe('runners: management', () => {
  let b: Bench;
  let world: World;
  beforeAll(async () => {
    b = await Bench.start();
    world = await World.create(b.j, b.clock);
  });
  afterAll(() => b.stop());

  it('lists runners newest first, paged, filtered by state and by a search', async () => {
    const tag = b.uniq('zeta');
    const pending = await b.runner(['standard-io@1'], { approve: false, name: `${tag}-a` });
    b.clock.advance(1);
    const approved = await b.runner(['standard-io@1'], { name: `${tag}-b` });
    b.clock.advance(1);
    const revoked = await b.runner(['standard-io@1'], { name: `${tag}-c` });
    await b.admin.call(ops.revokeRunner, { params: { id: revoked.id }, body: {} });
    const list = (query: Record<string, unknown>) => b.admin.call(ops.listRunners, { query: query as never });
    const names = (p: { items: RunnerRecord[] }) => p.items.map((r) => r.name);

    const all = await list({ search: tag });
    expect(names(all)).toEqual([`${tag}-c`, `${tag}-b`, `${tag}-a`]);
    expect(all).toMatchObject({ total: 3, page: 1, pageSize: 20 });
    const second = await list({ search: tag, page: 2, pageSize: 2 });
    expect(second).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(names(second)).toEqual([`${tag}-a`]);
    expect(names(await list({ search: tag, state: 'pendingApproval' }))).toEqual([`${tag}-a`]);
    expect(names(await list({ search: tag, state: 'approved' }))).toEqual([`${tag}-b`]);
    expect(names(await list({ search: tag, state: 'revoked' }))).toEqual([`${tag}-c`]);
    expect(names(await list({ search: pending.fingerprint.slice(0, 20) }))).toEqual([`${tag}-a`]);
    expect(names(await list({ search: `${tag}-b` }))).toEqual([`${tag}-b`]);
    expect((await list({ search: 'no-such-runner-%' })).total).toBe(0);
    expect((await list({ pageSize: 500 })).pageSize).toBe(200);
    expect((await list({ pageSize: 0 })).pageSize).toBe(1);
    const everyone = await list({ pageSize: 200 });
    expect(everyone.total).toBe(b.j.count('runners'));
    expect(everyone.items.find((r) => r.id === approved.id)).toEqual(await b.view(approved));
    await b.refused(() => sendJson(b.j.url, 'GET', '/runners?state=sleeping', b.admin.accessToken), 422, 'validation_failed');
    await b.refused(() => sendJson(b.j.url, 'GET', '/runners?page=first', b.admin.accessToken), 422, 'validation_failed');
  });

  it('reads one runner; an unknown or malformed id is 404', async () => {
    const r = await b.runner(['standard-io@1'], { approve: false });
    expect(await b.view(r)).toMatchObject({ id: r.id, name: r.name, state: 'pendingApproval', fingerprint: r.fingerprint });
    await b.refusedCall(() => b.view(UNKNOWN_UUID), 404, 'not_found');
    await b.refused(() => sendJson(b.j.url, 'GET', '/runners/nope', b.admin.accessToken), 404, 'not_found');
  });

  it('approving is idempotent; a revoked runner cannot be approved (409 runner.revoked)', async () => {
    const r = await b.runner(['standard-io@1'], { approve: false });
    const approve = (id = r.id) => b.admin.call(ops.approveRunner, { params: { id } });
    const first = await approve();
    expect(first).toMatchObject({ id: r.id, state: 'approved', approvedAt: b.clock.now().toISOString() });
    b.clock.advance(5);
    const again = await b.unchanged(() => approve());
    expect(again).toMatchObject({ state: 'approved', approvedAt: first.approvedAt });
    await b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: {} });
    await b.refusedCall(() => approve(), 409, 'runner.revoked');
    await b.refusedCall(() => approve(UNKNOWN_UUID), 404, 'not_found');
  });

  it('revoking kills its tokens and puts its running job back in the queue', async () => {
    const s = await b.stage();
    const r = await b.runner([s.type]);
    const sub = await b.submit(s);
    const job = await r.job();
    const revoked = await b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: { reason: 'disk failing' } });
    expect(revoked).toMatchObject({ id: r.id, state: 'revoked', revokedAt: b.clock.now().toISOString(), revokedReason: 'disk failing' });
    expect(revoked.currentJobId).toBeUndefined();
    expect(b.attempt(job.jobId)).toMatchObject({ state: 'queued', runnerId: null, deliveries: 1 });
    expect((await b.admin.call(ops.getSubmission, { params: { id: sub.id } })).state).toBe('queued');
    // its token died with it; a new handshake is refused
    await b.refused(() => r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC' }), 401, 'unauthenticated');
    const { nonce } = await r.challenge();
    await b.refused(() => r.exchange(nonce, r.sign(nonce)), 403, 'runner.notApproved');
    // the job goes to another runner
    const other = await b.runner([s.type]);
    expect((await other.job()).jobId).toBe(job.jobId);
    // revoking again changes nothing; a reason is at most 500 characters
    const again = await b.unchanged(() => b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: { reason: 'again' } }));
    expect(again).toMatchObject({ state: 'revoked', revokedReason: 'disk failing' });
    await b.refusedCall(() => b.admin.call(ops.revokeRunner, { params: { id: other.id }, body: { reason: 'x'.repeat(501) } }), 422, 'validation_failed');
    await b.refusedCall(() => b.admin.call(ops.revokeRunner, { params: { id: UNKNOWN_UUID }, body: {} }), 404, 'not_found');
    expect((await b.view(other)).state).toBe('approved');
  });

  it('sets tags (deduplicated); malformed tags are 422', async () => {
    const r = await b.runner(['standard-io@1'], { approve: false, tags: ['old'] });
    const tags = (body: unknown, id = r.id) => b.admin.call(ops.setRunnerTags, { params: { id }, body: body as never });
    expect(await tags({ tags: ['gpu', 'x86_64', 'gpu', 'zone:a'] })).toMatchObject({ id: r.id, tags: ['gpu', 'x86_64', 'zone:a'] });
    for (const body of [{}, { tags: 'gpu' }, { tags: ['has space'] }, { tags: [''] }, { tags: ['x'.repeat(65)] }, { tags: Array.from({ length: 33 }, (_, i) => `t${i}`) }]) {
      await b.refusedCall(() => tags(body), 422, 'validation_failed');
    }
    await b.refusedCall(() => tags({ tags: ['gpu'] }, UNKNOWN_UUID), 404, 'not_found');
    expect(await tags({ tags: [] })).toMatchObject({ tags: [] });
  });

  it('deletes only revoked runners (409 runner.notRevoked), then it is gone and its key may register anew', async () => {
    const r = await b.runner(['standard-io@1']);
    const del = (id = r.id) => b.admin.call(ops.deleteRunner, { params: { id } });
    await b.refusedCall(() => del(), 409, 'runner.notRevoked');
    const pending = await b.runner(['standard-io@1'], { approve: false });
    await b.refusedCall(() => del(pending.id), 409, 'runner.notRevoked');
    await b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: {} });
    const res = await sendJson(b.j.url, 'DELETE', `/runners/${r.id}`, b.admin.accessToken);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    await b.refusedCall(() => b.view(r), 404, 'not_found');
    await b.refusedCall(() => del(), 404, 'not_found');
    const oldId = r.id;
    const again = await r.register();
    expect(again.body).toMatchObject({ state: 'pendingApproval', fingerprint: r.fingerprint });
    expect(again.body.runnerId).not.toBe(oldId);
  });

  it('only holders of the runner keys may manage runners: users and activity managers are 403, a reader may only read', async () => {
    const plain = await b.j.signIn(await b.j.user(b.uniq('plain')));
    const activity = await world.activity();
    const managerUser = await b.j.user(b.uniq('manager'));
    await b.j.grant(managerUser.id, 'manager', activity.id);
    const manager = await b.j.signIn(managerUser);
    await b.admin.call(ops.createRole, { body: { name: 'Runner reader', permissions: ['runner:read'] } });
    const readerUser = await b.j.user(b.uniq('reader'));
    await b.j.grant(readerUser.id, 'Runner reader');
    const reader = await b.j.signIn(readerUser);

    const target = await b.runner(['standard-io@1'], { approve: false });
    const gone = await b.runner(['standard-io@1'], { approve: false });
    await b.admin.call(ops.revokeRunner, { params: { id: gone.id }, body: {} });
    const calls = (c: JudgeClient): [string, string | null, () => Promise<unknown>][] => [
      ['list', 'runner:read', () => c.call(ops.listRunners, { query: {} })],
      ['get', 'runner:read', () => c.call(ops.getRunner, { params: { id: target.id } })],
      ['approve', 'runner:approve', () => c.call(ops.approveRunner, { params: { id: target.id } })],
      ['tags', 'runner:update', () => c.call(ops.setRunnerTags, { params: { id: target.id }, body: { tags: ['x'] } })],
      ['revoke', 'runner:revoke', () => c.call(ops.revokeRunner, { params: { id: target.id }, body: {} })],
      ['delete', 'runner:revoke', () => c.call(ops.deleteRunner, { params: { id: gone.id } })],
    ];
    for (const c of [plain, manager]) {
      for (const [what, key, call] of calls(c)) {
        const p = await b.refusedCall(call, 403, 'forbidden');
        expect(p.detail, what).toContain(key);
      }
    }
    for (const [what, key, call] of calls(reader)) {
      if (key === 'runner:read') expect(await call(), what).toBeTruthy();
      else await b.refusedCall(call, 403, 'forbidden');
    }
    await b.refusedCall(() => b.j.anonymous().call(ops.listRunners, { query: {} }), 401, 'unauthenticated');
    // an administrator may do all of it
    for (const [what, , call] of calls(b.admin)) expect(await call(), what).not.toBeInstanceOf(Error);
    expect((await b.view(target)).state).toBe('revoked');
    await b.refusedCall(() => b.view(gone), 404, 'not_found');
  });

  it('runnerChanged reaches holders of runner:read on register, approve, tags, revoke and delete, and nobody else', async () => {
    const adminStream = await listen(b.j, { username: 'admin', password: ADMIN_PASSWORD });
    const readerUser = await b.j.user(b.uniq('watcher'));
    await b.j.grant(readerUser.id, 'Runner reader');
    const readerStream = await listen(b.j, readerUser);
    const plainStream = await listen(b.j, await b.j.user(b.uniq('bystander')));
    try {
      await world.barrier([adminStream, readerStream, plainStream]);
      const r = new Runner(b.j.url, 'announced', ['standard-io@1']);
      await r.register();
      await b.admin.call(ops.approveRunner, { params: { id: r.id } });
      await b.admin.call(ops.setRunnerTags, { params: { id: r.id }, body: { tags: ['gpu'] } });
      await b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: {} });
      await b.admin.call(ops.deleteRunner, { params: { id: r.id } });
      const [forAdmin, forReader, forPlain] = await world.barrier([adminStream, readerStream, plainStream]);
      const expected = [
        { runner: expect.objectContaining({ id: r.id, name: 'announced', state: 'pendingApproval' }) },
        { runner: expect.objectContaining({ id: r.id, state: 'approved' }) },
        { runner: expect.objectContaining({ id: r.id, state: 'approved', tags: ['gpu'] }) },
        { runner: expect.objectContaining({ id: r.id, state: 'revoked' }) },
        { deletedId: r.id },
      ];
      expect(only(forAdmin!, 'runnerChanged')).toEqual(expected);
      expect(only(forReader!, 'runnerChanged')).toEqual(expected);
      expect(only(forPlain!, 'runnerChanged')).toEqual([]);
    } finally {
      for (const s of [adminStream, readerStream, plainStream]) s.close();
    }
  });
});

// =====================================================================================================

describe('runners: matchingRunners on activities and series', () => {
  let b: Bench;
  beforeAll(async () => {
    b = await Bench.start();
  });
  afterAll(() => b.stop());

  it("counts approved runners holding the tags a job requires: the series', else the activity's", async () => {
    const activity = (runnerTags?: string[]) =>
      b.admin.call(ops.createActivity, {
        body: { slug: b.uniq('act'), name: 'Contest', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', ...(runnerTags ? { runnerTags } : {}) },
      });
    const series = (a: Activity, runnerTags?: string[]) =>
      b.admin.call(ops.createSeries, { params: { idOrSlug: a.slug }, body: { slug: b.uniq('s'), name: 'Round', ...(runnerTags ? { runnerTags } : {}) } });
    const tagged = await activity(['gpu']);
    const open = await activity();
    const inherits = await series(tagged);
    const fast = await series(tagged, ['fast']);
    const both = await series(tagged, ['gpu', 'fast']);
    const openSeries = await series(open);

    const counts = async () => {
      const seriesOf = async (a: Activity) =>
        Object.fromEntries((await b.admin.call(ops.listManagedSeries, { params: { idOrSlug: a.slug } })).map((s) => [s.id, s.matchingRunners]));
      const taggedSeries = await seriesOf(tagged);
      const openList = await seriesOf(open);
      return {
        tagged: (await b.admin.call(ops.getManagedActivity, { params: { idOrSlug: tagged.slug } })).matchingRunners,
        inherits: taggedSeries[inherits.id],
        fast: taggedSeries[fast.id],
        both: taggedSeries[both.id],
        open: (await b.admin.call(ops.getManagedActivity, { params: { idOrSlug: open.slug } })).matchingRunners,
        openSeries: openList[openSeries.id],
      };
    };
    expect(await counts()).toEqual({ tagged: 0, inherits: 0, fast: 0, both: 0, open: 0, openSeries: 0 });
    // a runner waiting for approval does not count, whatever its tags
    await b.runner(['standard-io@1'], { approve: false, tags: ['gpu', 'fast'] });
    expect(await counts()).toEqual({ tagged: 0, inherits: 0, fast: 0, both: 0, open: 0, openSeries: 0 });
    const gpu = await b.runner(['standard-io@1'], { tags: ['gpu'] });
    expect(await counts()).toEqual({ tagged: 1, inherits: 1, fast: 0, both: 0, open: 1, openSeries: 1 });
    await b.runner(['standard-io@1'], { tags: ['gpu', 'fast', 'ssd'] });
    expect(await counts()).toEqual({ tagged: 2, inherits: 2, fast: 1, both: 1, open: 2, openSeries: 2 });
    const plain = await b.runner(['standard-io@1']);
    expect(await counts()).toEqual({ tagged: 2, inherits: 2, fast: 1, both: 1, open: 3, openSeries: 3 });
    await b.admin.call(ops.setRunnerTags, { params: { id: plain.id }, body: { tags: ['fast'] } });
    expect(await counts()).toEqual({ tagged: 2, inherits: 2, fast: 2, both: 1, open: 3, openSeries: 3 });
    await b.admin.call(ops.revokeRunner, { params: { id: gpu.id }, body: {} });
    expect(await counts()).toEqual({ tagged: 1, inherits: 1, fast: 2, both: 1, open: 2, openSeries: 2 });
  });
});

// =====================================================================================================

describe('runners: trials', () => {
  let b: Bench;
  let activity: Activity;
  let manager: JudgeClient;
  beforeAll(async () => {
    b = await Bench.start();
    activity = await b.admin.call(ops.createActivity, {
      body: { slug: 'trials', name: 'Trials', type: 'course@1', rankingType: 'points', timeZone: 'UTC', joinPolicy: 'open', unlisted: false },
    });
    const u = await b.j.user('trial-manager');
    await b.j.grant(u.id, 'manager', activity.id);
    manager = await b.j.signIn(u);
    await b.pupil.c.call(ops.enrol, { params: { idOrSlug: activity.slug }, body: {} });
    await b.admin.call(ops.createRole, { body: { name: 'Trial runner', permissions: ['trial:run'] } });
  });
  afterAll(() => b.stop());

  const upload = (c: JudgeClient) => c.upload('package.zip', b.zip, 'application/zip');
  const create = (c: JudgeClient, body: Record<string, unknown>) => c.call(ops.createTrial, { body: body as never });
  const claimTrial = (r: Runner, body: Record<string, unknown> = {}) => r.post('/runner/trials/claim', body);
  /** A trial of `type` by a fresh author holding trial:run system-wide (each user may have only 3 unfinished). */
  async function trialOf(type: string) {
    const u = await b.j.user(b.uniq('author'));
    await b.j.grant(u.id, 'Trial runner');
    const author = await b.j.signIn(u);
    const pkg = await upload(author);
    return { author, pkg, trial: await create(author, { problemType: type, packageFileId: pkg.id }) };
  }
  const trialRow = (id: string) =>
    b.j.app.deps.sqlite.prepare('SELECT state, runner_id AS runnerId, deliveries, lease_expires_at AS leaseExpiresAt FROM trials WHERE id = ?').get(id) as {
      state: string;
      runnerId: string | null;
      deliveries: number;
      leaseExpiresAt: string | null;
    };

  it('POST /trials queues a trial for holders of trial:run with a package they may read', async () => {
    const type = b.type();
    const pkg = await upload(b.admin);
    const res = await sendJson(b.j.url, 'POST', '/trials', b.admin.accessToken, { problemType: type, packageFileId: pkg.id });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/v1/trials/${res.body.id}`);
    expect(res.body).toEqual({ id: expect.any(String), state: 'queued', problemType: type, packageFileId: pkg.id, createdAt: b.clock.now().toISOString() });

    // a manager of the activity, there, with their own upload
    const own = await upload(manager);
    const inActivity = await create(manager, { problemType: type, packageFileId: own.id, activityIdOrSlug: activity.slug });
    expect(inActivity).toMatchObject({ state: 'queued', activityId: activity.id, packageFileId: own.id });
  });

  it('refuses callers without trial:run (403), packages they cannot read (404) and malformed requests (422)', async () => {
    const type = b.type();
    const pupilsFile = await upload(b.pupil.c);
    const own = await upload(manager);
    // a participant holds no trial:run, neither in the activity nor system-wide
    await b.refusedCall(() => create(b.pupil.c, { problemType: type, packageFileId: pupilsFile.id }), 403, 'forbidden');
    await b.refusedCall(() => create(b.pupil.c, { problemType: type, packageFileId: pupilsFile.id, activityIdOrSlug: activity.slug }), 403, 'forbidden');
    // a manager holds it in the activity only
    await b.refusedCall(() => create(manager, { problemType: type, packageFileId: own.id }), 403, 'forbidden');
    // another user's private upload, and a file that does not exist
    await b.refusedCall(() => create(manager, { problemType: type, packageFileId: pupilsFile.id, activityIdOrSlug: activity.slug }), 404, 'not_found');
    await b.refusedCall(() => create(manager, { problemType: type, packageFileId: UNKNOWN_UUID, activityIdOrSlug: activity.slug }), 404, 'not_found');
    await b.refusedCall(() => create(manager, { problemType: type, packageFileId: own.id, activityIdOrSlug: 'no-such-activity' }), 404, 'not_found');
    for (const body of [{ problemType: 'Standard IO', packageFileId: own.id }, { problemType: type, packageFileId: 'nope' }, { problemType: type }]) {
      await b.refusedCall(() => create(b.admin, body), 422, 'validation_failed');
    }
  });

  it('a user may have at most 3 unfinished trials (409 trial.tooMany); a finished one frees a place', async () => {
    const type = b.type();
    const u = await b.j.user(b.uniq('busy'));
    await b.j.grant(u.id, 'manager', activity.id);
    const busy = await b.j.signIn(u);
    const pkg = await upload(busy);
    const body = { problemType: type, packageFileId: pkg.id, activityIdOrSlug: activity.slug };
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await create(busy, body));
    await b.refusedCall(() => create(busy, body), 409, 'trial.tooMany');
    // others are not limited by it
    expect((await create(manager, { ...body, packageFileId: (await upload(manager)).id })).state).toBe('queued');
    const r = await b.runner([type]);
    const claimed = await claimTrial(r);
    expect(claimed.body.trialId).toBe(made[0]!.id);
    await b.refusedCall(() => create(busy, body), 409, 'trial.tooMany');
    expect((await r.post(`/runner/trials/${made[0]!.id}/report`, { leaseToken: claimed.body.leaseToken, measurement: '[]' })).status).toBe(200);
    expect((await create(busy, body)).state).toBe('queued');
  });

  it('GET /trials/{id}: its author and holders of trial:run where it ran; anyone else 404', async () => {
    const type = b.type();
    const trial = await create(manager, { problemType: type, packageFileId: (await upload(manager)).id, activityIdOrSlug: activity.slug });
    const system = await create(b.admin, { problemType: type, packageFileId: (await upload(b.admin)).id });
    const get = (c: JudgeClient, id: string) => c.call(ops.getTrial, { params: { trialId: id } });
    expect(await get(manager, trial.id)).toEqual(trial);
    expect(await get(b.admin, trial.id)).toEqual(trial);
    const coUser = await b.j.user(b.uniq('co-manager'));
    await b.j.grant(coUser.id, 'manager', activity.id);
    const coManager = await b.j.signIn(coUser);
    expect(await get(coManager, trial.id)).toEqual(trial);
    // a manager of the activity does not read a system-wide trial; participants and strangers read none
    await refusedWith(get(coManager, system.id), 404, 'not_found');
    await refusedWith(get(b.pupil.c, trial.id), 404, 'not_found');
    await refusedWith(get(await b.j.signIn(await b.j.user(b.uniq('stranger'))), trial.id), 404, 'not_found');
    await refusedWith(get(b.admin, UNKNOWN_UUID), 404, 'not_found');
    await refusedWith(b.admin.call(ops.getTrial, { params: { trialId: 'nope' } }), 404, 'not_found');
  });

  it('a runner claims trials of its problem types, renews, downloads the package and reports a measurement', async () => {
    const type = b.type();
    const { pkg, trial } = await trialOf(type);
    const wrong = await b.runner([b.type()]);
    expect((await claimTrial(wrong)).status).toBe(204);
    // the job queue is not the trial queue
    const r = await b.runner([type]);
    expect((await r.claim()).status).toBe(204);
    const res = await claimTrial(r, { leaseSeconds: 120 });
    expect(res.status).toBe(200);
    const t0 = b.clock.now();
    expect(res.body).toEqual({
      trialId: trial.id,
      leaseToken: expect.stringMatching(/^[A-Za-z0-9_-]{16,128}$/),
      leaseExpiresAt: plus(t0, 120),
      problemType: type,
      packageFileId: pkg.id,
      packageSha256: sha256(b.zip),
    });
    const { leaseToken } = res.body;
    expect(await b.admin.call(ops.getTrial, { params: { trialId: trial.id } })).toMatchObject({ state: 'running', runnerName: r.name, startedAt: t0.toISOString() });
    expect((await claimTrial(r)).status).toBe(204);

    const pkgBytes = await r.download(pkg.id);
    expect(pkgBytes.status).toBe(200);
    expect(pkgBytes.bytes.equals(b.zip)).toBe(true);

    const renew = (body: Record<string, unknown>, by = r) => by.post(`/runner/trials/${trial.id}/lease`, body);
    let renewed = await renew({ leaseToken, leaseSeconds: 15 });
    expect(renewed.body).toEqual({ trialId: trial.id, leaseToken, leaseExpiresAt: plus(t0, 120) });
    b.clock.advance(100);
    renewed = await renew({ leaseToken, leaseSeconds: 300 });
    expect(renewed.body.leaseExpiresAt).toBe(plus(b.clock.now(), 300));

    const intruder = await b.runner([type]);
    await b.refused(() => renew({ leaseToken }, intruder), 403, 'runner.lease.foreign');
    await b.refused(() => intruder.post(`/runner/trials/${trial.id}/report`, { leaseToken, measurement: '{}' }), 403, 'runner.lease.foreign');
    await b.refused(() => renew({ leaseToken: 'not-the-lease-token' }), 403, 'runner.lease.stale');
    await b.refused(() => r.post(`/runner/trials/${trial.id}/report`, { leaseToken: 'not-the-lease-token', measurement: '{}' }), 403, 'runner.lease.stale');
    await b.refused(() => r.post(`/runner/trials/${UNKNOWN_UUID}/lease`, { leaseToken }), 404, 'not_found');
    await b.refused(() => r.post('/runner/trials/nope/report', { leaseToken }), 404, 'not_found');
    await b.refused(() => r.post(`/runner/trials/${trial.id}/report`, { leaseToken, measurement: 7 }), 422, 'validation_failed');

    const measurement = JSON.stringify([{ submission: 'accepted/hello.py', expected: 'AC', actual: 'AC', slowestMs: 31 }]);
    const report = await r.post(`/runner/trials/${trial.id}/report`, { leaseToken, measurement });
    expect(report.status).toBe(200);
    expect(report.body).toEqual({ trialId: trial.id, state: 'completed', duplicate: false });
    expect(await b.admin.call(ops.getTrial, { params: { trialId: trial.id } })).toMatchObject({
      state: 'completed',
      measurement,
      runnerName: r.name,
      finishedAt: b.clock.now().toISOString(),
    });
    const repeat = await b.unchanged(() => r.post(`/runner/trials/${trial.id}/report`, { leaseToken, measurement: 'other' }));
    expect(repeat.body).toEqual({ trialId: trial.id, state: 'completed', duplicate: true });
    await b.refused(() => renew({ leaseToken }), 409, 'trial.state');
    expect((await r.download(pkg.id)).status).toBe(404);
  });

  it('a failureReason fails the trial; its repeat is a duplicate', async () => {
    const type = b.type();
    const { trial } = await trialOf(type);
    const r = await b.runner([type]);
    const { leaseToken } = (await claimTrial(r)).body;
    const body = { leaseToken, failureReason: 'the package has no accepted submission' };
    const res = await r.post(`/runner/trials/${trial.id}/report`, body);
    expect(res.body).toEqual({ trialId: trial.id, state: 'failed', duplicate: false });
    const view = await b.admin.call(ops.getTrial, { params: { trialId: trial.id } });
    expect(view).toMatchObject({ state: 'failed', failureReason: 'the package has no accepted submission' });
    expect(view.measurement).toBeUndefined();
    const repeat = await b.unchanged(() => r.post(`/runner/trials/${trial.id}/report`, body));
    expect(repeat.body).toEqual({ trialId: trial.id, state: 'failed', duplicate: true });
  });

  it('the reaper puts a trial whose lease lapsed back in the queue; the old lease is stale', async () => {
    const type = b.type();
    const { trial } = await trialOf(type);
    const r = await b.runner([type]);
    const first = (await claimTrial(r, { leaseSeconds: 15 })).body;
    b.clock.advance(15);
    expect(b.j.app.reaper.tick(b.clock.now())).toEqual({ jobs: 0, trials: 1 });
    expect(trialRow(trial.id)).toMatchObject({ state: 'queued', runnerId: null, leaseExpiresAt: null, deliveries: 1 });
    expect((await b.admin.call(ops.getTrial, { params: { trialId: trial.id } })).state).toBe('queued');
    await b.refused(() => r.post(`/runner/trials/${trial.id}/report`, { leaseToken: first.leaseToken, measurement: '[]' }), 403, 'runner.lease.stale');
    const other = await b.runner([type]);
    const again = await claimTrial(other);
    expect(again.body.trialId).toBe(trial.id);
    expect(trialRow(trial.id)).toMatchObject({ state: 'running', runnerId: other.id, deliveries: 2 });
    await b.refused(() => r.post(`/runner/trials/${trial.id}/lease`, { leaseToken: first.leaseToken }), 403, 'runner.lease.stale');
  });

  it('revoking a runner puts its trial back in the queue', async () => {
    const type = b.type();
    const { trial } = await trialOf(type);
    const r = await b.runner([type]);
    expect((await claimTrial(r)).body.trialId).toBe(trial.id);
    await b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: {} });
    expect(trialRow(trial.id)).toMatchObject({ state: 'queued', runnerId: null });
    const other = await b.runner([type]);
    expect((await claimTrial(other)).body.trialId).toBe(trial.id);
  });
});
