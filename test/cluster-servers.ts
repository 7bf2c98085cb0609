import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ops, type Health } from '@judge/contract';
import { JudgeClient, RunnerClient, generateRunnerKey } from '@judge/sdk';
import { JUDGE } from '../packages/server/test/support/judge-process.js';
import { until } from '../packages/server/test/support/wait.js';

/**
 * Several real `judge serve` processes on one PostgreSQL database, for the multi-server end-to-end
 * test (docs/storage.md, "Several servers"): each with a data directory of its own whose `files`
 * is a link to one shared directory, and a runner client that answers every job at once.
 */

export const ADMIN_PASSWORD = 'cluster-e2e-admin-password';

/** Whether this machine has PostgreSQL for the test cluster (Debian's `postgresql`), or the tests were given a server. */
export function postgresAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  if (/^postgres(ql)?:\/\//.test(env.JUDGE_TEST_DATABASE ?? '')) return true;
  return existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));
}

/** The environment every server of the cluster starts with: one database, cheap hashing, budgets a test's own traffic stays under. */
export function clusterEnv(database: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    // the URL goes through the environment, not the command line, as the README advises
    JUDGE_DATABASE: database,
    JUDGE_ADMIN_PASSWORD: ADMIN_PASSWORD,
    JUDGE_AUTH_ARGON2_MEMORY_KIB: '1024',
    JUDGE_AUTH_ARGON2_ITERATIONS: '1',
    JUDGE_AUTH_LOGIN_ATTEMPTS_PER_MINUTE: '100000',
    JUDGE_AUTH_LOGIN_FAILURES_PER_MINUTE: '1000',
    JUDGE_AUTH_ACCOUNT_LOGIN_FAILURES_PER_MINUTE: '1000',
    JUDGE_LIMITS_REQUESTS_PER_MINUTE: '1000000',
    JUDGE_LOG_LEVEL: 'warn',
    ...extra,
  };
  delete env.JUDGE_DATA_DIR;
  return env;
}

/** One `judge serve` child process. */
export interface ClusterServer {
  name: string;
  child: ChildProcess;
  url: string;
  dataDir: string;
  /** What it printed, stdout and stderr. */
  output(): string;
  health(client?: JudgeClient): Promise<Health>;
  /** kill -9: no shutdown, its database sessions (and the leader's advisory lock) die with it. */
  kill(): Promise<void>;
}

/**
 * A data directory whose `files` is a link to the shared directory. In production the `filesDir`
 * setting names the shared mount (docs/storage.md, "Files"); a link to it is the same thing to the
 * server, which reads and writes through the path either way.
 */
export function linkedDataDir(work: string, name: string, sharedFiles: string): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  mkdirSync(sharedFiles, { recursive: true });
  symlinkSync(sharedFiles, join(dir, 'files'));
  return dir;
}

/** `judge init` on the database (once for the cluster: it makes the admin account). */
export function initCluster(dataDir: string, env: Record<string, string>): void {
  const r = spawnSync(JUDGE, ['init', '--data-dir', dataDir], { env, encoding: 'utf8', input: '', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`judge init failed: ${r.stderr}${r.stdout}`);
}

/** Starts `judge serve` on its own data directory and resolves once it listens. */
export async function serve(name: string, dataDir: string, env: Record<string, string>): Promise<ClusterServer> {
  const child = spawn(JUDGE, ['serve', '--data-dir', dataDir, '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = await until(`${name} to listen`, () => {
    if (child.exitCode !== null) throw new Error(`judge serve (${name}) exited ${child.exitCode}: ${out}`);
    return /serving (http:\/\/\S+)\/api\/v1/.exec(out)?.[1];
  }, 60_000, 50);
  return {
    name,
    child,
    url,
    dataDir,
    output: () => out,
    health: (client = new JudgeClient({ baseUrl: url })) => client.call(ops.health),
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A runner client on one server that answers every job it claims at once with AC, recording each claim. */
export class InstantRunner {
  readonly claims: { jobId: string; submissionId: string }[] = [];
  errors = 0;
  private running = false;
  private loop: Promise<void> | undefined;

  private constructor(readonly client: RunnerClient) {}

  static async register(url: string, admin: JudgeClient, name: string, problemType: string): Promise<InstantRunner> {
    const client = new RunnerClient({ baseUrl: url, key: generateRunnerKey(), userAgent: 'cluster-e2e' });
    const reg = await client.register({ name, problemTypes: [problemType], version: 'cluster-e2e' });
    await admin.call(ops.approveRunner, { params: { id: reg.runnerId } });
    await client.authenticate();
    return new InstantRunner(client);
  }

  start(leaseSeconds = 60): void {
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        try {
          const job = await this.client.claim({ leaseSeconds, waitSeconds: 1 });
          if (!job) continue;
          this.claims.push({ jobId: job.jobId, submissionId: job.submissionId });
          await this.client.report(job, { verdict: 'AC', score: 1, maxScore: 1, runnerVersion: 'cluster-e2e' });
        } catch {
          // its server was killed, or a report raced a reaped lease: counted, and the loop goes on
          this.errors++;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}

/**
 * With JUDGE_TEST_LOGS=DIR, each server's log is copied into DIR before the test removes its data
 * directory: what a 500's request id points at.
 */
export function keepLogs(servers: (ClusterServer | undefined)[]): void {
  const dir = process.env.JUDGE_TEST_LOGS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const s of servers) {
    const log = s && join(s.dataDir, 'logs', 'judge.log');
    if (log && existsSync(log)) copyFileSync(log, join(dir, `cluster-e2e-${process.pid}-${s.name}.log`));
  }
}
