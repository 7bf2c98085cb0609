import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JUDGE_RUNNER, runChild } from './cli-child.js';
import { directives, execStart, expectRefusedWritingNothing, expectReplacedOnlyWithForce, expectSystemdAccepts, serviceDirectives } from './systemd-unit-checks.js';

// `judge-runner install-service` as a child process, writing to a temporary path: systemctl is
// never run here; the unit's content is checked, and by systemd-analyze where the machine has it.

const MAIN = fileURLToPath(new URL('../packages/runner/dist/main.js', import.meta.url));

describe('judge-runner install-service', { timeout: 120_000 }, () => {
  let work: string;
  let cfg: string;
  const install = (...args: string[]) => runChild(JUDGE_RUNNER, ['install-service', '--config-dir', cfg, ...args]);

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'install-service-'));
    cfg = join(work, 'runner config');
    // what `register` leaves behind (the server it registered with, its name)
    const registered = { server: 'http://judge.lab:8080', name: 'lab-07', tags: [] };
    spawnSync('mkdir', ['-p', cfg]);
    writeFileSync(join(cfg, 'runner.json'), JSON.stringify(registered));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('writes a unit that runs start with this Node and this install, restarts on failure and stops gently', async () => {
    const path = join(work, 'judge-runner.service');
    const r = await install('--output', path, '--uid-base', '62800', '--slots', '2');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(`Wrote ${path}: judge-runner start for http://judge.lab:8080, as root`);
    expect(r.stdout).toMatch(/^ {2}systemctl daemon-reload && systemctl enable --now judge-runner$/m);
    const unit = readFileSync(path, 'utf8');
    // the Node that ran install-service (the launcher's `node`), absolute, and this install's main.js
    const { exec, node } = execStart(unit);
    expect(exec).toBe(`ExecStart=${node} ${MAIN} start --config-dir "${cfg}" --uid-base 62800 --slots 2 --grace 30`);
    expect(directives(unit).filter((d) => !d.startsWith('ExecStart='))).toEqual(
      serviceDirectives({ description: 'judge-runner: judges submissions in a sandbox for the judge it registered with', user: 'root', stopSeconds: 60, delegate: true }),
    );
    expectSystemdAccepts(path);
  });

  it('takes the server, the user and the grace; systemd waits 30 s beyond the grace', async () => {
    const path = join(work, 'lab.service');
    const r = await install('--output', path, '--server', 'https://judge.example.org/ignored', '--user', 'judge', '--grace', '120', '--json');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ path, outcome: 'written', server: 'https://judge.example.org', enable: 'systemctl daemon-reload && systemctl enable --now lab' });
    const unit = directives(readFileSync(path, 'utf8'));
    expect(unit).toContain('User=judge');
    expect(unit).toContain('TimeoutStopSec=150');
    expect(unit.find((d) => d.startsWith('ExecStart='))).toMatch(/ start --config-dir ".*" --server https:\/\/judge\.example\.org --grace 120$/);
  });

  it('leaves the same unit alone, and replaces a different one only with --force', async () => {
    await expectReplacedOnlyWithForce(install, join(work, 'again.service'), ['--slots', '4'], /--slots 4 /);
  });

  it('refuses a machine that has not registered, and bad values, writing nothing', async () => {
    const path = join(work, 'never.service');
    const unregistered = await runChild(JUDGE_RUNNER, ['install-service', '--config-dir', join(work, 'empty'), '--output', path]);
    expect(unregistered.status).toBe(1);
    expect(unregistered.stderr).toMatch(/no runner configuration in .*: run `judge-runner register --server URL` first/);
    await expectRefusedWritingNothing(install, path, [['--uid-base', '10'], ['--slots', '0'], ['--grace', '-1'], ['--server', 'ftp://x'], ['--user', 'a b']]);
  });
});
