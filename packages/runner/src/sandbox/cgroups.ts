/**
 * Cgroup backends: where each run's processes are counted, limited and killed.
 *
 * - `cgroup-v1`: a v1 (or hybrid) host: memory (+ memsw), pids and cpuacct hierarchies, plus the
 *   unified v2 tree's `cgroup.kill` / `cgroup.procs` when it is mounted and writable.
 * - `cgroup-v2`: a pure v2 host with the memory and pids controllers delegated to us.
 * - `none`: no writable cgroup; the sandbox falls back to rlimits (see Sandbox).
 *
 * Runs' directories are removed after each run, the rest by `close()`. The shared parts are in
 * cgroup-common.ts, the backends in cgroup-v1.ts and cgroup-v2.ts.
 */
import fs from 'node:fs';
import type { CgroupBackend } from './cgroup-common.js';
import { V1Backend } from './cgroup-v1.js';
import { V2Backend } from './cgroup-v2.js';
import type { BackendKind } from './types.js';

export { cgroupMounts, ownCgroups, type CgroupBackend, type CgroupCell, type CgroupStats } from './cgroup-common.js';

// ---------------------------------------------------------------------------------------------
// none

class NoneBackend implements CgroupBackend {
  readonly kind = 'none' as const;
  constructor(
    private readonly why: string[],
    private readonly root: boolean,
  ) {}
  caveats(): string[] {
    return [
      'memory is not enforced for the process tree: RLIMIT_AS (address space) limits C, C++ and Python per process, where running out shows as a runtime error more often than as MLE; Java and JavaScript rely on their heap flags only; peak memory is not measured',
      'CPU time is enforced per process by RLIMIT_CPU in whole seconds, not for the tree; the reported CPU time is the wall time',
      this.root
        ? 'processes are limited by RLIMIT_NPROC per slot uid (counts every process of that uid)'
        : 'processes are not limited (not root: no uid of its own per slot for RLIMIT_NPROC)',
      'leftover processes die with the sandbox PID namespace only',
      ...this.why.map((w) => `no cgroup because ${w}`),
    ];
  }
  describe(): string {
    return 'rlimits only';
  }
  createCell(): null {
    return null;
  }
  close(): void {}
}

// ---------------------------------------------------------------------------------------------

/** The kernel file system type of /sys/fs/cgroup. */
export function cgroupFsType(): 'cgroup2' | 'tmpfs' | 'cgroup' | 'other' | 'missing' {
  try {
    const t = fs.statfsSync('/sys/fs/cgroup').type;
    if (t === 0x63677270) return 'cgroup2';
    if (t === 0x01021994) return 'tmpfs';
    if (t === 0x27e0eb) return 'cgroup';
    return 'other';
  } catch {
    return 'missing';
  }
}

/**
 * Picks the backend: v2 on a pure v2 host, v1 on a v1/hybrid host (v2 as a second try), else
 * `none` with the reasons. `prefer` forces one (tests, `--cgroup`).
 */
export function detectBackend(prefer?: BackendKind): CgroupBackend {
  const root = process.geteuid?.() === 0;
  if (prefer === 'none') return new NoneBackend(['it was asked for'], root);
  const fsType = cgroupFsType();
  const order: ('v1' | 'v2')[] =
    prefer === 'cgroup-v1' ? ['v1'] : prefer === 'cgroup-v2' ? ['v2'] : fsType === 'cgroup2' ? ['v2'] : ['v1', 'v2'];
  const problems: string[] = [];
  if (fsType === 'missing') problems.push('/sys/fs/cgroup is not mounted');
  else
    for (const kind of order) {
      const r = kind === 'v1' ? V1Backend.detect() : V2Backend.detect();
      if (r.backend) return r.backend;
      problems.push(r.problem ?? kind);
    }
  return new NoneBackend(problems, root);
}
