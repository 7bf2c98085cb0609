import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/**
 * The built launchers (`pnpm build` first), run as child processes exactly as an administrator
 * types them: judgectl with a config directory of its own, so one test can be several people.
 */
export const BIN = fileURLToPath(new URL('../bin', import.meta.url));
export const JUDGECTL = `${BIN}/judgectl`;
export const JUDGE_RUNNER = `${BIN}/judge-runner`;

export interface ChildResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** A --json failure as judgectl prints it on standard error. */
export interface CtlFailure {
  error: { status: number | null; code: string; detail: string; problem?: Record<string, unknown> };
}

/**
 * Runs a command as a child process with these extra environment variables. Asynchronous on
 * purpose: the server under test runs in the test's process and must keep answering.
 */
export function runChild(file: string, args: string[], env: Record<string, string> = {}): Promise<ChildResult> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { encoding: 'utf8', env: { ...process.env, ...env } }, (err, stdout, stderr) =>
      resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

/** The environment of judgectl keeping its session in `home` and never asking for a password. */
export const judgectlEnv = (home: string) => ({ JUDGECTL_CONFIG_DIR: home, JUDGECTL_PASSWORD: '' });

/** judgectl with its configuration (the stored session) in `home`. */
export function judgectlIn(home: string) {
  const ctl = (...args: string[]) => runChild(JUDGECTL, args, judgectlEnv(home));
  /** Runs with --json and answers the parsed output; fails the test if the command failed. */
  const json = async <T = any>(...args: string[]): Promise<T> => {
    const r = await ctl(...args, '--json');
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return JSON.parse(r.stdout) as T;
  };
  /** Runs with --json, expects a failure, and answers the one JSON object it printed on standard error. */
  const failure = async (...args: string[]): Promise<CtlFailure> => {
    const r = await ctl(...args, '--json');
    expect(r.status, r.stdout).not.toBe(0);
    expect(r.stdout).toBe('');
    return JSON.parse(r.stderr) as CtlFailure;
  };
  /** Runs a command that must fail, and answers its standard error. */
  const refused = async (...args: string[]): Promise<string> => {
    const r = await ctl(...args);
    expect(r.status, `${args.join(' ')} succeeded: ${r.stdout}`).toBe(1);
    return r.stderr;
  };
  return { ctl, json, failure, refused };
}
