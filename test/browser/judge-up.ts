import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JudgeClient } from '@judge/sdk';
import { freshDatabase, testAppsOnPostgres, type TestDatabase } from '../../packages/server/test/pg-cluster.js';

const JUDGE = fileURLToPath(new URL('../../bin/judge', import.meta.url));

/**
 * Sandbox uids of the browser tests' local runner. The end-to-end tests hold fixed ranges in
 * 60000-61799 and the sandbox tests draw from 63000 up; two slots from here collide with neither.
 */
export const BROWSER_RUNNER_UID_BASE = 61850;

export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'browser-tests-admin-password';

/** Cheap hashing, quiet logs, and no sign-in limit for the many sign-ins of one address a test makes. */
const TEST_ENV = {
  JUDGE_AUTH_ARGON2_MEMORY_KIB: '1024',
  JUDGE_AUTH_ARGON2_ITERATIONS: '1',
  JUDGE_AUTH_LOGIN_ATTEMPTS_PER_MINUTE: '100000',
  JUDGE_LOG_LEVEL: 'warn',
};

export interface JudgeUpOptions {
  /** The built web app to serve (JUDGE_WEB_DIR); by default the checkout's packages/web/dist. */
  webDir?: string;
  /** Start the local runner (default true); without it nothing is judged. */
  runner?: boolean;
  /** More JUDGE_* settings for the server. */
  env?: Record<string, string>;
  /**
   * First sandbox uid of the local runner (two slots; default BROWSER_RUNNER_UID_BASE). Browser
   * test files run two at a time, so each passes its own: 61850 (serve), 62300, 62500, 62700, 62900
   * (free of the sandbox tests, which draw from 63000 up).
   */
  runnerUidBase?: number;
  /** How long to wait for the server and its runner (default 60 s). */
  startTimeoutMs?: number;
}

export interface RunningJudge {
  /** e.g. http://127.0.0.1:41234, no trailing slash; the same across restart(). */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly adminUsername: string;
  readonly adminPassword: string;
  /** A client signed in as the administrator (bearer token), to set up what a test needs. */
  admin(): Promise<JudgeClient>;
  /** Everything the process printed so far, stdout and stderr, for a failure message. */
  output(): string;
  /** SIGTERM, waiting for a clean exit (SIGKILL after 15 s). */
  stop(): Promise<void>;
  /** stop() then `judge up` again on the same data directory and port: a server restarted mid-test. */
  restart(): Promise<void>;
  /** stop() and remove the data directory. */
  dispose(): Promise<void>;
}

const running = new Set<ChildProcess>();
// a test that dies half-way must not leave a server (and its runner's sandboxes) behind
process.once('exit', () => {
  for (const c of running) c.kill('SIGKILL');
});

interface Launch {
  child: ChildProcess;
  url: string;
}

function launch(dataDir: string, port: number, opts: JudgeUpOptions, log: { text: string }, database?: TestDatabase): Promise<Launch> {
  const args = ['up', '--data-dir', dataDir, '--port', String(port), '--host', '127.0.0.1'];
  if (database) args.push('--database', database.url);
  if (opts.runner === false) args.push('--no-runner');
  else args.push('--runner-uid-base', String(opts.runnerUidBase ?? BROWSER_RUNNER_UID_BASE));
  const env: Record<string, string> = { ...(process.env as Record<string, string>), ...TEST_ENV, ...opts.env, JUDGE_ADMIN_PASSWORD: ADMIN_PASSWORD };
  if (opts.webDir) env.JUDGE_WEB_DIR = opts.webDir;
  const child = spawn(JUDGE, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const from = log.text.length;
  const append = (b: Buffer) => (log.text += b.toString());
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const ms = opts.startTimeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const done = (e?: Error, l?: Launch) => {
      clearInterval(poll);
      clearTimeout(timer);
      child.off('exit', exited);
      if (e) {
        child.kill('SIGKILL');
        reject(e);
      } else resolve(l!);
    };
    const exited = (code: number | null) => done(new Error(`judge up exited (${code}) before it was ready:\n${log.text.slice(from)}`));
    child.once('exit', exited);
    const timer = setTimeout(() => done(new Error(`judge up was not ready within ${ms} ms:\n${log.text.slice(from)}`)), ms);
    const poll = setInterval(() => {
      const out = log.text.slice(from);
      const served = /serving (http:\/\/\S+)\/api\/v1/.exec(out);
      if (!served) return;
      if (opts.runner !== false) {
        const without = /local runner: not started: (.*)/.exec(out);
        if (without) return done(new Error(`judge up cannot judge on this machine: ${without[1]} (the browser tests need root, bubblewrap and a writable cgroup; see bin/judge-runner check)`));
        if (!/runner local connected/.test(out)) return;
      }
      done(undefined, { child, url: served[1]! });
    }, 50);
  });
}

function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * A real `judge up` (bin/judge, so `pnpm build` first) on a fresh data directory and a free port,
 * with its local runner judging in the real sandbox, as a school starts it. In the PostgreSQL run
 * (JUDGE_TEST_DATABASE, scripts/run-tests.mjs) it keeps its data in a fresh database of the test
 * cluster (`--database`), dropped by dispose().
 */
export async function startJudgeUp(opts: JudgeUpOptions = {}): Promise<RunningJudge> {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'judge-browser-')), 'data');
  const log = { text: '' };
  const database = testAppsOnPostgres() ? await freshDatabase() : undefined;
  let current = await launch(dataDir, 0, opts, log, database);
  const url = current.url;
  const port = Number(new URL(url).port);
  const stop = () => terminate(current.child);
  return {
    url,
    port,
    dataDir,
    adminUsername: ADMIN_USERNAME,
    adminPassword: ADMIN_PASSWORD,
    async admin() {
      const c = new JudgeClient({ baseUrl: url });
      await c.login(ADMIN_USERNAME, ADMIN_PASSWORD);
      return c;
    },
    output: () => log.text,
    stop,
    async restart() {
      await stop();
      current = await launch(dataDir, port, opts, log, database);
    },
    async dispose() {
      await stop();
      await database?.drop();
      rmSync(join(dataDir, '..'), { recursive: true, force: true });
    },
  };
}
