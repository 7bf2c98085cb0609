import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Health, type SubmissionSummary } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { planSlots } from '@judge/runner';
import { legacyPackage, zipOf } from '../packages/server/test/zips.js';
import { codeForm } from '../packages/server/test/support/forms.js';
import { packagedProblem } from '../packages/server/test/support/packaged-problem.js';
import { until } from '../packages/server/test/support/wait.js';
import { settled } from './one-problem-contest.js';

/**
 * `judge up` keeps its local runner alive: a runner killed with SIGKILL is started again at once
 * (health tells), and judging goes on within seconds. Cancelling an attempt stops its sandbox
 * within a second. The built launcher runs (`pnpm build` first), as root for the real sandbox.
 */

const JUDGE = fileURLToPath(new URL('../bin/judge', import.meta.url));
const RUNNER = fileURLToPath(new URL('../bin/judge-runner', import.meta.url));
const CHEAP = { JUDGE_AUTH_ARGON2_MEMORY_KIB: '1024', JUDGE_AUTH_ARGON2_ITERATIONS: '1', JUDGE_LOG_LEVEL: 'warn' };
/** The local runner's sandbox uids: a range no other test file uses. */
const UID_BASE = 60500;
const PASSWORD = 'supervised-admin-password';

/** Sum with a time limit long enough for a program that sleeps until it is cancelled. */
function sumPackage(): Record<string, string> {
  const files = legacyPackage('Sum');
  delete files['submissions/accepted/hello.py'];
  return { ...files, '.timelimit': '30\n' };
}

/** Processes running as the local runner's sandbox uid. */
function slotProcesses(): string[] {
  const out = execFileSync('ps', ['-eo', 'uid=,pid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && Number(l.split(/\s+/)[0]) === UID_BASE);
}

describe('judge up supervises its local runner', () => {
  const dir = mkdtempSync(join(tmpdir(), 'judge-up-supervision-'));
  let child: ChildProcess | undefined;
  let err = '';
  let url = '';
  let admin: JudgeClient;
  let pupil: JudgeClient;

  const health = async () => (await (await fetch(`${url}/api/v1/health`)).json()) as Health;
  const submit = (code: string, name = 'sum.py') => pupil.call(ops.submit, { params: { idOrSlug: 'school', problemSlug: 'sum' }, form: codeForm(code, name) });
  const judgedWithin = (s: SubmissionSummary, ms: number) => settled(pupil, 'school', s.id, { ms, stepMs: 50 });

  beforeAll(async () => {
    const env: Record<string, string> = { ...(process.env as Record<string, string>), ...CHEAP, JUDGE_ADMIN_PASSWORD: PASSWORD };
    child = spawn(JUDGE, ['up', '--data-dir', join(dir, 'data'), '--port', '0', '--runner-uid-base', String(UID_BASE)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    // the summary on stdout and anything on stderr, in the order they came
    child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    child.stdout!.on('data', (b: Buffer) => (err += b.toString()));
    url = await until('judge up to serve and judge', () => {
      if (child!.exitCode !== null) throw new Error(`judge up exited ${child!.exitCode}: ${err}`);
      const u = /serving (http:\/\/\S+)\/api\/v1/.exec(err);
      return u && /runner local connected/.test(err) ? u[1]! : undefined;
    }, 60_000, 50);
    admin = new JudgeClient({ baseUrl: url });
    await admin.login('admin', PASSWORD);
    await admin.call(ops.createActivity, { body: { slug: 'school', name: 'School', type: 'course@1', rankingType: 'points', timeZone: 'UTC', joinPolicy: 'open', unlisted: false } });
    const series = await admin.call(ops.createSeries, { params: { idOrSlug: 'school' }, body: { slug: 'week-1', name: 'Week 1' } });
    const { problem } = await packagedProblem(admin, { slug: 'sum', name: 'Sum', type: 'standard-io@1' }, await zipOf(sumPackage()), 'sum.zip');
    await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: 'sum' } });
    const issued = await admin.call(ops.createUser, { body: { username: 'pupil' } });
    pupil = new JudgeClient({ baseUrl: url });
    await pupil.login(issued.username, issued.password);
    await pupil.call(ops.enrol, { params: { idOrSlug: 'school' }, body: {} });
  }, 90_000);

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('a runner killed with SIGKILL is started again after 0.5 s: a submission made after the kill is judged', async () => {
    const before = await health();
    expect(before.localRunner).toMatchObject({ state: 'running', restarts: 0 });
    const pid = before.localRunner!.pid!;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');
    const s = await submit('a, b = map(int, input().split())\nprint(a + b)\n');
    // on an idle machine within 2-3 s; the bound is for a loaded one (CI ran it at load 8-11 and a
    // restarted runner's start alone took longer than 10 s): the 0.5 s is the supervisor's, checked below
    const done = await judgedWithin(s, 60_000).catch((e: Error) => {
      throw new Error(`${e.message}\n${err}`);
    });
    expect(done.verdict, err).toBe('AC');
    const after = await health();
    expect(after.localRunner).toMatchObject({ state: 'running', restarts: 1, lastExit: { signal: 'SIGKILL' } });
    expect(after.localRunner!.lastExit!.code).toBeUndefined();
    expect(after.localRunner!.pid).not.toBe(pid);
    expect(JSON.stringify(after)).not.toMatch(/secret|key/i);
    expect(err).toMatch(new RegExp(`the local runner \\(pid ${pid}\\) was killed by SIGKILL after [\\d.]+ s; starting it again in 0\\.5 s`));
  }, 90_000);

  it('cancelling an attempt stops its sandboxed program within a second', async () => {
    const s = await submit('import time\ntime.sleep(25)\n', 'sleepy.py');
    // the run itself (under the name it was submitted with), not the syntax check before it
    await until('the sandboxed program to run', () => (slotProcesses().some((l) => /python3 sleepy\.py/.test(l)) ? true : undefined), 20_000, 20);
    const m = await admin.call(ops.getSubmission, { params: { id: s.id } });
    const cancelled = Date.now();
    await admin.call(ops.cancelAttempt, { params: { submissionId: s.id, attemptId: m.attemptList[0]!.id } });
    await until('the sandbox to stop', () => (slotProcesses().length === 0 ? true : undefined), 5_000, 10);
    expect(Date.now() - cancelled, err).toBeLessThan(1000);
    // the runner goes on judging
    const next = await judgedWithin(await submit('a, b = map(int, input().split())\nprint(a + b)\n'), 20_000);
    expect(next.verdict).toBe('AC');
  }, 60_000);

  it('a second judge-runner started on the same sandbox uids refuses, naming the runner that holds them', async () => {
    const holder = (await health()).localRunner!.pid!;
    const config = join(dir, 'second-runner');
    const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const second = spawn(RUNNER, ['start', '--config-dir', config, '--server', url, '--uid-base', String(UID_BASE)], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      second.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      second.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      second.once('exit', (code) => resolve({ code, out }));
    });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(new RegExp(`sandbox uid ${UID_BASE} .* is already used by judge-runner pid ${holder} .*Start this one with another range, e\\.g\\. --uid-base ${UID_BASE + planSlots('auto', true).slots}`));
    // the local runner was not disturbed
    expect((await health()).localRunner).toMatchObject({ state: 'running', pid: holder });
  }, 30_000);

  it('stops its runner and restarts it no more on SIGTERM', async () => {
    child!.kill('SIGTERM');
    const exit = await new Promise<number | null>((r) => child!.once('exit', (c) => r(c)));
    expect(exit).toBe(0);
    // the runner's own lines are in the server's log file
    expect(readFileSync(join(dir, 'data', 'logs', 'judge.log'), 'utf8')).toMatch(/runner: .*stopped: \d+ judged/);
  }, 60_000);
});
