/**
 * The seams of the sandbox's supervisor: the status decision (sandbox/verdict.ts), the cgroup
 * hierarchy discovery (sandbox/cgroup-common.ts), and a run whose bwrap never starts the program
 * (the child-pid phase fails, the abort phase cleans up) in the real sandbox.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox, type Limits } from '@judge/runner';
import { cgroupMounts, ownCgroups } from '../src/sandbox/cgroups.js';
import { decide } from '../src/sandbox/verdict.js';

const MiB = 1024 * 1024;
const LIMITS: Limits = { cpuMs: 1000, wallMs: 3000, memoryBytes: 64 * MiB, pids: 8, outputBytes: MiB };

type Facts = Parameters<typeof decide>[0];
const facts = (over: Partial<Facts> = {}): Facts => ({
  limits: LIMITS,
  none: false,
  killedFor: undefined,
  code: 0,
  signal: null,
  cpuMs: 10,
  wallMs: 20,
  memoryBytes: MiB,
  oomKills: 0,
  pidsRefused: 0,
  stdoutBytes: 0,
  stderrBytes: 0,
  stderrTail: '',
  outOfMemory: [],
  ...over,
});

describe('the status of a finished run', () => {
  it('takes CPU time first, then wall time, memory, output, a kill by the runner, the exit', () => {
    expect(decide(facts()).status).toBe('ok');
    expect(decide(facts({ killedFor: 'wall', cpuMs: 1500, code: 137 })).status).toBe('tle');
    expect(decide(facts({ killedFor: 'wall', oomKills: 1, code: 137 }))).toMatchObject({ status: 'wall', reason: 'wall-clock limit exceeded (3000 ms)' });
    expect(decide(facts({ oomKills: 1, killedFor: 'ole', code: 137 }))).toMatchObject({ status: 'mle', reason: 'out of memory (limit 64 MiB)' });
    expect(decide(facts({ stdoutBytes: MiB + 1 }))).toMatchObject({ status: 'ole', reason: `output limit exceeded (${MiB} bytes)` });
    expect(decide(facts({ killedFor: 'user', code: 137 }))).toMatchObject({ status: 're', reason: 'killed by the runner' });
    expect(decide(facts({ code: 3, pidsRefused: 2 }))).toMatchObject({ status: 're', reason: 'exit code 3; process limit (8) reached' });
  });

  it('reads a signal from the 128+n exit status of the sandbox and a runtime out-of-memory message from stderr', () => {
    expect(decide(facts({ code: 139 }))).toMatchObject({ status: 're', signal: 'SIGSEGV', reason: 'killed by SIGSEGV' });
    expect(decide(facts({ code: 128 + 25 })).status).toBe('ole'); // SIGXFSZ: RLIMIT_FSIZE
    const oom = [{ exitCode: 1, stderr: '^MemoryError' }];
    expect(decide(facts({ code: 1, stderrTail: 'Traceback\nMemoryError\n', outOfMemory: oom }))).toMatchObject({ status: 'mle', reason: 'out of memory (MemoryError)' });
    expect(decide(facts({ code: 2, stderrTail: 'MemoryError\n', outOfMemory: oom })).status).toBe('re');
  });

  it('without cgroups, a SIGKILL after the CPU limit in wall time is TLE (RLIMIT_CPU in whole seconds)', () => {
    expect(decide(facts({ none: true, signal: 'SIGKILL', code: null, wallMs: 1200 })).status).toBe('tle');
    expect(decide(facts({ none: true, signal: 'SIGKILL', code: null, wallMs: 300 })).status).toBe('re');
  });
});

describe('cgroup hierarchies', () => {
  it('finds v1 controllers and the v2 tree in mountinfo, and our own cgroup per controller', () => {
    const mountinfo = [
      '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
      '32 31 0:29 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
      '33 31 0:30 /runner /sys/fs/cgroup/pids\\040x rw,relatime - cgroup cgroup rw,pids',
      '34 31 0:31 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
    ].join('\n');
    expect(cgroupMounts(mountinfo)).toEqual([
      { mountPoint: '/sys/fs/cgroup/memory', root: '/', v2: false, controllers: ['memory'] },
      { mountPoint: '/sys/fs/cgroup/pids x', root: '/runner', v2: false, controllers: ['pids'] },
      { mountPoint: '/sys/fs/cgroup/unified', root: '/', v2: true, controllers: [] },
    ]);
    const own = ownCgroups('9:name=systemd:/\n4:memory:/job/7\n3:cpu,cpuacct:/\n0::/job/7\n');
    expect([...own.entries()]).toEqual([
      ['memory', '/job/7'],
      ['cpu', '/'],
      ['cpuacct', '/'],
      ['', '/job/7'],
    ]);
  });
});

const hasBwrap = Sandbox.findBwrap() !== null;

describe.skipIf(!hasBwrap)('a sandbox that never starts the program', () => {
  let dir: string;
  let sandbox: Sandbox;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'judge-phases-'));
    fs.chmodSync(dir, 0o755);
    // answers --version like bwrap, then fails the way a bwrap that cannot set up would
    const fake = path.join(dir, 'bwrap');
    fs.writeFileSync(fake, '#!/bin/sh\nif [ "$1" = --version ]; then echo "bubblewrap 0.9.0"; exit 0; fi\necho "bwrap: cannot set up" >&2\nexit 1\n', { mode: 0o755 });
    sandbox = await Sandbox.create({ workRoot: path.join(dir, 'work'), bwrapPath: fake, insecureNoCgroup: true });
  });
  afterAll(async () => {
    await sandbox?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('fails the run with bwrap\'s own words and leaves no cgroup or run behind', async () => {
    const box = await sandbox.prepareBox();
    const stderr = path.join(dir, 'stderr');
    const run = sandbox.start({ argv: ['/bin/true'], workDir: box.path, stdout: 'ignore', stderr: { path: stderr }, limits: LIMITS });
    await expect(run.result).rejects.toThrow(/the sandbox did not start \(bwrap exit 1\): bwrap: cannot set up/);
    const runs = sandbox
      .describeBackend()
      .split(', ')
      .filter((d) => d.startsWith('/sys/fs/cgroup'))
      .flatMap((d) => fs.readdirSync(d).filter((n) => n.startsWith('run-')));
    expect(runs).toEqual([]);
    await box.dispose();
    // nothing is left running: close does not wait
    await sandbox.close();
  });
});
