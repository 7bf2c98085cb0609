import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Health } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { settled } from './one-problem-contest.js';
import { until } from '../packages/server/test/support/wait.js';
import { startRunnerProcess, type RunnerProcess } from './runner-process.js';
import { schoolCourse } from './school-course.js';

/**
 * `judge serve` with no runner, as an administrator who forgot one would meet it: the terminal
 * says at start and again when a submission waits that nothing will be judged and how to add a
 * runner, /health says the same in figures, and a runner that then connects is announced and
 * judges the waiting submission, reported as one line.
 */

const JUDGE = fileURLToPath(new URL('../bin/judge', import.meta.url));
const PASSWORD = 'serve-output-password';
const UID_BASE = 62450;
const env = () => ({ ...(process.env as Record<string, string>), JUDGE_AUTH_ARGON2_MEMORY_KIB: '1024', JUDGE_AUTH_ARGON2_ITERATIONS: '1', JUDGE_ADMIN_PASSWORD: PASSWORD });

describe('judge serve without a runner', () => {
  const dir = mkdtempSync(join(tmpdir(), 'judge-serve-output-'));
  const data = join(dir, 'data');
  let child: ChildProcess | undefined;
  let runner: RunnerProcess | undefined;
  let out = '';
  let err = '';
  let url = '';
  let admin: JudgeClient;
  let pupil: JudgeClient;
  let submit: Awaited<ReturnType<typeof schoolCourse>>['submit'];
  const health = async () => (await (await fetch(`${url}/api/v1/health`)).json()) as Health;
  const warnings = () => out.split('\n').filter((l) => l.startsWith('warning: '));

  beforeAll(async () => {
    expect(spawnSync(JUDGE, ['init', '--data-dir', data], { env: env(), encoding: 'utf8' }).status).toBe(0);
    child = spawn(JUDGE, ['serve', '--data-dir', data, '--port', '0'], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    url = await until('judge serve to listen', () => {
      if (child!.exitCode !== null) throw new Error(`judge serve exited ${child!.exitCode}: ${out}\n${err}`);
      return /serving (http:\/\/\S+)\/api\/v1/.exec(out)?.[1];
    }, 30_000, 50);
    admin = new JudgeClient({ baseUrl: url });
    await admin.login('admin', PASSWORD);
    ({ pupil, submit } = await schoolCourse(url, admin));
  }, 60_000);

  afterAll(() => {
    runner?.stop('SIGKILL');
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('warns at start that nothing will be judged and says how to add a runner; stdout holds no JSON', () => {
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatch(/no runner is approved, so nothing will be judged/);
    expect(warnings()[0]).toContain(`judge-runner register --server ${url}`);
    expect(warnings()[0]).toMatch(/judgectl runners approve .*judge up/);
    expect(out).toContain(`Logs: ${data}/logs/judge.log`);
    expect(out).not.toMatch(/^\{/m);
    expect(err).toBe('');
  });

  it('warns again when a submission is queued with no runner connected, and /health shows it waiting', async () => {
    const s = await submit('a, b = map(int, input().split())\nprint(a + b)\n', 'sum.py');
    await until('the second warning', () => (warnings().length === 2 ? true : undefined), 5_000, 20);
    expect(warnings()[1]).toMatch(/a submission is waiting and no runner is connected, so nothing will be judged/);
    expect(warnings()[1]).toContain(`judge-runner register --server ${url}`);
    const h = await health();
    expect(h.runners).toEqual({ connected: 0, approved: 0, pendingApproval: 0 });
    expect(h.queue).toEqual({ queued: 1, running: 0 });
    expect(h.localRunner).toBeUndefined();
    // a second submission while still nobody judges is not warned about again
    await submit('print(0)\n', 'zero.py');
    expect((await health()).queue).toEqual({ queued: 2, running: 0 });
    expect(warnings()).toHaveLength(2);

    // a runner that connects is announced and judges what waited, one line per submission
    runner = await startRunnerProcess({ url, admin, name: 'lab-1', dir: join(dir, 'runner'), uidBase: UID_BASE });
    await until('the runner announced', () => (/^\d\d:\d\d:\d\d runner lab-1 connected$/m.test(out) ? true : undefined), 10_000, 50);
    const done = await settled(pupil, 'school', s.id, { ms: 60_000, stepMs: 100 });
    expect(done.verdict).toBe('AC');
    const line = new RegExp(`^\\d\\d:\\d\\d:\\d\\d judged ${s.id} pupil school/sum python3 AC \\d+\\.\\d\\d s$`, 'm');
    await until('the judged line', () => (line.test(out) ? true : undefined), 5_000, 20);
    await until('the queue to empty', async () => ((await health()).queue.queued === 0 && (await health()).queue.running === 0 ? true : undefined), 60_000, 100);
    expect((await health()).runners).toEqual({ connected: 1, approved: 1, pendingApproval: 0 });
    expect(out.split('\n').filter((l) => / judged /.test(l))).toHaveLength(2);
    expect(out).not.toMatch(/^\{/m);
  }, 120_000);
});
