import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, TestJudge } from '../packages/server/test/harness.js';
import { until } from '../packages/server/test/support/wait.js';
import { BIN, JUDGE_RUNNER, judgectlIn, runChild } from './cli-child.js';
import { uidBaseOfRun } from './runner-process.js';

/** This file's sandbox uids (a runner is started once). */
const UID_BASE = uidBaseOfRun(62800);

// Every step is a child process, each a second or more on a busy machine: hence the long timeout.
// Lab machines becoming runners, each step a child process exactly as typed in a terminal: the
// administrator's judgectl and the lab machine's judge-runner, against a real server.

describe('runners in a lab: enrolment codes and the approve line', { timeout: 120_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let home: string;
  let ctl: ReturnType<typeof judgectlIn>['ctl'];
  const ok = async (...args: string[]) => {
    const r = await ctl(...args, '--json');
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return JSON.parse(r.stdout);
  };
  const runner = (...args: string[]) => runChild(JUDGE_RUNNER, args);
  const runnerCount = async () => (await admin.call(ops.listRunners, { query: {} })).total;
  const codeCount = () => j.count('runner_enrolment_codes');

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    home = mkdtempSync(join(tmpdir(), 'judgectl-runners-'));
    ctl = judgectlIn(home).ctl;
    writeFileSync(join(home, 'pw'), `${ADMIN_PASSWORD}\n`);
    expect((await ctl('login', '--server', j.url, '--username', 'admin', '--password-file', join(home, 'pw'))).status).toBe(0);
    }, 60_000);
  afterAll(async () => {
    await j?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('runners add prints a code and the commands to run on the lab machine; running them enrols the runner approved', async () => {
    const added = await ctl('runners', 'add', '--name', 'lab-07', '--tags', 'lab,cpp', '--expires', '2h');
    expect(added.status, added.stderr).toBe(0);
    const line = /^ {2}(judge-runner register --server (\S+) --code (\S+))$/m.exec(added.stdout);
    expect(line, added.stdout).not.toBeNull();
    expect(line![2]).toBe(j.url);
    expect(added.stdout).toMatch(/^ {2}judge-runner start$/m);
    expect(added.stdout).toMatch(/1 use, until .*, names the runner lab-07, tags lab, cpp\./);

    // the printed command, as pasted on the lab machine (with a configuration directory of the test's)
    const dir = join(home, 'lab-07');
    const registered = await runChild('sh', ['-c', `${line![1]} --config-dir ${dir}`], { PATH: `${BIN}:${process.env.PATH}` });
    expect(registered.status, registered.stderr).toBe(0);
    expect(registered.stdout).toMatch(/Approved by the enrolment code: no approval is needed/);
    expect(registered.stdout).not.toMatch(/judgectl runners approve/);
    const fingerprint = /Fingerprint: ([0-9a-f]{64})/.exec(registered.stdout)![1]!;
    const view = (await admin.call(ops.listRunners, { query: { search: fingerprint } })).items[0];
    expect(view).toMatchObject({ state: 'approved', name: 'lab-07', tags: ['lab', 'cpp'] });
    // `start` registers again with what was saved: the code's name and tags, not the host's
    expect(JSON.parse(readFileSync(join(dir, 'runner.json'), 'utf8'))).toMatchObject({ server: j.url, name: 'lab-07', tags: ['lab', 'cpp'] });

    // the same command again on that machine: already approved, the spent code does not matter
    const twice = await runChild('sh', ['-c', `${line![1]} --config-dir ${dir}`], { PATH: `${BIN}:${process.env.PATH}` });
    expect(twice.status, twice.stderr).toBe(0);
    expect(twice.stdout).toMatch(/^Approved: start it/m);

    // the code is spent: another machine using it is refused and nothing is registered
    const before = await runnerCount();
    const again = await runner('register', '--server', j.url, '--code', line![3]!, '--config-dir', join(home, 'lab-08'));
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already used.*\(403 runner\.enrolmentCode\)/);
    expect(await runnerCount()).toBe(before);
  });

  it('a runner enrolled with a code starts judging under the name the code gave it', async () => {
    const made = await ok('runners', 'add', '--name', 'lab-start');
    const dir = join(home, 'lab-start');
    expect((await runner('register', '--server', j.url, '--code', made.code, '--config-dir', dir)).status).toBe(0);
    const child = spawn(JUDGE_RUNNER, ['start', '--config-dir', dir, '--uid-base', String(UID_BASE), '--slots', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const logs: string[] = [];
    child.stdout.on('data', (d: Buffer) => logs.push(d.toString()));
    child.stderr.on('data', (d: Buffer) => logs.push(d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await until('the runner judging', () => (logs.join('').includes('judging for') ? true : undefined), 30_000, 100);
      const view = (await admin.call(ops.listRunners, { query: { search: 'lab-start' } })).items[0];
      expect(view).toMatchObject({ name: 'lab-start', state: 'approved', isConnected: true });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, logs.join('')).toBe(0);
  });

  it('runners add --json answers the code, the server and the commands; runners codes lists codes but never the code', async () => {
    const made = await ok('runners', 'add', '--uses', '3', '--expires', '30m');
    expect(made).toMatchObject({ id: expect.any(String), uses: 3, used: 0, tags: [], server: j.url, createdByName: 'admin' });
    expect(made.commands).toEqual([`judge-runner register --server ${j.url} --code ${made.code}`, 'judge-runner start']);
    expect(Date.parse(made.expiresAt) - Date.parse(made.createdAt)).toBe(30 * 60_000);

    const listed = await ok('runners', 'codes');
    expect(listed.map((c: { id: string }) => c.id)).toContain(made.id);
    expect(JSON.stringify(listed)).not.toContain(made.code);
    const shown = await ctl('runners', 'codes');
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain(made.id);
    expect(shown.stdout).toMatch(/0\/3/);
    expect(shown.stdout).not.toContain(made.code);
  });

  it('runners codes revoke withdraws a code (by its id or a prefix), and a runner can no longer enrol with it', async () => {
    const made = await ok('runners', 'add');
    const revoked = await ctl('runners', 'codes', 'revoke', made.id.slice(0, 30));
    expect(revoked.status, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`Withdrew the enrolment code ${made.id}`));
    expect((await ok('runners', 'codes')).map((c: { id: string }) => c.id)).not.toContain(made.id);

    const before = await runnerCount();
    const refused = await runner('register', '--server', j.url, '--code', made.code, '--config-dir', join(home, 'lab-09'));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/unknown or was withdrawn.*\(403 runner\.enrolmentCode\)/);
    expect(await runnerCount()).toBe(before);

    const gone = await ctl('runners', 'codes', 'revoke', made.id, '--json');
    expect(gone.status).toBe(1);
    expect(gone.stderr).toMatch(/no unexpired enrolment code/);
    const another = await ok('runners', 'add');
    expect(await ok('runners', 'codes', 'revoke', another.id)).toEqual({ revoked: another.id });
  });

  it('refuses a bad --expires or --uses before asking the server, and a user without runner:approve', async () => {
    const codes = await codeCount();
    for (const args of [['--expires', '8d'], ['--expires', '30s'], ['--expires', 'soon'], ['--uses', '0']]) {
      const r = await ctl('runners', 'add', ...args);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/is invalid/);
    }
    const badTag = await ctl('runners', 'add', '--tags', 'not a tag');
    expect(badTag.status).toBe(1);
    expect(badTag.stderr).toMatch(/422 validation_failed/);

    const pupil = await j.user('pupil');
    const pupilHome = mkdtempSync(join(tmpdir(), 'judgectl-pupil-'));
    try {
      writeFileSync(join(pupilHome, 'pw'), `${pupil.password}\n`);
      const asPupil = judgectlIn(pupilHome).ctl;
      expect((await asPupil('login', '--server', j.url, '--username', pupil.username, '--password-file', join(pupilHome, 'pw'))).status).toBe(0);
      for (const args of [['runners', 'add'], ['runners', 'codes']]) {
        const r = await asPupil(...args);
        expect(r.status, args.join(' ')).toBe(1);
        expect(r.stderr).toMatch(/runner:approve.*\(403 forbidden\)/);
      }
    } finally {
      rmSync(pupilHome, { recursive: true, force: true });
    }
    expect(await codeCount()).toBe(codes);
  });

  it('register without a code prints the approve line; pasting it into a shell approves the runner', async () => {
    const dir = join(home, 'lab-10');
    const reg = await runner('register', '--server', j.url, '--name', 'lab 10', '--config-dir', dir);
    expect(reg.status, reg.stderr).toBe(0);
    const fingerprint = /Fingerprint: ([0-9a-f]{64})/.exec(reg.stdout)![1]!;
    const line = /^ {2}(judgectl runners approve .*)$/m.exec(reg.stdout)?.[1];
    expect(line).toBe(`judgectl runners approve ${fingerprint.slice(0, 16)}   # lab 10`);
    const view = () => admin.call(ops.listRunners, { query: { search: fingerprint } }).then((p) => p.items[0]!);
    expect((await view()).state).toBe('pendingApproval');

    const pasted = await runChild('sh', ['-c', line!], { PATH: `${BIN}:${process.env.PATH}`, JUDGECTL_CONFIG_DIR: home, JUDGECTL_PASSWORD: '' });
    expect(pasted.status, pasted.stderr).toBe(0);
    expect(pasted.stdout).toMatch(/Approved lab 10/);
    expect((await view()).state).toBe('approved');

    // --json carries the same line while the runner waits, and none once it is approved
    const waiting = JSON.parse((await runner('register', '--server', j.url, '--config-dir', join(home, 'lab-11'), '--json')).stdout);
    expect(waiting).toMatchObject({ state: 'pendingApproval', approveCommand: `judgectl runners approve ${waiting.fingerprint.slice(0, 16)}` });
    const approved = JSON.parse((await runner('register', '--server', j.url, '--config-dir', dir, '--json')).stdout);
    expect(approved.state).toBe('approved');
    expect(approved).not.toHaveProperty('approveCommand');
  });
});
