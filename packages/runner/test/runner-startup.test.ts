/**
 * What a runner claims when it starts: the work directories of killed runners are removed (never a
 * live one's), and sandbox uids another runner holds are refused with a message naming it. And
 * what it gives up at once: the sandbox runs of work that was withdrawn (a cancelled attempt).
 * Real directories, real processes, real sockets; the refusal comes from bin/judge-runner itself.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outsideCancel, withCancel } from '../src/sandbox/cancel-scope.js';
import { claimUidRange, UidRangeInUse } from '../src/sandbox/host-lock.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import type { RunResult } from '../src/sandbox/types.js';
import { createWorkRoot, processStart, sweepWorkRoots } from '../src/sandbox/work-root.js';

const RUNNER = fileURLToPath(new URL('../../../bin/judge-runner', import.meta.url));
/** Uids of this file's claims: a range no other test file uses. */
const UID_BASE = 60700;

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'runner-startup-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A work root as a runner with this owner would have left it, with a "submission" inside. */
function leftover(parent: string, name: string, owner?: { pid: number; start: string | null }): string {
  const dir = path.join(parent, `judge-sandbox-${name}`);
  fs.mkdirSync(path.join(dir, 'box-1'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'box-1', 'main.cpp'), 'int main() {}\n');
  if (owner) fs.writeFileSync(path.join(dir, '.owner'), JSON.stringify(owner));
  return dir;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '0']);
  expect(r.pid).toBeGreaterThan(0);
  return r.pid;
}

describe('work directories of killed runners', () => {
  it('are removed; those of live runners, fresh ones without an owner, and links are kept', async () => {
    const parent = fs.mkdtempSync(path.join(tmp, 'parent-'));
    const me = { pid: process.pid, start: processStart(process.pid)! };
    const dead = leftover(parent, 'dead', { pid: deadPid(), start: '1' });
    const live = leftover(parent, 'live', me);
    // the same pid, started at another time: the pid was reused, its runner is gone
    const reused = leftover(parent, 'reused', { ...me, start: String(Number(me.start) + 1) });
    const oldUnowned = leftover(parent, 'old');
    const hourAgo = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(oldUnowned, hourAgo, hourAgo);
    const freshUnowned = leftover(parent, 'fresh');
    const target = fs.mkdtempSync(path.join(tmp, 'target-'));
    fs.symlinkSync(target, path.join(parent, 'judge-sandbox-link'));
    const other = path.join(parent, 'not-ours');
    fs.mkdirSync(other);

    const removed = await sweepWorkRoots(parent);
    expect(removed.sort()).toEqual([dead, oldUnowned, reused].sort());
    for (const d of [dead, reused, oldUnowned]) expect(fs.existsSync(d)).toBe(false);
    for (const d of [live, freshUnowned, other, target, path.join(parent, 'judge-sandbox-link')]) expect(fs.existsSync(d)).toBe(true);
  });

  it('a work root made by a sandbox names its owner and is kept while that owner lives', async () => {
    const parent = fs.mkdtempSync(path.join(tmp, 'own-'));
    const root = createWorkRoot(parent);
    expect(fs.statSync(root).mode & 0o777).toBe(0o711);
    expect(JSON.parse(fs.readFileSync(path.join(root, '.owner'), 'utf8'))).toEqual({ pid: process.pid, start: processStart(process.pid) });
    expect(await sweepWorkRoots(parent)).toEqual([]);
    expect(fs.existsSync(root)).toBe(true);
  });

  it('judge-runner start removes a killed runner\'s directory from the temp dir and keeps a live one\'s', async () => {
    // a temp dir of this test's own: every runner started meanwhile by other tests sweeps the shared one
    const own = fs.mkdtempSync(path.join(tmp, 'tmpdir-'));
    const dead = leftover(own, `startup-dead-${process.pid}`, { pid: deadPid(), start: '1' });
    const live = leftover(own, `startup-live-${process.pid}`, { pid: process.pid, start: processStart(process.pid)! });
    try {
      // no server answers: the runner stops after its start-up, which is what is looked at
      const r = await startRunner(['--uid-base', String(UID_BASE + 20), '--server', 'http://127.0.0.1:9'], { TMPDIR: own });
      expect(r.code, r.out).not.toBe(0);
      expect(r.out).toMatch(/removed \d+ work director(y|ies) left by runners that were killed/);
      expect(fs.existsSync(dead)).toBe(false);
      expect(fs.existsSync(live)).toBe(true);
    } finally {
      fs.rmSync(dead, { recursive: true, force: true });
      fs.rmSync(live, { recursive: true, force: true });
    }
  }, 30_000);
});

/** Runs `judge-runner start` with its own config dir until it exits. */
function startRunner(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; out: string }> {
  const dir = fs.mkdtempSync(path.join(tmp, 'runner-'));
  return new Promise((resolve) => {
    const child = spawn(RUNNER, ['start', '--config-dir', dir, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => resolve({ code, out }));
  });
}

describe.runIf(process.geteuid?.() === 0)('sandbox uids are one runner\'s', () => {
  it('a second claim of an overlapping range is refused, naming the holder; a released range can be claimed again', async () => {
    const claim = await claimUidRange(UID_BASE, 2, '/etc/judge-runner');
    const refused = await claimUidRange(UID_BASE + 1, 3).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(UidRangeInUse);
    expect((refused as Error).message).toBe(
      `sandbox uid ${UID_BASE + 1} (of this runner's ${UID_BASE + 1}..${UID_BASE + 3}) is already used by judge-runner pid ${process.pid} (sandbox uids ${UID_BASE}..${UID_BASE + 1}, config /etc/judge-runner): ` +
        `two runners on one host must not share sandbox uids. Start this one with another range, e.g. --uid-base ${UID_BASE + 2}, or stop the other one.`,
    );
    // the refused claim gave back what it had taken, and the range apart is free
    const apart = await claimUidRange(UID_BASE + 2, 2);
    apart.release();
    claim.release();
    const again = await claimUidRange(UID_BASE, 2);
    again.release();
  });

  it('judge-runner start with uids another process holds exits non-zero with that message', async () => {
    const claim = await claimUidRange(UID_BASE + 10, 1);
    try {
      const r = await startRunner(['--uid-base', String(UID_BASE + 10), '--slots', '1', '--server', 'http://127.0.0.1:9']);
      expect(r.code).toBe(1);
      expect(r.out).toContain(`judge-runner: sandbox uid ${UID_BASE + 10} (of this runner's ${UID_BASE + 10}..${UID_BASE + 10}) is already used by judge-runner pid ${process.pid}`);
      expect(r.out).toContain('--uid-base');
    } finally {
      claim.release();
    }
  }, 30_000);

  it('a claim dies with its process, even one killed with SIGKILL', async () => {
    const holder = spawn(process.execPath, [
      '--input-type=module',
      '-e',
      `import { claimUidRange } from ${JSON.stringify(new URL('../dist/sandbox/host-lock.js', import.meta.url).href)};
       await claimUidRange(${UID_BASE + 15}, 1); console.log('claimed'); setInterval(() => {}, 1000);`,
    ], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((r) => holder.stdout.once('data', () => r()));
    await expect(claimUidRange(UID_BASE + 15, 1)).rejects.toThrow(`judge-runner pid ${holder.pid}`);
    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));
    (await claimUidRange(UID_BASE + 15, 1)).release();
  }, 30_000);
});

describe.runIf(Sandbox.findBwrap() !== null && process.geteuid?.() === 0)('withdrawn work', () => {
  const LIMITS = { cpuMs: 20_000, wallMs: 20_000, memoryBytes: 256 << 20, pids: 16, outputBytes: 1 << 20 };

  it('runs started under a cancel signal are killed when it aborts, later ones refused; runs outside it go on', async () => {
    const sandbox = await Sandbox.create({ uidBase: UID_BASE + 30 });
    try {
      const box = await sandbox.prepareBox();
      const sleep = { argv: ['/bin/sleep', '20'], workDir: box.path, limits: LIMITS };
      const withdrawn = new AbortController();
      let outside: Promise<RunResult> | undefined;
      const inside = withCancel(withdrawn.signal, async () => {
        outside = outsideCancel(() => sandbox.run({ ...sleep, argv: ['/bin/sleep', '0.5'] }));
        return sandbox.run(sleep);
      });
      await new Promise((r) => setTimeout(r, 300));
      const aborted = Date.now();
      withdrawn.abort();
      const r = await inside;
      expect(Date.now() - aborted).toBeLessThan(1000);
      expect(r.wallMs).toBeLessThan(5000);
      await expect(withCancel(withdrawn.signal, () => sandbox.run(sleep))).rejects.toThrow(/cancelled/);
      expect((await outside!).status).toBe('ok');
      await box.dispose();
    } finally {
      await sandbox.close();
    }
  }, 30_000);
});
