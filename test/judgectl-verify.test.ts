import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe as suite, expect, it } from 'vitest';
import { Sandbox } from '@judge/runner';
import { ADMIN_PASSWORD, TestJudge } from '../packages/server/test/harness.js';
import { until } from '../packages/server/test/support/wait.js';
import { zipOf } from '../packages/server/test/zips.js';
import { uidBaseOfRun } from './runner-process.js';

/**
 * `judgectl problems verify` end to end: a real server, `bin/judge-runner` as a child process in the
 * real sandbox, and judgectl as typed in a terminal (`pnpm build` first). A package goes up as a
 * trial, no problem is created, and the exit status says whether every example agrees.
 */

const CTL = fileURLToPath(new URL('../bin/judgectl', import.meta.url));
const RUNNER = fileURLToPath(new URL('../bin/judge-runner', import.meta.url));
/** Sandbox slot uids of this file's runner: a range no other test file uses. */
const UID_BASE = uidBaseOfRun(60900);

const describe = suite.skipIf(Sandbox.findBwrap() === null);

const SUM_C = '#include <stdio.h>\nint main(void){long a,b;scanf("%ld %ld",&a,&b);printf("%ld\\n",a+b);return 0;}\n';
const SUM_PY = 'a, b = map(int, input().split())\nprint(a + b)\n';
const OFF_C = '#include <stdio.h>\nint main(void){long a,b;scanf("%ld %ld",&a,&b);printf("%ld\\n",a+b+(a>4));return 0;}\n';
const SUM = {
  'problem.yaml': 'name: Sum\n',
  '.timelimit': '1\n',
  'data/sample/1.in': '1 2\n',
  'data/sample/1.ans': '3\n',
  'data/secret/1.in': '5 5\n',
  'data/secret/1.ans': '10\n',
  'submissions/accepted/sum.c': SUM_C,
  'submissions/accepted/sum.py': SUM_PY,
  'submissions/wrong_answer/off.c': OFF_C,
  'submissions/time_limit_exceeded/spin.c': 'int main(void){volatile unsigned long x=0;for(;;)x++;}\n',
};

function writeTree(root: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), content);
  }
}

describe('judgectl problems verify', () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let home: string;
  let runner: ChildProcess | undefined;
  const logs: string[] = [];
  const ctl = (...args: string[]) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(CTL, args, { encoding: 'utf8', env: { ...process.env, JUDGECTL_CONFIG_DIR: home, JUDGECTL_PASSWORD: '' } }, (err, stdout, stderr) =>
        resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
      child.stdin?.end();
    });
  const run = (args: string[]) =>
    new Promise<string>((resolve, reject) =>
      execFile(RUNNER, args, { encoding: 'utf8' }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout))),
    );

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    home = mkdtempSync(join(tmpdir(), 'judgectl-verify-'));
    writeTree(join(home, 'sum'), SUM);
    writeFileSync(join(home, 'bad.zip'), await zipOf({ ...SUM, 'submissions/wrong_answer/right.py': SUM_PY }));
    writeFileSync(join(home, 'pw'), `${ADMIN_PASSWORD}\n`);
    const login = await ctl('login', '--server', j.url, '--username', 'admin', '--password-file', join(home, 'pw'));
    expect(login.status, login.stderr).toBe(0);
  }, 60_000);
  afterAll(async () => {
    if (runner && runner.exitCode === null) runner.kill('SIGKILL');
    await j?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('refuses a broken package at once, and says clearly when no runner takes the trial in time', async () => {
    writeTree(join(home, 'broken'), { 'problem.yaml': 'name: Broken\n' });
    const broken = await ctl('problems', 'verify', join(home, 'broken'), '--timeout', '1');
    expect(broken.status).toBe(1);
    expect(broken.stderr).toMatch(/The package is not a valid ICPC problem package: .*\(422 package\.invalid\)/);

    const r = await ctl('problems', 'verify', join(home, 'sum'), '--timeout', '1');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/no runner took the trial within 1 s: is a runner for standard-io@1 approved and running\?/);
  });

  it('prints the table and exits 0 when every example agrees; no problem is created', async () => {
    const dir = join(home, 'runner');
    const { runnerId } = JSON.parse(await run(['register', '--server', j.url, '--name', 'verifier', '--config-dir', dir, '--json'])) as { runnerId: string };
    await admin.call(ops.approveRunner, { params: { id: runnerId } });
    runner = spawn(RUNNER, ['start', '--config-dir', dir, '--uid-base', String(UID_BASE)], { stdio: ['ignore', 'pipe', 'pipe'] });
    runner.stdout!.on('data', (d: Buffer) => logs.push(d.toString()));
    runner.stderr!.on('data', (d: Buffer) => logs.push(d.toString()));
    await until('the runner judging', () => (logs.some((l) => l.includes('judging for')) ? true : undefined), 30_000, 100);

    const r = await ctl('problems', 'verify', join(home, 'sum'), '--timeout', '120');
    expect(r.status, `${r.stdout}\n${r.stderr}\n${logs.join('')}`).toBe(0);
    expect(r.stdout).toMatch(/accepted\/sum\.c\s.*c\s.*accepted\s.*AC\s.*yes/);
    expect(r.stdout).toMatch(/accepted\/sum\.py\s.*python3\s.*accepted\s.*AC\s.*yes/);
    expect(r.stdout).toMatch(/wrong_answer\/off\.c\s.*WA\s.*yes/);
    expect(r.stdout).toMatch(/time_limit_exceeded\/spin\.c\s.*TLE\s.*yes/);
    expect(r.stdout).toMatch(/time limit\s.*1 s \(\.timelimit\)/);
    expect(r.stdout).toMatch(/suggested time limit\s.*1 s/);
    expect(r.stdout).toContain('4 examples run: 4 agree, 0 disagree');
    expect((await admin.call(ops.listProblems, { query: { includeArchived: 'true' } })).items).toEqual([]);
  }, 180_000);

  it('exits non-zero on a disagreeing example, and --json gives the measurement', async () => {
    const r = await ctl('problems', 'verify', join(home, 'bad.zip'), '--json', '--timeout', '120');
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(1);
    expect(r.stderr).toContain('does not verify: 1 example disagree');
    const out = JSON.parse(r.stdout) as { trial: { state: string }; measurement: { ok: boolean; submissions: { path: string; verdict: string; ok: boolean }[] } };
    expect(out.trial.state).toBe('completed');
    expect(out.measurement.ok).toBe(false);
    expect(out.measurement.submissions.find((s) => s.path === 'wrong_answer/right.py')).toMatchObject({ verdict: 'AC', ok: false });
  }, 180_000);
});
