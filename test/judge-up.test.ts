import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { sleep } from '../packages/server/test/support/wait.js';
import { schoolCourse } from './school-course.js';

/**
 * `judge up` as a small school runs it (the built launcher, `pnpm build` first): on an empty data
 * directory it initialises, prints the admin password once, serves, and judges with a runner of
 * its own that nobody had to approve.
 */

const JUDGE = fileURLToPath(new URL('../bin/judge', import.meta.url));
const CHEAP = { JUDGE_AUTH_ARGON2_MEMORY_KIB: '1024', JUDGE_AUTH_ARGON2_ITERATIONS: '1', JUDGE_LOG_LEVEL: 'warn' };

describe('judge up', () => {
  const dir = mkdtempSync(join(tmpdir(), 'judge-up-'));
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('on an empty data directory serves and judges a submission with no other command', async () => {
    const env: Record<string, string> = { ...(process.env as Record<string, string>), ...CHEAP };
    delete env.JUDGE_ADMIN_PASSWORD;
    child = spawn(JUDGE, ['up', '--data-dir', join(dir, 'data'), '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    const { url, password } = await new Promise<{ url: string; password: string }>((resolve, reject) => {
      const t = setInterval(() => {
        const u = /serving (http:\/\/\S+)\/api\/v1/.exec(out);
        const p = /admin \/ (\S+)/.exec(out);
        if (u && p && /runner local connected/.test(out)) {
          clearInterval(t);
          resolve({ url: u[1]!, password: p[1]! });
        }
      }, 50);
      child!.once('exit', (code) => {
        clearInterval(t);
        reject(new Error(`judge up exited ${code}: ${out}\n${err}`));
      });
    });
    // the local runner's key lives in the data directory, readable by its owner only
    expect(statSync(join(dir, 'data', 'runner', 'key.json')).mode & 0o777).toBe(0o600);

    const admin = new JudgeClient({ baseUrl: url });
    await admin.login('admin', password);
    const runners = await admin.call(ops.listRunners, {});
    expect(runners.items).toEqual([expect.objectContaining({ name: 'local', state: 'approved' })]);
    const { pupil, submit } = await schoolCourse(url, admin);
    const s = await submit('a, b = map(int, input().split())\nprint(a + b)\n', 'sum.py');
    const end = Date.now() + 60_000;
    let verdict: string | undefined;
    while (Date.now() < end) {
      const d = await pupil.call(ops.getOwnSubmission, { params: { idOrSlug: 'school', id: s.id } });
      if (d.state === 'completed') {
        verdict = d.verdict;
        break;
      }
      await sleep(100);
    }
    expect(verdict, err).toBe('AC');

    // SIGTERM stops the runner politely and then the server
    child.kill('SIGTERM');
    const exit = await new Promise<number | null>((r) => child!.once('exit', (c) => r(c)));
    expect(exit).toBe(0);
    // the runner's own lines are in the server's log file
    expect(readFileSync(join(dir, 'data', 'logs', 'judge.log'), 'utf8')).toMatch(/runner: .*stopped: 1 judged/);
  }, 120_000);
});
