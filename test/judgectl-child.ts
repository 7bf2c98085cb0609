import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { JUDGECTL, judgectlEnv, judgectlIn, type ChildResult } from './cli-child.js';

export const CTL = JUDGECTL;
export type Ran = ChildResult;

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
  const { ctl, json, refused } = judgectlIn(home);
  const session: CtlSession = {
    run: ctl,
    env: { ...process.env, ...judgectlEnv(home) },
    ok: json,
    refused,
    close: () => rmSync(home, { recursive: true, force: true }),
  };
  const login = await ctl('login', '--server', server, '--username', username, '--password-file', join(home, 'pw'));
  expect(login.status, login.stderr).toBe(0);
  return session;
}
