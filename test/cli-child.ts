import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built launchers (`pnpm build` first), run as an administrator types them. */
export const BIN = fileURLToPath(new URL('../bin', import.meta.url));
export const JUDGECTL = `${BIN}/judgectl`;
export const JUDGE_RUNNER = `${BIN}/judge-runner`;

export interface ChildResult {
  status: number;
  stdout: string;
  stderr: string;
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

/** judgectl with its configuration (the stored session) in `home`, never asking for a password. */
export const judgectlIn =
  (home: string) =>
  (...args: string[]): Promise<ChildResult> =>
    runChild(JUDGECTL, args, { JUDGECTL_CONFIG_DIR: home, JUDGECTL_PASSWORD: '' });
