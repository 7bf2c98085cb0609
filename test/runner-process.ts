import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { testAppsOnPostgres } from '../packages/server/test/pg-cluster.js';
import { until } from '../packages/server/test/support/wait.js';

export const RUNNER = fileURLToPath(new URL('../bin/judge-runner', import.meta.url));

/**
 * A test file's first sandbox uid in this run. `pnpm test` runs the end-to-end files on both engines
 * at once (scripts/run-tests.mjs), and a runner refuses a uid range another runner of the host holds:
 * the same file's runner in the other run would stop at start. The PostgreSQL run's runners take the
 * range 25 above (the files' ranges are at least 50 apart, and a file uses at most four slots).
 */
export function uidBaseOfRun(base: number): number {
  return testAppsOnPostgres() ? base + 25 : base;
}

/** A real `bin/judge-runner` child process, registered with a test server and approved. */
export interface RunnerProcess {
  child: ChildProcess;
  /** Everything it printed, stdout and stderr, as it came. */
  logs: string[];
  /** Stops it if it still runs. */
  stop(signal?: NodeJS.Signals): void;
}

export interface RunnerProcessOptions {
  url: string;
  admin: JudgeClient;
  name: string;
  /** Its config directory (the key is made there). */
  dir: string;
  /** A uid range of the test file's own, apart from the other end-to-end files' sandboxes. */
  uidBase: number;
  /** More `judge-runner start` options. */
  args?: string[];
  /** Wait until it says it is judging (default true). */
  waitJudging?: boolean;
}

/** Registers a runner (`judge-runner register`), approves it as the admin, starts it, and waits until it judges. */
export async function startRunnerProcess(o: RunnerProcessOptions): Promise<RunnerProcess> {
  const reg = await new Promise<string>((resolve, reject) =>
    execFile(RUNNER, ['register', '--server', o.url, '--name', o.name, '--config-dir', o.dir, '--json'], { encoding: 'utf8' }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
  await o.admin.call(ops.approveRunner, { params: { id: (JSON.parse(reg) as { runnerId: string }).runnerId } });
  const child = spawn(RUNNER, ['start', '--config-dir', o.dir, '--uid-base', String(o.uidBase), ...(o.args ?? [])], { stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: string[] = [];
  child.stdout!.on('data', (d: Buffer) => logs.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => logs.push(d.toString()));
  // the runner probes its languages before it judges: on a loaded machine (CI runs both engines' suites at once) that took over 30 s
  if (o.waitJudging ?? true) {
    try {
      await until('the runner judging', () => (logs.some((l) => l.includes('judging for')) || child.exitCode !== null ? true : undefined), 90_000, 100);
      if (child.exitCode !== null) throw new Error(`it exited (${child.exitCode})`);
    } catch (e) {
      child.kill('SIGKILL');
      throw new Error(`the runner ${o.name} did not start judging: ${(e as Error).message}; it printed:\n${logs.join('')}`);
    }
  }
  return { child, logs, stop: (signal = 'SIGTERM') => void (child.exitCode === null && child.signalCode === null && child.kill(signal)) };
}

/** The runner's config directory under a test's work directory. */
export const runnerDir = (work: string): string => join(work, 'runner');
