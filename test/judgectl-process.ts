import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** The built launcher (`pnpm build` first), run as typed in a terminal. */
export const CTL = fileURLToPath(new URL('../bin/judgectl', import.meta.url));

export interface CtlResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** A --json failure as judgectl prints it on standard error. */
export interface CtlFailure {
  error: { status: number | null; code: string; detail: string; problem?: Record<string, unknown> };
}

/**
 * judgectl with its own config directory `home` (so one test signs in as someone else than
 * another): asynchronous on purpose, as the server under test runs in the test's process.
 */
export function judgectlIn(home: string) {
  const ctl = (...args: string[]) =>
    new Promise<CtlResult>((resolve) => {
      const child = execFile(CTL, args, { encoding: 'utf8', env: { ...process.env, JUDGECTL_CONFIG_DIR: home, JUDGECTL_PASSWORD: '' } }, (err, stdout, stderr) =>
        resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
      child.stdin?.end();
    });
  /** Runs with --json and answers the parsed output; fails the test if the command failed. */
  const json = async <T>(...args: string[]): Promise<T> => {
    const r = await ctl(...args, '--json');
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as T;
  };
  /** Runs with --json, expects a failure, and answers the one JSON object it printed on standard error. */
  const failure = async (...args: string[]): Promise<CtlFailure> => {
    const r = await ctl(...args, '--json');
    expect(r.status, r.stdout).not.toBe(0);
    expect(r.stdout).toBe('');
    return JSON.parse(r.stderr) as CtlFailure;
  };
  return { ctl, json, failure };
}
