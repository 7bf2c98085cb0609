import { mkdtempSync, rmSync, statSync, chmodSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity, type ClaimedJob, type SubmissionSummary } from '@judge/contract';
import {
  ApiProblem,
  ChecksumMismatch,
  RunnerClient,
  fingerprintOf,
  generateRunnerKey,
  loadOrCreateRunnerKey,
  type EventStream,
  type JudgeClient,
} from '@judge/sdk';
import { refusedWith } from '../packages/server/test/expect.js';
import { ManualClock, TestJudge, type TestUser } from '../packages/server/test/harness.js';
import { fileForm, sha256 } from '../packages/server/test/support/forms.js';
import { packagedProblem } from '../packages/server/test/support/packaged-problem.js';
import { until } from '../packages/server/test/support/wait.js';
import { legacyPackage, zipOf } from '../packages/server/test/zips.js';

/**
 * The judging loop end to end, without a sandbox yet: a real server over real HTTP and SQLite,
 * driven by the SDK's RunnerClient as judge-runner will drive it. Submit → long-poll claim →
 * package and source downloads → report with files → the verdict over REST, on the event socket
 * and in the ranking; then concurrency, a runner dying mid-job, duplicate and stale reports, and
 * the client re-authenticating by itself.
 */

const TYPE = 'standard-io@1';
const SOURCE = 'print(sum(map(int, input().split())))\n';

/** An activity open to joining, with one series and one problem whose version has a package. */
interface Contest {
  activity: Activity;
  seriesId: string;
  assignmentId: string;
  problemSlug: string;
  packageBytes: Buffer;
}

async function contest(admin: JudgeClient, slug: string, body: Record<string, unknown> = {}): Promise<Contest> {
  const activity = await admin.call(ops.createActivity, {
    body: { slug, name: `Contest ${slug}`, type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', ...body },
  });
  const series = await admin.call(ops.createSeries, { params: { idOrSlug: slug }, body: { slug: 'round-1', name: 'Round 1' } });
  const packageBytes = await zipOf(legacyPackage('Sum of two'));
  const { problem } = await packagedProblem(admin, { slug: `${slug}-sum`, name: 'Sum of two', type: TYPE }, packageBytes);
  const after = await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: 'sum' } });
  return { activity, seriesId: series.id, assignmentId: after.problems.find((p) => p.slug === 'sum')!.id, problemSlug: 'sum', packageBytes };
}

/** A participant enrolled in the contest, signed in with a cookie (so they may open the event socket). */
async function participant(j: TestJudge, c: Contest, username: string): Promise<{ u: TestUser; c: JudgeClient }> {
  const u = await j.user(username);
  const client = await j.signIn(u, 'cookie');
  await client.call(ops.enrol, { params: { idOrSlug: c.activity.slug }, body: {} });
  return { u, c: client };
}

function submit(client: JudgeClient, c: Contest, code = SOURCE, fileName = 'sum.py'): Promise<SubmissionSummary> {
  // a file part: its bytes arrive as they are (a `code` text part has its line breaks turned into CRLF by multipart encoding)
  const form = fileForm(code, fileName, { props: JSON.stringify({ language: 'python3' }) }, 'text/plain');
  return client.call(ops.submit, { params: { idOrSlug: c.activity.slug, problemSlug: c.problemSlug }, form });
}

/** A registered runner, approved by the administrator, not yet authenticated. */
async function approvedRunner(j: TestJudge, admin: JudgeClient, name: string, tags: string[] = []): Promise<RunnerClient> {
  const r = new RunnerClient({ baseUrl: j.url, key: generateRunnerKey(), userAgent: 'judging-loop-test' });
  const reg = await r.register({ name, problemTypes: [TYPE], version: 'test', tags });
  expect(reg).toEqual({ runnerId: expect.any(String), fingerprint: r.fingerprint, state: 'pendingApproval' });
  await admin.call(ops.approveRunner, { params: { id: reg.runnerId } });
  return r;
}

/** The rows a report may touch, to prove a refused or repeated one changed nothing. */
async function snapshot(j: TestJudge): Promise<string> {
  const tables = await Promise.all(['attempts', 'submissions', 'attempt_files'].map((t) => j.rows(t)));
  // a runner's every call refreshes its lastSeenAt, refused or not; what a report changes is its count
  const runners = await j.query('SELECT id, state, completed_jobs FROM runners ORDER BY id');
  return JSON.stringify([...tables, runners]);
}

const attemptRow = async (j: TestJudge, jobId: string) =>
  (
    await j.query<{ state: string; runnerId: string | null; deliveries: number; attempt: number; submissionId: string }>(
      'SELECT state, runner_id AS "runnerId", deliveries, attempt, submission_id AS "submissionId" FROM attempts WHERE id = ?',
      jobId,
    )
  )[0]!;

describe('the judging loop', () => {
  let j: TestJudge;
  let admin: JudgeClient;

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
  });
  afterAll(async () => {
    await j?.stop();
  });

  it('(a) submit → long poll → download → report → verdict over REST, socket and ranking', async () => {
    const c = await contest(admin, 'loop', { attachmentVisibility: [{ name: 'details', visibility: 'participant' }] });
    const ann = await participant(j, c, 'ann');
    const socket: EventStream = ann.c.events();
    await socket.opened;

    const runner = await approvedRunner(j, admin, 'runner-a');
    await runner.authenticate();

    // the long poll is waiting on the server before the participant submits
    const polled = runner.claim({ waitSeconds: 10 }).then((job) => ({ job, at: performance.now() }));
    polled.catch(() => undefined); // awaited below; a failure before that must not go unhandled
    await until('the long poll to wait', () => j.app.services.jobs.signal.waiting === 1);

    const submitted = await submit(ann.c, c);
    const answeredAt = performance.now();
    expect(submitted).toMatchObject({ state: 'queued', problemSlug: 'sum', userId: ann.u.id, attempts: 1 });
    const { job, at } = await polled;
    if (process.env.JUDGE_TEST_VERBOSE) console.log(`claim answered ${(at - answeredAt).toFixed(2)} ms after the submit response`);
    expect(at - answeredAt, 'the claim returns within 100 ms of the submit response').toBeLessThan(100);
    expect(job).not.toBeNull();
    const held = job as ClaimedJob;
    expect(held).toMatchObject({ submissionId: submitted.id, attempt: 1, problemType: TYPE, packageSha256: sha256(c.packageBytes), props: { language: 'python3' } });
    expect(held.files).toEqual([expect.objectContaining({ name: 'source', fileName: 'sum.py', language: 'python3', sha256: sha256(SOURCE) })]);

    // the participant hears of the queueing and of the claim
    expect((await socket.next('submissionStateChanged')).data).toMatchObject({ activityId: c.activity.id, submission: { id: submitted.id, state: 'queued' } });
    expect((await socket.next('submissionStateChanged')).data).toMatchObject({ submission: { id: submitted.id, state: 'running' } });
    // (the submission itself already moved the problem off untouched; it is not solved before the verdict)
    expect((await socket.next('problemStatusChanged')).data).toMatchObject({ problem: { id: c.assignmentId, status: 'attempted' } });

    // the runner fetches what it judges, checked against the SHA-256 the job names
    const pkg = await runner.download(held.packageFileId, held.packageSha256);
    expect(Buffer.from(pkg).equals(c.packageBytes)).toBe(true);
    const src = await runner.download(held.files[0]!.fileId, held.files[0]!.sha256);
    expect(new TextDecoder().decode(src)).toBe(SOURCE);
    await expect(runner.download(held.packageFileId, '0'.repeat(64))).rejects.toBeInstanceOf(ChecksumMismatch);

    await runner.progress(held, 1, 3);
    // ...and of the progress, as the test being run
    expect((await socket.next('submissionStateChanged')).data).toMatchObject({ submission: { id: submitted.id, state: 'running', progress: { done: 1, total: 3 } } });
    const renewed = await runner.renew(held, 120);
    expect(Date.parse(renewed.leaseExpiresAt)).toBeGreaterThan(Date.parse(held.leaseExpiresAt));

    const details = await runner.upload('details.json', JSON.stringify({ tests: [{ name: 'secret/1', verdict: 'AC', timeMs: 12 }] }), 'application/json');
    const log = await runner.upload('log.txt', 'compiled fine\nall tests passed\n', 'text/plain');
    const result = await runner.report(held, {
      verdict: 'AC',
      score: 1,
      maxScore: 1,
      runnerVersion: 'test',
      files: [
        { name: 'details', fileId: details.id },
        { name: 'log', fileId: log.id },
      ],
    });
    expect(result).toEqual({ resultId: expect.any(String), state: 'completed', duplicate: false });

    // the verdict on the socket...
    expect((await socket.next('submissionStateChanged')).data).toMatchObject({ submission: { id: submitted.id, state: 'completed', verdict: 'AC', score: 1, maxScore: 1 } });
    expect((await socket.next('problemStatusChanged')).data).toMatchObject({
      activityId: c.activity.id,
      seriesId: c.seriesId,
      problem: { id: c.assignmentId, slug: 'sum', name: expect.any(String), order: expect.any(Number), status: 'solved', attempts: 1 },
    });

    // ...over REST: the list, and the detail with the attachment the activity shows participants
    const own = await ann.c.call(ops.listOwnSubmissions, { params: { idOrSlug: c.activity.slug } });
    expect(own.items).toEqual([expect.objectContaining({ id: submitted.id, state: 'completed', verdict: 'AC', score: 1, maxScore: 1 })]);
    const detail = await ann.c.call(ops.getOwnSubmission, { params: { idOrSlug: c.activity.slug, id: submitted.id } });
    expect(detail.attemptList).toHaveLength(1);
    expect(detail.attemptList[0]).toMatchObject({ attempt: 1, state: 'completed', verdict: 'AC', score: 1, maxScore: 1 });
    expect(detail.attemptList[0]!.files.map((f) => f.name)).toEqual(['details']);
    // managers see the runner and every attachment
    const managed = await admin.call(ops.getSubmission, { params: { id: submitted.id } });
    expect(managed.attemptList[0]).toMatchObject({ runnerName: 'runner-a', state: 'completed' });
    expect(managed.attemptList[0]!.files.map((f) => [f.name, f.fileId]).sort()).toEqual([
      ['details', details.id],
      ['log', log.id],
    ]);

    // ...and in the ranking
    const ranking = await ann.c.call(ops.getRanking, { params: { idOrSlug: c.activity.slug } });
    expect(ranking.rows).toEqual([
      expect.objectContaining({ rank: 1, userId: ann.u.id, solved: 1, cells: [expect.objectContaining({ problemId: c.assignmentId, solved: true, attempts: 1, pending: 0 })] }),
    ]);

    // the runner record counts the job; nothing is left running
    const record = await admin.call(ops.getRunner, { params: { id: runner.runnerId! } });
    expect(record).toMatchObject({ completedJobs: 1, isConnected: true, state: 'approved' });
    expect(record.currentJobId).toBeUndefined();
    socket.close();
  });

  // a deadline, not a measure: on PostgreSQL a claim → report costs several times SQLite's (bench/README.md, engines.mjs)
  it('(b) 8 runners claiming in parallel never share one of 500 jobs and leave none behind', { timeout: 300_000 }, async () => {
    const c = await contest(admin, 'bulk');
    const people = await Promise.all(['p1', 'p2', 'p3', 'p4', 'p5'].map((n) => participant(j, c, `bulk-${n}`)));
    const per = 100;
    let next = 0;
    const made = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const ids: string[] = [];
        for (let i = next++; i < people.length * per; i = next++) ids.push((await submit(people[i % people.length]!.c, c, `${SOURCE}# ${i}\n`)).id);
        return ids;
      }),
    );
    const submitted = new Set(made.flat());
    expect(submitted.size).toBe(500);
    const queued = async () => (await j.query<{ n: number }>("SELECT count(*) AS n FROM attempts WHERE state IN ('queued', 'running')"))[0]!.n;
    expect(await queued()).toBe(500);

    const runners = await Promise.all(Array.from({ length: 8 }, (_, i) => approvedRunner(j, admin, `bulk-runner-${i}`)));
    const perRunner = await Promise.all(
      runners.map(async (r) => {
        const got: ClaimedJob[] = [];
        for (;;) {
          const job = await r.claim({ leaseSeconds: 300 });
          if (!job) return got;
          got.push(job);
          const res = await r.report(job, { verdict: 'AC', score: 1, maxScore: 1 });
          expect(res.duplicate).toBe(false);
        }
      }),
    );
    const all = perRunner.flat();
    const jobIds = all.map((x) => x.jobId);
    expect(jobIds).toHaveLength(500);
    expect(new Set(jobIds).size).toBe(500);
    expect(new Set(all.map((x) => x.submissionId))).toEqual(submitted);
    // the work was shared, not taken by one runner
    expect(perRunner.filter((g) => g.length > 0).length).toBeGreaterThan(1);

    expect(await queued()).toBe(0);
    const states = await j.query('SELECT state, count(*) AS n FROM submissions WHERE activity_id = ? GROUP BY state', c.activity.id);
    expect(states).toEqual([{ state: 'completed', n: 500 }]);
    const deliveries = await j.query('SELECT max(deliveries) AS most FROM attempts a JOIN submissions s ON s.id = a.submission_id WHERE s.activity_id = ?', c.activity.id);
    expect(deliveries).toEqual([{ most: 1 }]);
  });

  it('(d) a repeated report is a duplicate that changes nothing; a stale lease token is 403', async () => {
    const c = await contest(admin, 'dupes');
    const bob = await participant(j, c, 'bob');
    const runner = await approvedRunner(j, admin, 'runner-d');
    const first = await submit(bob.c, c);
    const second = await submit(bob.c, c);

    const job = (await runner.claim())!;
    expect(job.submissionId).toBe(first.id);
    const log = await runner.upload('log.txt', 'wrong answer on test 2\n');
    const body = { verdict: 'WA', score: 0, maxScore: 1, files: [{ name: 'log', fileId: log.id }] };
    const reported = await runner.report(job, body);
    expect(reported).toMatchObject({ state: 'completed', duplicate: false });

    const before = await snapshot(j);
    const again = await runner.report(job, body);
    expect(again).toEqual({ resultId: reported.resultId, state: 'completed', duplicate: true });
    // a repeat that says something else is still the same job's one result
    expect(await runner.report(job, { verdict: 'AC', score: 1, maxScore: 1 })).toEqual({ resultId: reported.resultId, state: 'completed', duplicate: true });
    expect(await snapshot(j)).toBe(before);

    // a lease that was released is stale, and so is a made-up one
    const other = (await runner.claim())!;
    expect(other.submissionId).toBe(second.id);
    await runner.release(other);
    const released = await snapshot(j);
    await refusedWith(runner.report(other, { verdict: 'AC', score: 1, maxScore: 1 }), 403, 'runner.lease.stale');
    expect(await snapshot(j)).toBe(released);
    const retaken = (await runner.claim())!;
    expect(retaken.jobId).toBe(other.jobId);
    expect(retaken.leaseToken).not.toBe(other.leaseToken);
    const held = await snapshot(j);
    await refusedWith(runner.report({ jobId: retaken.jobId, leaseToken: 'x'.repeat(43) }, { verdict: 'AC' }), 403, 'runner.lease.stale');
    await refusedWith(runner.report(other, { verdict: 'AC' }), 403, 'runner.lease.stale');
    await refusedWith(runner.renew(other), 403, 'runner.lease.stale');
    expect(await snapshot(j)).toBe(held);
    expect(await runner.report(retaken, { verdict: 'AC', score: 1, maxScore: 1 })).toMatchObject({ state: 'completed', duplicate: false });
  });

  it('(e) re-authenticates by itself when the server forgot its token, and stops when not approved', async () => {
    const c = await contest(admin, 'reauth');
    const cid = await participant(j, c, 'cid');
    const runner = await approvedRunner(j, admin, 'runner-e');

    // no token yet: the first call authenticates
    expect(runner.token).toBeUndefined();
    await runner.heartbeat();
    const firstToken = runner.token;
    expect(firstToken).toEqual(expect.any(String));

    // the server loses every runner token (as after 12 hours): the next call re-authenticates and succeeds
    await j.query('DELETE FROM runner_tokens');
    const s = await submit(cid.c, c);
    const job = (await runner.claim())!;
    expect(job.submissionId).toBe(s.id);
    expect(runner.token).not.toBe(firstToken);
    expect((await j.count('runner_tokens'))).toBe(1);

    // concurrent calls that all meet the 401 share one handshake
    await j.query('DELETE FROM runner_tokens');
    await Promise.all([runner.heartbeat(), runner.renew(job), runner.progress(job, 1, 2), runner.heartbeat()]);
    expect((await j.count('runner_tokens'))).toBe(1);
    expect(await runner.report(job, { verdict: 'AC', score: 1, maxScore: 1 })).toMatchObject({ duplicate: false });

    // an unapproved runner is told so (403), and the client does not retry that
    const pending = new RunnerClient({ baseUrl: j.url, key: generateRunnerKey() });
    await pending.register({ name: 'pending', problemTypes: [TYPE] });
    await refusedWith(pending.authenticate(), 403, 'runner.notApproved');
    await refusedWith(pending.claim(), 403, 'runner.notApproved');

    // revoking bites at once: the token the runner holds is dead and authenticating again is refused
    await admin.call(ops.revokeRunner, { params: { id: runner.runnerId! }, body: { reason: 'test' } });
    const e = await refusedWith(runner.heartbeat(), 403, 'runner.notApproved');
    expect(e).toBeInstanceOf(ApiProblem);
  });
});

describe('a runner that dies mid-job', () => {
  const clock = new ManualClock();
  let j: TestJudge;
  let admin: JudgeClient;

  beforeAll(async () => {
    j = await TestJudge.start({ clock });
    // the test moves time and ticks the reaper itself
    j.app.reaper.stop();
    admin = await j.admin();
  });
  afterAll(async () => {
    await j?.stop();
  });

  it('(c) loses the job to another runner once its lease lapses; its late report is stale and changes nothing', async () => {
    const c = await contest(admin, 'dies');
    const dee = await participant(j, c, 'dee');
    const dying = await approvedRunner(j, admin, 'dying');
    const healthy = await approvedRunner(j, admin, 'healthy');
    const s = await submit(dee.c, c);

    const lost = (await dying.claim({ leaseSeconds: 15 }))!;
    expect(lost.submissionId).toBe(s.id);
    expect(await attemptRow(j, lost.jobId)).toMatchObject({ state: 'running', deliveries: 1 });
    expect(await healthy.claim()).toBeNull();

    // not yet: the lease still runs
    clock.advance(10);
    expect((await j.app.reaper.tick(clock.now())).jobs).toBe(0);
    expect(await healthy.claim()).toBeNull();

    clock.advance(6);
    expect((await j.app.reaper.tick(clock.now())).jobs).toBe(1);
    expect(await attemptRow(j, lost.jobId)).toMatchObject({ state: 'queued', runnerId: null, deliveries: 1 });

    const taken = (await healthy.claim())!;
    expect(taken).toMatchObject({ jobId: lost.jobId, submissionId: s.id, attempt: lost.attempt });
    expect(taken.leaseToken).not.toBe(lost.leaseToken);
    expect(await attemptRow(j, lost.jobId)).toMatchObject({ state: 'running', deliveries: 2, attempt: 1 });

    const done = await healthy.report(taken, { verdict: 'AC', score: 1, maxScore: 1 });
    expect(done).toMatchObject({ state: 'completed', duplicate: false });

    const before = await snapshot(j);
    await refusedWith(dying.report(lost, { verdict: 'WA', score: 0, maxScore: 1 }), 403, 'runner.lease.stale');
    await refusedWith(dying.renew(lost), 403, 'runner.lease.stale');
    expect(await snapshot(j)).toBe(before);

    const detail = await dee.c.call(ops.getOwnSubmission, { params: { idOrSlug: c.activity.slug, id: s.id } });
    expect(detail).toMatchObject({ state: 'completed', verdict: 'AC', attempts: 1 });
    expect(detail.attemptList).toEqual([expect.objectContaining({ attempt: 1, state: 'completed', verdict: 'AC' })]);
    expect((await admin.call(ops.getSubmission, { params: { id: s.id } })).attemptList[0]).toMatchObject({ runnerName: 'healthy' });
  });
});

describe('runner keys on disk', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'runner-key-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates the key 0600 in a 0700 directory, loads the same key again, and refuses one others may read', () => {
    const file = join(dir, 'conf', 'runner-key.json');
    const made = loadOrCreateRunnerKey(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'conf')).mode & 0o777).toBe(0o700);
    expect(Buffer.from(made.publicKey, 'base64')).toHaveLength(32);
    expect(JSON.parse(readFileSync(file, 'utf8')).fingerprint).toBe(fingerprintOf(made.publicKey));
    expect(fingerprintOf(made.publicKey)).toMatch(/^[0-9a-f]{64}$/);
    expect(loadOrCreateRunnerKey(file)).toEqual(made);

    chmodSync(file, 0o644);
    expect(() => loadOrCreateRunnerKey(file)).toThrow(/mode is 0644, so the group or others may read it.*chmod 600/);
    chmodSync(file, 0o600);
    expect(loadOrCreateRunnerKey(file)).toEqual(made);
  });
});
