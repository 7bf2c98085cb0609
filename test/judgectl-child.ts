import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

// The built launcher (`pnpm build` first): every call a child process, as typed in a terminal.
export const CTL = fileURLToPath(new URL('../bin/judgectl', import.meta.url));

export interface Ran {
  status: number;
  stdout: string;
  stderr: string;
}

/** judgectl signed in as one account, with a config directory of its own. */
export interface CtlSession {
  /** Runs a command; asynchronous, so that a server in this process keeps answering. */
  run(...args: string[]): Promise<Ran>;
  /** Runs a command with --json that must succeed, and answers its parsed output. */
  ok<T = any>(...args: string[]): Promise<T>;
  /** Runs a command that must fail, and answers its standard error. */
  refused(...args: string[]): Promise<string>;
  /** The environment its commands run with (its own config directory). */
  env: NodeJS.ProcessEnv;
  close(): void;
}

export async function judgectlAs(server: string, username: string, password: string): Promise<CtlSession> {
  const home = mkdtempSync(join(tmpdir(), 'judgectl-as-'));
  writeFileSync(join(home, 'pw'), `${password}\n`);
  const env = { ...process.env, JUDGECTL_CONFIG_DIR: home, JUDGECTL_PASSWORD: '' };
  const run = (...args: string[]) =>
    new Promise<Ran>((resolve) => {
      const child = execFile(CTL, args, { encoding: 'utf8', env }, (err, stdout, stderr) =>
        resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
      child.stdin?.end();
    });
  const session: CtlSession = {
    run,
    env,
    async ok(...args) {
      const r = await run(...args, '--json');
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return JSON.parse(r.stdout);
    },
    async refused(...args) {
      const r = await run(...args);
      expect(r.status, `${args.join(' ')} succeeded: ${r.stdout}`).toBe(1);
      return r.stderr;
    },
    close: () => rmSync(home, { recursive: true, force: true }),
  };
  const login = await run('login', '--server', server, '--username', username, '--password-file', join(home, 'pw'));
  expect(login.status, login.stderr).toBe(0);
  return session;
}
