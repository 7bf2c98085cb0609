import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity } from '@judge/contract';
import { JudgeClient, type EventStream, type Frame } from '@judge/sdk';
import { freshDatabase, type TestDatabase } from '../packages/server/test/pg-cluster.js';
import { codeForm } from '../packages/server/test/support/forms.js';
import { pgRows } from '../packages/server/test/support/pg-rows.js';
import { packagedProblem } from '../packages/server/test/support/packaged-problem.js';
import { barrier } from '../packages/server/test/support/socket.js';
import { until } from '../packages/server/test/support/wait.js';
import { zipOf } from '../packages/server/test/zips.js';
import { ADMIN_PASSWORD, clusterEnv, initCluster, InstantRunner, keepLogs, linkedDataDir, postgresAvailable, serve, type ClusterServer } from './cluster-servers.js';
import { settled, SUM_PACKAGE } from './one-problem-contest.js';
import { runnerDir, startRunnerProcess, type RunnerProcess } from './runner-process.js';

/**
 * Three real `judge serve` processes on one PostgreSQL database (docs/storage.md, "Several
 * servers"), a real `judge-runner` on the first, participants and staff on the others. The parts
 * run in order, each on what the one before left: events reach every allowed socket on every
 * server once; failed sign-ins spread over the servers lock an account at the configured count;
 * two runners on two servers never get one job twice over 1,000 submissions; `kill -9` of a
 * server mid-burst loses no acknowledged submission and no job; and when the leader is killed
 * another server leads within 10 s and its lease reaper requeues a claim abandoned before.
 * Skipped without PostgreSQL (Debian's `postgresql`; CI has it).
 */

// judge-runner takes a base up to 65000: 64400 is this file's own, apart from the other end-to-end files
const UID_BASE = 64400;
const LOCKOUT = 5;
const SUBMISSIONS = 1000;
const SOLUTION = 'a, b = map(int, input().split())\nprint(a + b)\n';

const state = (f: Frame) => (f.data as { submission: { id: string; state: string } }).submission;

describe.skipIf(!postgresAvailable())('three judge servers on one PostgreSQL', () => {
  const work = mkdtempSync(join(tmpdir(), 'judge-cluster-e2e-'));
  let db: TestDatabase;
  let s1: ClusterServer, s2: ClusterServer, s3: ClusterServer;
  let runner: RunnerProcess | undefined;
  const instant: InstantRunner[] = [];
  const streams: EventStream[] = [];
  let act: Activity;
  /** The admin, signed in with a cookie on each server (its sockets), by server name. */
  const admin: Record<string, JudgeClient> = {};
  const sql = <R extends Record<string, unknown>>(text: string, values: unknown[] = []) => pgRows<R>(db.url, text, values);
  const user = async (username: string) => admin.s1!.call(ops.createUser, { body: { username } });
  /** Signs `u` in on server `s` with a cookie (so it may open a socket there). */
  const on = async (s: ClusterServer, u: { username: string; password: string }) => {
    const c = new JudgeClient({ baseUrl: s.url });
    await c.loginWithCookie(u.username, u.password);
    return c;
  };
  const submit = (c: JudgeClient) => c.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: 'sum' }, form: codeForm(SOLUTION, 'sum.py') });
  const completed = async (ids: string[]) => Number((await sql<{ n: string }>("select count(*) as n from submissions where id = any($1) and state = 'completed'", [ids]))[0]!.n);

  beforeAll(async () => {
    db = await freshDatabase({ migrated: false });
    const env = clusterEnv(db.url, { JUDGE_AUTH_LOCKOUT_FAILURES: String(LOCKOUT) });
    const shared = join(work, 'shared-files');
    const dirs = ['s1', 's2', 's3'].map((n) => linkedDataDir(work, n, shared));
    initCluster(dirs[0]!, env);
    // one after the other: the first to start leads, and the test kills it last
    s1 = await serve('s1', dirs[0]!, env);
    s2 = await serve('s2', dirs[1]!, env);
    s3 = await serve('s3', dirs[2]!, env);
    for (const s of [s1, s2, s3]) admin[s.name] = await on(s, { username: 'admin', password: ADMIN_PASSWORD });
    act = await admin.s2!.call(ops.createActivity, { body: { slug: 'cluster', name: 'Cluster', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false } });
    const series = await admin.s2!.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'main', name: 'Main' } });
    // the package is uploaded to the third server and judged by a runner on the first: one file store
    const { problem } = await packagedProblem(admin.s3!, { slug: 'sum', name: 'Sum', type: 'standard-io@1' }, await zipOf(SUM_PACKAGE), 'sum.zip');
    await admin.s3!.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: 'sum' } });
    runner = await startRunnerProcess({ url: s1.url, admin: admin.s1!, name: 'cluster-runner', dir: runnerDir(work), uidBase: UID_BASE, waitJudging: false });
    // its language self-tests take a while on a busy machine
    await until('the runner judging', () => runner!.logs.some((l) => l.includes('judging for')) || (runner!.child.exitCode !== null && Promise.reject(new Error(runner!.logs.join('')))), 120_000, 100).catch((e: Error) => {
      throw new Error(`${e.message}\n${runner!.logs.join('')}`);
    });
  }, 360_000);

  afterAll(async () => {
    for (const s of streams) s.close();
    await Promise.all(instant.map((r) => r.stop()));
    runner?.stop('SIGKILL');
    await Promise.all([s1, s2, s3].map((s) => s?.kill()));
    await db?.drop();
    keepLogs([s1, s2, s3]);
    rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('brings every event to every socket allowed to see it, on every server, exactly once, and to no other', async () => {
    const [pa, pb] = [await user('pupil-a'), await user('pupil-b')];
    const a2 = await on(s2, pa);
    const a3 = await on(s3, pa);
    const b3 = await on(s3, pb);
    for (const c of [a2, b3]) await c.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });
    const open = async (c: JudgeClient) => {
      const s = c.events();
      await s.opened;
      streams.push(s);
      return s;
    };
    const staff = [await open(admin.s1!), await open(admin.s2!), await open(admin.s3!)];
    const [aOn2, aOn3, bOn3] = [await open(a2), await open(a3), await open(b3)];
    const mine = { a: [] as string[], b: [] as string[] };
    for (let i = 0; i < 2; i++) {
      mine.a.push((await submit(a2)).id);
      mine.b.push((await submit(b3)).id);
    }
    // judged by the real runner on the first server
    for (const id of mine.a) expect((await settled(a3, act.slug, id, { ms: 90_000, stepMs: 200 })).verdict).toBe('AC');
    for (const id of mine.b) expect((await settled(b3, act.slug, id, { ms: 90_000, stepMs: 200 })).verdict).toBe('AC');
    // every frame of these writes is in front of the barrier's on each socket (commit order, one log)
    const [f1, f2, f3, fa2, fa3, fb3] = await barrier(admin.s3!, [...staff, aOn2, aOn3, bOn3]);
    const doneOnce = (frames: Frame[], type: string, ids: string[]) => {
      const done = frames.filter((f) => f.type === type && state(f).state === 'completed').map((f) => state(f).id);
      expect(done.sort()).toEqual([...ids].sort());
    };
    const all = [...mine.a, ...mine.b];
    for (const frames of [f1!, f2!, f3!]) {
      doneOnce(frames, 'submissionChanged', all);
      expect(frames.filter((f) => f.type === 'submissionStateChanged')).toEqual([]);
    }
    // the three servers' staff sockets saw the same changes in the same order
    const seq = (frames: Frame[]) => frames.filter((f) => f.type === 'submissionChanged').map((f) => `${state(f).id}:${state(f).state}`);
    expect(seq(f2!)).toEqual(seq(f1!));
    expect(seq(f3!)).toEqual(seq(f1!));
    for (const [frames, own] of [[fa2!, mine.a], [fa3!, mine.a], [fb3!, mine.b]] as const) {
      doneOnce(frames, 'submissionStateChanged', own);
      // nothing of the other participant's submissions, nothing meant for staff
      expect(frames.filter((f) => f.type === 'submissionStateChanged' && !own.includes(state(f).id))).toEqual([]);
      expect(frames.filter((f) => f.type === 'submissionChanged')).toEqual([]);
    }

    await admin.s1!.call(ops.sendSystemMessage, { body: { type: 'info', text: 'cluster broadcast' } });
    const after = await barrier(admin.s2!, [...staff, aOn2, aOn3, bOn3]);
    for (const frames of after) expect(frames.filter((f) => f.type === 'systemMessage').map((f) => f.data)).toEqual([{ type: 'info', message: 'cluster broadcast' }]);
  }, 180_000);

  it('locks an account at the configured count of failures spread over the three servers, and not before', async () => {
    const login = async (s: ClusterServer, username: string, password: string) => {
      const res = await fetch(`${s.url}/api/v1/identity/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: username, password }) });
      return { status: res.status, detail: ((await res.json()) as { detail?: string }).detail };
    };
    const [victim, control] = [await user('victim'), await user('control')];
    const servers = [s1, s2, s3];
    for (let i = 0; i < LOCKOUT; i++) expect(await login(servers[i % 3]!, victim.username, `guess-${i}`)).toEqual({ status: 401, detail: 'Failed' });
    for (let i = 0; i < LOCKOUT - 1; i++) expect(await login(servers[(i + 1) % 3]!, control.username, `guess-${i}`)).toEqual({ status: 401, detail: 'Failed' });
    // the right password now: refused on every server for the locked account, admitted for the other
    for (const s of servers) expect(await login(s, victim.username, victim.password)).toEqual({ status: 401, detail: 'LockedOut' });
    expect((await login(s3, control.username, control.password)).status).toBe(200);
  }, 60_000);

  it('never hands one job to two runners on two servers over 1,000 submissions', async () => {
    // the real runner leaves (SIGTERM releases what it holds); two instant runners claim on s2 and s3
    runner!.stop('SIGTERM');
    await until('the real runner to exit', () => runner!.child.exitCode !== null || runner!.child.signalCode !== null, 30_000, 50);
    const [r2, r3] = [await InstantRunner.register(s2.url, admin.s2!, 'instant-2', 'standard-io@1'), await InstantRunner.register(s3.url, admin.s3!, 'instant-3', 'standard-io@1')];
    instant.push(r2, r3);
    r2.start();
    r3.start();
    const pupils = await Promise.all([0, 1, 2, 3].map(async (i) => {
      const u = await user(`load-${i}`);
      const clients = await Promise.all([s1, s2, s3].map((s) => on(s, u)));
      await clients[0]!.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });
      return clients;
    }));
    const clients = pupils.flat();
    const ids: string[] = [];
    await Promise.all(Array.from({ length: 8 }, async (_, w) => {
      for (let i = w; i < SUBMISSIONS; i += 8) ids.push((await submit(clients[i % clients.length]!)).id);
    }));
    await until('1,000 submissions judged', async () => (await completed(ids)) === SUBMISSIONS, 540_000, 500);
    await Promise.all([r2.stop(), r3.stop()]);
    const claims = [...r2.claims, ...r3.claims];
    expect(new Set(claims.map((c) => c.jobId)).size).toBe(claims.length);
    // each of the 1,000 claimed once (work left by an earlier part may be claimed too: once as well)
    expect(claims.map((c) => c.submissionId).filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
    expect(new Set(claims.map((c) => c.submissionId)).size).toBe(claims.length);
    expect(r2.claims.length).toBeGreaterThan(0);
    expect(r3.claims.length).toBeGreaterThan(0);
  }, 600_000);

  it('loses no acknowledged submission and no job when a server is killed mid-burst, and the workers move within 10 s when the leader is killed', async () => {
    const r3 = await InstantRunner.register(s3.url, admin.s3!, 'instant-3b', 'standard-io@1');
    const abandoner = await InstantRunner.register(s3.url, admin.s3!, 'abandoner', 'standard-io@1');
    instant.push(r3);
    r3.start();
    const u = await user('burst');
    const [c2, c3] = [await on(s2, u), await on(s3, u)];
    await c3.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });
    const acked: string[] = [];
    let refused = 0;
    let killed: Promise<void> | undefined;
    await Promise.all(Array.from({ length: 6 }, async (_, w) => {
      for (let i = w; i < 300; i += 6) {
        try {
          acked.push((await submit(i % 2 ? c2 : c3)).id);
        } catch {
          refused++;
        }
        if (acked.length >= 100) killed ??= s2.kill();
      }
    }));
    await killed;
    // every submission whose POST answered exists; those to the dead server after its death were refused
    expect(refused).toBeGreaterThan(0);
    expect(Number((await sql<{ n: string }>('select count(*) as n from submissions where id = any($1)', [acked]))[0]!.n)).toBe(acked.length);

    // a runner claims one job and vanishes; then the leader (the first server) dies before its lease runs out
    await r3.stop();
    await submit(c3);
    const leaderBefore = await s3.health();
    expect(leaderBefore.cluster.leader).not.toBe(leaderBefore.server.id);
    const held = (await abandoner.client.claim({ leaseSeconds: 15, waitSeconds: 5 }))!;
    expect(held).toBeTruthy();
    await s1.kill();
    const led = await until('the third server to lead', async () => {
      const h = await s3.health();
      return h.server.leader && h.cluster.leader === h.server.id ? h : undefined;
    }, 10_000, 100);
    expect(led.server.leader).toBe(true);

    // only the new leader's lease reaper can put the abandoned job back: the runner judges it again
    r3.start();
    const everything = (await sql<{ id: string }>('select id from submissions')).map((r) => r.id);
    await until('every submission judged', async () => (await completed(everything)) === everything.length, 240_000, 500);
    expect(r3.claims.some((c) => c.submissionId === held.submissionId)).toBe(true);
  }, 400_000);
});
