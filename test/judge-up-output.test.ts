import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { JudgeClient } from '@judge/sdk';
import { until } from '../packages/server/test/support/wait.js';
import { settled } from './one-problem-contest.js';
import { schoolCourse } from './school-course.js';

/**
 * What `judge up` and `judge serve` print (the built launcher, `pnpm build` first): a summary for
 * people on stdout and the JSON log in DATA_DIR/logs/judge.log, or that log on stdout with
 * `--log-format json`; and a start that cannot succeed is one line on stderr, not a stack.
 */

const JUDGE = fileURLToPath(new URL('../bin/judge', import.meta.url));
const PASSWORD = 'up-output-password';
const UID_BASE = 62400;
const env = (extra: Record<string, string> = {}) => ({
  ...(process.env as Record<string, string>),
  JUDGE_AUTH_ARGON2_MEMORY_KIB: '1024',
  JUDGE_AUTH_ARGON2_ITERATIONS: '1',
  JUDGE_ADMIN_PASSWORD: PASSWORD,
  ...extra,
});
const root = mkdtempSync(join(tmpdir(), 'judge-up-output-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

/** Starts `judge` and collects its output until `ready` finds what it waits for in stdout. */
async function started(args: string[], ready: (out: string) => string | undefined, extraEnv: Record<string, string> = {}) {
  const child = spawn(JUDGE, args, { env: env(extraEnv), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const o = { child, out: '', err: '', found: '' };
  child.stdout!.on('data', (b: Buffer) => (o.out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (o.err += b.toString()));
  o.found = await until(`judge ${args[0]} to be ready`, () => {
    if (child.exitCode !== null) throw new Error(`judge exited ${child.exitCode}: ${o.out}\n${o.err}`);
    return ready(o.out);
  }, 60_000, 50);
  return o;
}

const stopped = (child: ChildProcess) => new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : (child.once('exit', (c) => r(c)), child.kill('SIGTERM'))));
const jsonLines = (text: string) => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { level: number; msg: string });

describe('judge up prints a summary and logs to its data directory', () => {
  it('shows the URL, the runner running and one line per judged submission; the JSON goes to judge.log', async () => {
    const data = join(root, 'up');
    const up = await started(['up', '--data-dir', data, '--port', '0', '--runner-uid-base', String(UID_BASE)], (out) =>
      /runner local connected/.test(out) ? /serving (http:\/\/\S+)\/api\/v1/.exec(out)?.[1] : undefined,
    );
    const url = up.found;
    const port = new URL(url).port;
    expect(up.out).toContain(`Open http://127.0.0.1:${port}/ in a browser.`);
    expect(up.out).toMatch(/^\d\d:\d\d:\d\d local runner: running \(pid \d+\)$/m);
    // a runner of its own: no warning that nothing will be judged
    expect(up.out).not.toMatch(/warning/);

    const admin = new JudgeClient({ baseUrl: url });
    await admin.login('admin', PASSWORD);
    const { pupil, submit } = await schoolCourse(url, admin);
    const s = await submit('a, b = map(int, input().split())\nprint(a + b)\n', 'sum.py');
    expect((await settled(pupil, 'school', s.id, { ms: 60_000, stepMs: 100 })).verdict).toBe('AC');
    await until('the judged line', () => (new RegExp(`^\\d\\d:\\d\\d:\\d\\d judged ${s.id} pupil school/sum python3 AC \\d+\\.\\d\\d s$`, 'm').test(up.out) ? true : undefined), 5_000, 20);

    expect(await stopped(up.child)).toBe(0);
    // people's lines only on stdout; nothing on stderr
    expect(up.out).not.toMatch(/^\{/m);
    expect(up.err).toBe('');
    const log = jsonLines(readFileSync(join(data, 'logs', 'judge.log'), 'utf8'));
    expect(log.some((l) => l.msg === 'judge listening')).toBe(true);
    expect(log.some((l) => /^runner: .*judging for/.test(l.msg))).toBe(true);
    // the requests' log lines, the sign-in's password among them, keep no secret
    expect(readFileSync(join(data, 'logs', 'judge.log'), 'utf8')).not.toContain(PASSWORD);
  }, 120_000);

  it.for(['up', 'serve'])('%s --log-format json puts the JSON log on stdout, and only that', { timeout: 60_000 }, async (command) => {
    const data = join(root, `json-${command}`);
    if (command === 'serve') expect(spawnSync(JUDGE, ['init', '--data-dir', data], { env: env(), encoding: 'utf8' }).status).toBe(0);
    const extra = command === 'up' ? ['--no-runner'] : [];
    // up on a new directory without a given password: the one-time password goes to stderr, never to stdout's JSON
    const noPassword: Record<string, string> = command === 'up' ? { JUDGE_ADMIN_PASSWORD: '' } : {};
    const run = await started([command, '--data-dir', data, '--port', '0', '--log-format', 'json', ...extra], (out) => (/"msg":"judge \S+ serving /.test(out) ? 'yes' : undefined), noPassword);
    expect(await stopped(run.child)).toBe(0);
    const lines = jsonLines(run.out);
    expect(lines.some((l) => l.msg === 'judge listening')).toBe(true);
    expect(lines.some((l) => /^warning: no runner is approved/.test(l.msg) && l.level === 40)).toBe(true);
    if (command === 'up') expect(run.err).toMatch(/admin \/ \S+/);
    else expect(run.err).toBe('');
    // and the file has them too
    expect(jsonLines(readFileSync(join(data, 'logs', 'judge.log'), 'utf8')).some((l) => l.msg === 'judge listening')).toBe(true);
  });
});

/** Exactly one line on stderr, matching; no stack; a failing exit. */
function refusedWithOneLine(r: ReturnType<typeof spawnSync>, line: RegExp) {
  const stderr = String(r.stderr);
  expect(r.status, stderr).not.toBe(0);
  expect(stderr.trim().split('\n'), stderr).toHaveLength(1);
  expect(stderr.trim()).toMatch(line);
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(String(r.stdout)).toBe('');
}

describe('a start that cannot succeed is one line', () => {
  const judge = (args: string[], extra: Record<string, string> = {}) => spawnSync(JUDGE, args, { env: env(extra), encoding: 'utf8', input: '', timeout: 60_000 });
  let busy: Server | undefined;
  afterAll(() => void busy?.close());

  it.for(['serve', 'up'])('%s on a port in use names the address and --port', { timeout: 60_000 }, async (command) => {
    const data = join(root, `port-${command}`);
    expect(judge(['init', '--data-dir', data]).status).toBe(0);
    busy ??= await new Promise<Server>((r) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => r(s));
    });
    const port = (busy.address() as { port: number }).port;
    refusedWithOneLine(judge([command, '--data-dir', data, '--port', String(port), ...(command === 'up' ? ['--no-runner'] : [])]), new RegExp(`^judge: 127\\.0\\.0\\.1:${port} is already in use by another program: .*--port`));
  });

  it('up on a data directory that cannot be created names it and why', () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'not a directory');
    const dir = join(file, 'data');
    refusedWithOneLine(judge(['up', '--data-dir', dir, '--port', '0', '--no-runner']), new RegExp(`^judge: cannot write to ${dir.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(a part of the path is not a directory\\)$`));
  });

  it('serve on a data directory never initialised says to run judge init', () => {
    refusedWithOneLine(judge(['serve', '--data-dir', join(root, 'never'), '--port', '0']), /^judge: .* holds no judge database; run `judge init --data-dir .*` first$/);
  });

  it('a setting that is not a number names the variable', () => {
    refusedWithOneLine(judge(['serve', '--data-dir', join(root, 'never'), '--port', '0'], { JUDGE_LOGS_KEEP_FILES: 'many' }), /^judge: JUDGE_LOGS_KEEP_FILES: "many" is not a number$/);
  });

  it('settings out of range are named, all of them, on one line', () => {
    refusedWithOneLine(
      judge(['serve', '--data-dir', join(root, 'never'), '--port', '0'], { JUDGE_LOGS_KEEP_FILES: '0', JUDGE_LOGS_MAX_FILE_BYTES: '10' }),
      /^judge: invalid configuration: logs\.maxFileBytes: .*; logs\.keepFiles: .*$/,
    );
  });
});
