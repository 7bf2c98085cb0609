import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { ChildResult } from './cli-child.js';

/**
 * What the tests of `judge install-service` and `judge-runner install-service` check alike (both
 * commands write a unit through packages/problem-package/src/systemd-unit.ts): the unit's
 * directives, its ExecStart, systemd's own verdict on it, and the refusal to replace or to write.
 * systemctl is never run; systemd-analyze only reads the unit, where the machine has it.
 */

/** `install-service` with the test's own first arguments (where its data or configuration is). */
export type Install = (...args: string[]) => Promise<ChildResult>;

const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

/** The unit's directives, name=value, in order (comments and sections left out). */
export const directives = (text: string): string[] => text.split('\n').filter((l) => /^[A-Za-z]+=/.test(l));

/** The unit's ExecStart line, and the Node it runs: the one that ran install-service, absolute. */
export function execStart(unit: string): { exec: string; node: string } {
  const exec = directives(unit).find((d) => d.startsWith('ExecStart='))!;
  const node = exec.split(' ')[0]!.slice('ExecStart='.length);
  expect(node).toMatch(/^\//);
  expect(existsSync(node)).toBe(true);
  return { exec, node };
}

/** Every directive but ExecStart of a service both commands write: after the network, restarted when it fails, stopped by SIGTERM to the main process first. */
export function serviceDirectives(o: { description: string; user: string; stopSeconds: number; delegate: boolean }): string[] {
  return [
    `Description=${o.description}`,
    'Wants=network-online.target',
    'After=network-online.target',
    'Type=simple',
    `User=${o.user}`,
    'Restart=on-failure',
    'RestartSec=5',
    'KillSignal=SIGTERM',
    'KillMode=mixed',
    `TimeoutStopSec=${o.stopSeconds}`,
    ...(o.delegate ? ['Delegate=yes'] : []),
    'WantedBy=multi-user.target',
  ];
}

/** systemd-analyze finds nothing to say about the unit (where the machine has it). */
export function expectSystemdAccepts(path: string): void {
  if (!hasAnalyze) return;
  const verify = spawnSync('systemd-analyze', ['verify', path], { encoding: 'utf8' });
  expect(verify.status, verify.stderr).toBe(0);
  expect(verify.stderr).not.toContain(path);
}

/**
 * The same unit again is left alone; a different one (`change` added to the arguments) is refused
 * without touching the file, and written with --force, where the unit then matches `changed`.
 * Answers the refusal, for what a command checks beyond.
 */
export async function expectReplacedOnlyWithForce(install: Install, path: string, change: string[], changed: RegExp): Promise<ChildResult> {
  expect((await install('--output', path)).status).toBe(0);
  const first = readFileSync(path, 'utf8');
  const same = await install('--output', path);
  expect(same.status).toBe(0);
  expect(same.stdout).toMatch(/^Unchanged /);

  const refused = await install('--output', path, ...change);
  expect(refused.status).toBe(1);
  expect(refused.stderr).toMatch(/exists and differs .* add --force/);
  expect(readFileSync(path, 'utf8')).toBe(first);

  const forced = await install('--output', path, ...change, '--force');
  expect(forced.status, forced.stderr).toBe(0);
  expect(forced.stdout).toMatch(/^Replaced /);
  expect(readFileSync(path, 'utf8')).toMatch(changed);
  return refused;
}

/** Each of the bad argument lists fails, and no unit is written at `path`. */
export async function expectRefusedWritingNothing(install: Install, path: string, bad: string[][]): Promise<void> {
  for (const args of bad) {
    const r = await install('--output', path, ...args);
    expect(r.status, args.join(' ')).not.toBe(0);
  }
  expect(existsSync(path)).toBe(false);
}
