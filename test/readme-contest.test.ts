import { ops } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../packages/server/test/support/wait.js';
import { runChild, type ChildResult } from './cli-child.js';
import { placeholders, sectionCommands, type ReadmeCommand } from './readme-commands.js';
import { CLASS_SIZE, firstHour, ranking, signInClass, submit, verdicts, writeClassCsv, type Student } from './readme-contest-class.js';

/**
 * The guide "Running a contest" (docs/running-a-contest.md), run command by command in a fresh directory, with a class of 30 that
 * signs in from one address and takes part between the commands. Only what cannot run inside a
 * test is left out, each for a reason given below; the port, the data directory's place and the
 * sandbox uids are the test's own.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const UID_BASE = '62850';
const CHEAP = { JUDGE_AUTH_ARGON2_MEMORY_KIB: '1024', JUDGE_AUTH_ARGON2_ITERATIONS: '1' };

/** Commands the test does not run, and why that is safe. */
const NOT_RUN: [RegExp, string][] = [
  [/^\.\/install\.sh\b/, '.ci/run runs ./install.sh --languages all --browser --postgres (a superset) before the tests'],
  [/^systemctl\b/, 'no systemd inside a test; runner-install-service.test.ts verifies the unit with systemd-analyze'],
];

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('README: running a contest', () => {
  const work = mkdtempSync(join(tmpdir(), 'readme-contest-'));
  let judge: ChildProcess | undefined;
  let judgeOut = '';
  afterAll(async () => {
    if (judge && judge.exitCode === null) {
      judge.kill('SIGTERM');
      await new Promise((r) => judge!.once('exit', r));
    }
    rmSync(work, { recursive: true, force: true });
  });

  it('every command of the section works, in order, for a class of 30', async () => {
    const commands = sectionCommands(join(ROOT, 'docs/running-a-contest.md'), '# Running a contest');
    expect(commands.length).toBeGreaterThan(25);
    symlinkSync(join(ROOT, 'bin'), join(work, 'bin'));
    symlinkSync(join(ROOT, 'examples'), join(work, 'examples'));
    mkdirSync(join(work, 'lab-runner'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = { ...CHEAP, JUDGECTL_CONFIG_DIR: join(work, 'judgectl'), JUDGE_RUNNER_CONFIG_DIR: join(work, 'lab-runner') };
    const outputs: { cmd: ReadmeCommand; r: ChildResult }[] = [];
    const lastOutput = (re: RegExp) => [...outputs].reverse().find((o) => re.test(o.cmd.text))!.r.stdout;
    let admin: JudgeClient | undefined;
    let students: Student[] = [];
    let wrong = '';
    const filled: Record<string, () => Promise<string>> = {
      code: async () => /--code (\S+)/.exec(lastOutput(/runners add/))![1]!,
      question: async () => (await admin!.call(ops.listQuestions, { query: { activityId: (await admin!.call(ops.getManagedActivity, { params: { idOrSlug: 'spring' } })).id, unansweredOnly: 'true' } })).items[0]!.id,
      submission: async () => wrong,
    };

    /** The README's command as it runs here: this test's port, and its own place for the unit. */
    const adapt = async (text: string): Promise<string> => {
      let t = text.replace(/http:\/\/(127\.0\.0\.1|192\.168\.1\.20):8080/g, url);
      for (const name of placeholders(t)) t = t.replace(`<${name}>`, await filled[name]!());
      if (/^bin\/judge-runner install-service\b/.test(t)) t += ` --output ${join(work, 'judge-runner.service')}`;
      return t;
    };

    for (const cmd of commands) {
      if (NOT_RUN.some(([re]) => re.test(cmd.text))) continue;
      const text = await adapt(cmd.text);
      if (/^bin\/judge up .*&$/.test(text)) {
        judge = startJudge(text, port, work, env, (s) => (judgeOut += s));
        admin = await judgeReady(url, () => judgeOut).catch((e: Error) => {
          throw new Error(`${e.message}; judge up said:\n${judgeOut}`);
        });
        env.JUDGECTL_PASSWORD = /admin \/ (\S+)/.exec(judgeOut)![1]!;
        continue;
      }
      // what happens around the commands: the people and their accounts
      if (/users import class\.csv/.test(text)) writeClassCsv(work);
      if (/activities enrol spring ann bob/.test(text)) for (const u of ['ann', 'bob']) await admin!.call(ops.createUser, { body: { username: u } });
      // the rest of the contest passes: it has ended when the guide finalises it
      if (/activities finalize spring$/.test(text)) await contestEnds();
      const r = await runChild('bash', ['-c', text], env, work);
      outputs.push({ cmd, r });
      expect(r.status, `docs/running-a-contest.md:${cmd.line}: ${cmd.text}\n${r.stdout}\n${r.stderr}`).toBe(0);
      await afterCommand(text, r);
    }

    async function afterCommand(text: string, r: ChildResult): Promise<void> {
      if (/^bin\/judgectl series open spring main$/.test(text)) {
        // the lab signs in at once from one address, and the contest's first hour happens
        students = await signInClass(url, work);
        expect(students).toHaveLength(CLASS_SIZE);
        const hour = await firstHour(students);
        wrong = hour.wrong;
        expect([...hour.verdicts.values()].filter((v) => v === 'AC')).toHaveLength(CLASS_SIZE + 5);
        expect([...hour.verdicts.values()].filter((v) => v === 'WA')).toHaveLength(10);
      }
      if (/runners add/.test(text)) expect(r.stdout).toMatch(/judge-runner register --server \S+ --code \S+/);
      if (/judge-runner register/.test(text)) expect((await admin!.call(ops.listRunners, {})).items.find((x) => x.name === 'lab-07')?.state).toBe('approved');
      if (/install-service/.test(text)) expect(readFileSync(join(work, 'judge-runner.service'), 'utf8')).toMatch(/ExecStart=\S+ \S+runner\/dist\/main\.js start --config-dir \S+lab-runner --server http/);
      if (/questions list/.test(text)) expect(r.stdout).toMatch(/Can a \+ b exceed 32 bits\?/);
      if (/printouts list/.test(text)) expect(r.stdout).toMatch(/Student 10/);
      if (/submissions show .* --tests/.test(text)) expect(r.stdout).toMatch(/WA/);
      if (/submissions source/.test(text)) expect(r.stdout).toContain('int a, b;');
      if (/series freeze/.test(text)) await duringFreeze();
      if (/series reveal/.test(text)) expect((await ranking(students[29]!)).frozen).toBe(false);
      if (/ranking spring --csv/.test(text)) {
        const csv = readFileSync(join(work, 'standings.csv'), 'utf8');
        expect(csv.startsWith('\uFEFF')).toBe(true);
        const lines = csv.slice(1).trim().split('\r\n');
        const perProblem = (slug: string) => ['solved', 'tries', 'minute'].map((k) => `${slug} ${k}`);
        expect(lines[0]).toBe(['rank,username,name,userId,solved,penalty', ...['hello', 'largest', 'sum'].flatMap(perProblem)].join(','));
        expect(lines).toHaveLength(1 + CLASS_SIZE + 2);
        expect(lines[1]).toMatch(/^1,s30,Student 30,[^,]+,3,/);
      }
      if (/judge restore/.test(text)) expect(existsSync(join(work, 'restored', 'judge.db'))).toBe(true);
    }

    /** The contest's series ends a second ago (the activity's end follows it), as if its three hours had passed. */
    async function contestEnds(): Promise<void> {
      const series = (await admin!.call(ops.listActivitySeries, { params: { idOrSlug: 'spring' } })).find((x) => x.slug === 'main')!;
      const now = Date.parse((await admin!.call(ops.health)).serverTime);
      await admin!.call(ops.updateSeries, { params: { seriesId: series.id }, body: { endDate: new Date(now - 1000).toISOString() } });
    }

    /** During the freeze the last student solves two more: hidden from the class, not from staff. */
    async function duringFreeze(): Promise<void> {
      const last = students[29]!;
      const ids = new Map<string, Student>();
      ids.set(await submit(last, 'sum', 'sum/submissions/accepted/sum.cpp'), last);
      ids.set(await submit(last, 'largest', 'largest/submissions/accepted/largest.py'), last);
      expect([...(await verdicts(ids)).values()]).toEqual(['AC', 'AC']);
      const seen = await ranking(students[0]!);
      expect(seen.frozen).toBe(true);
      expect(seen.rows.find((row) => row.userName === 'Student 30')?.solved).toBe(1);
      const staff = await admin!.call(ops.getRanking, { params: { idOrSlug: 'spring' }, query: {} });
      expect(staff.rows[0]).toMatchObject({ userName: 'Student 30', solved: 3 });
    }
  }, 900_000);
});

function startJudge(text: string, port: number, cwd: string, env: Record<string, string>, out: (s: string) => void): ChildProcess {
  const args = text.replace(/&$/, '').trim().split(/\s+/).slice(1);
  const child = spawn(join(cwd, 'bin', 'judge'), [...args, '--port', String(port), '--runner-uid-base', UID_BASE], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (b: Buffer) => out(b.toString()));
  child.stderr!.on('data', (b: Buffer) => out(b.toString()));
  return child;
}

/** Waits for the judge to serve with its runner judging, and signs the admin in with the password it printed. */
async function judgeReady(url: string, output: () => string): Promise<JudgeClient> {
  const password = await until('the admin password', () => /admin \/ (\S+)/.exec(output())?.[1], 60_000, 100);
  await until(
    'the local runner',
    async () => {
      const h = await fetch(`${url}/api/v1/health`).then((r) => (r.ok ? (r.json() as Promise<{ localRunner?: { state: string } }>) : undefined), () => undefined);
      return h?.localRunner?.state === 'running';
    },
    60_000,
    200,
  );
  expect(output()).toMatch(/Open http:\/\/\S+ in a browser/);
  const admin = new JudgeClient({ baseUrl: url });
  await admin.login('admin', password);
  return admin;
}
