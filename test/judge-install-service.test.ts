import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runChild } from './cli-child.js';
import { helpFlags, unknownFlags } from './command-flags.js';
import { directives, execStart, expectRefusedWritingNothing, expectReplacedOnlyWithForce, expectSystemdAccepts, serviceDirectives } from './systemd-unit-checks.js';

// `judge install-service` as a child process, writing to a temporary path: systemctl is never run
// here; the unit's content is checked, and by systemd-analyze where the machine has it.

const JUDGE = `${BIN}/judge`;
const MAIN = fileURLToPath(new URL('../packages/server/dist/main.js', import.meta.url));
const CHEAP = { JUDGE_AUTH_ARGON2_MEMORY_KIB: '1024', JUDGE_AUTH_ARGON2_ITERATIONS: '1', JUDGE_ADMIN_PASSWORD: 'service-admin-password' };

describe('judge install-service', { timeout: 120_000 }, () => {
  let work: string;
  let data: string;
  const install = (...args: string[]) => runChild(JUDGE, ['install-service', '--data-dir', data, ...args]);

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'judge-install-service-'));
    data = join(work, 'course data');
    const init = await runChild(JUDGE, ['init', '--data-dir', data], CHEAP);
    expect(init.status, init.stderr).toBe(0);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('writes a unit that runs judge up on the data directory with this Node and this install, after the network, restarted on failure', async () => {
    const path = join(work, 'judge.service');
    const r = await install('--output', path, '--host', '0.0.0.0', '--public-url', 'https://judge.school.example', '--runner-uid-base', '62950');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(`Wrote ${path}: judge up on ${data}, as root.`);
    expect(r.stdout).toMatch(/^ {2}systemctl daemon-reload && systemctl enable --now judge$/m);
    const unit = readFileSync(path, 'utf8');
    const { exec, node } = execStart(unit);
    expect(exec).toBe(`ExecStart=${node} ${MAIN} up --data-dir "${data}" --host 0.0.0.0 --public-url https://judge.school.example --runner-uid-base 62950 --log-format json`);
    expect(directives(unit).filter((d) => !d.startsWith('ExecStart='))).toEqual(
      serviceDirectives({ description: `judge: the online judge's server and its local runner on ${data}`, user: 'root', stopSeconds: 90, delegate: true }),
    );
    // every flag of the command line is one `judge up` accepts
    expect(unknownFlags(exec, helpFlags(JUDGE, ['up']))).toEqual([]);
    expectSystemdAccepts(path);
  });

  it('with --no-runner runs judge serve as the user given; certificate files are made absolute', async () => {
    const path = join(work, 'course.service');
    const r = await runChild(JUDGE, ['install-service', '--data-dir', data, '--output', path, '--no-runner', '--user', 'judge', '--tls-cert', 'tls/judge.crt', '--tls-key', 'tls/judge.key', '--json'], {}, work);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ path, outcome: 'written', dataDir: data, command: 'serve', enable: 'systemctl daemon-reload && systemctl enable --now course' });
    const unit = directives(readFileSync(path, 'utf8'));
    expect(unit).toContain('User=judge');
    expect(unit).toContain('TimeoutStopSec=30');
    expect(unit).not.toContain('Delegate=yes');
    const exec = unit.find((d) => d.startsWith('ExecStart='))!;
    expect(exec).toMatch(new RegExp(` serve --data-dir ".*" --tls-cert ${work}/tls/judge\\.crt --tls-key ${work}/tls/judge\\.key --log-format json$`));
    expect(unknownFlags(exec, helpFlags(JUDGE, ['serve']))).toEqual([]);
  });

  it('leaves the same unit alone, and replaces a different one only with --force', async () => {
    const refused = await expectReplacedOnlyWithForce(install, join(work, 'again.service'), ['--port', '8443'], / --port 8443 /);
    // the flag the refusal names is one the command accepts
    expect(unknownFlags(refused.stderr, helpFlags(JUDGE, ['install-service']))).toEqual([]);
  });

  it('refuses a data directory not initialised (up would log the admin password), and bad values, writing nothing', async () => {
    const path = join(work, 'never.service');
    const fresh = await runChild(JUDGE, ['install-service', '--data-dir', join(work, 'empty'), '--output', path]);
    expect(fresh.status).toBe(1);
    expect(fresh.stderr).toMatch(/holds no judge database: run `judge init --data-dir .*empty` first/);
    await expectRefusedWritingNothing(install, path, [['--runner-uid-base', '10'], ['--port', '0'], ['--public-url', 'ftp://x'], ['--user', 'a b'], ['--tls-cert', 'only.crt']]);
  });
});
