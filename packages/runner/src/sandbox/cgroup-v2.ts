import fs from 'node:fs';
import path from 'node:path';
import {
  cgroupMounts,
  errText,
  exists,
  field,
  instanceName,
  killLoop,
  MEASUREMENT_CAVEATS,
  ownCgroups,
  ownDir,
  tryCell,
  procs,
  rmdirQuiet,
  sweepStale,
  tryRead,
  write,
  type CgroupBackend,
  type CgroupCell,
  type CgroupStats,
  CELL_OVERHEAD_PIDS,
  RECLAIM_ABOVE,
} from './cgroup-common.js';
import type { Limits } from './types.js';

/** `cgroup-v2`: a pure v2 host with the memory and pids controllers delegated to us. */
export class V2Backend implements CgroupBackend {
  readonly kind = 'cgroup-v2' as const;
  private seq = 0;
  private readonly peakReset: boolean;
  private readonly reclaimFile: boolean;
  private constructor(
    private readonly inst: string,
    private readonly created: string[],
    private readonly restore: () => void,
  ) {
    this.peakReset = peakResettable(inst);
    this.reclaimFile = exists(path.join(inst, 'memory.reclaim'));
  }

  static detect(): { backend?: V2Backend; problem?: string } {
    const uni = cgroupMounts().find((m) => m.v2);
    const ownPath = ownCgroups().get('');
    if (!uni || ownPath === undefined) return { problem: 'cgroup v2: no unified hierarchy for this process' };
    const own = ownDir(uni, ownPath);
    if (!own) return { problem: `cgroup v2: own cgroup ${ownPath} not found under ${uni.mountPoint}` };
    const available = (tryRead(path.join(own, 'cgroup.controllers')) ?? '').split(/\s+/);
    if (!available.includes('memory') || !available.includes('pids')) {
      return { problem: `cgroup v2: memory and pids controllers are not delegated to ${own} (it offers: ${available.filter(Boolean).join(' ') || 'none'})` };
    }
    const created: string[] = [];
    let enabledOwn = false;
    let movedSelf = false;
    const restore = (): void => {
      if (enabledOwn) {
        try {
          write(path.join(own, 'cgroup.subtree_control'), '-memory -pids');
        } catch {
          /* another runner still uses them: leave them */
        }
      }
      if (movedSelf) {
        try {
          write(path.join(own, 'cgroup.procs'), String(process.pid));
        } catch {
          /* stays in the leaf */
        }
      }
    };
    const enable = (dir: string): void => write(path.join(dir, 'cgroup.subtree_control'), '+memory +pids');
    const enabled = (dir: string): boolean => {
      const s = (tryRead(path.join(dir, 'cgroup.subtree_control')) ?? '').split(/\s+/);
      return s.includes('memory') && s.includes('pids');
    };
    try {
      if (!enabled(own)) {
        try {
          enable(own);
          enabledOwn = true;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EBUSY') throw e;
          // "no internal processes" (§7.3): move the runner into a leaf beside the judge tree
          const leaf = path.join(own, 'runner');
          if (!exists(leaf)) {
            fs.mkdirSync(leaf);
            created.push(leaf);
          }
          write(path.join(leaf, 'cgroup.procs'), String(process.pid));
          movedSelf = true;
          try {
            enable(own);
            enabledOwn = true;
          } catch (e2) {
            if ((e2 as NodeJS.ErrnoException).code !== 'EBUSY') throw e2;
            throw new Error(
              `other processes share ${own}, so it cannot delegate controllers to children (no internal processes): start judge-runner in a cgroup of its own (systemd: a service with Delegate=yes)`,
            );
          }
        }
      }
      const judge = path.join(own, 'judge');
      if (!exists(judge)) {
        fs.mkdirSync(judge);
        created.push(judge);
      } else sweepStale(judge);
      if (!enabled(judge)) enable(judge);
      const inst = path.join(judge, instanceName());
      fs.mkdirSync(inst);
      created.push(inst);
      enable(inst);
      const backend = new V2Backend(inst, created, restore);
      tryCell(backend);
      return { backend };
    } catch (e) {
      undoV2(created, restore);
      return { problem: `cgroup v2: ${errText(e)}` };
    }
  }

  caveats(): string[] {
    const c = [...MEASUREMENT_CAVEATS];
    if (!this.peakReset) {
      c.push(
        'memory.peak cannot be reset (kernel < 6.12): each run gets a cgroup of its own, and a test of a submission after its first reports the larger of the memory sampled every 50 ms and its largest process\'s resident set',
      );
    }
    if (!this.reclaimFile) c.push('no memory.reclaim (kernel < 5.19): page cache a run leaves stays charged to its cell until memory pressure reclaims it');
    return c;
  }

  describe(): string {
    return this.inst;
  }

  createCell(): CgroupCell {
    const dir = path.join(this.inst, `cell-${++this.seq}`);
    fs.mkdirSync(dir);
    try {
      if (exists(path.join(dir, 'memory.swap.max'))) write(path.join(dir, 'memory.swap.max'), '0');
      return new V2Cell(dir);
    } catch (e) {
      rmdirQuiet(dir);
      throw e;
    }
  }

  close(): void {
    undoV2(this.created, this.restore);
  }
}

/** The judge tree first, then our own cgroup as it was (controllers, our process), then the now empty runner leaf. */
function undoV2(created: string[], restore: () => void): void {
  const leafs = created.filter((d) => path.basename(d) === 'runner');
  for (const d of [...created].reverse()) if (!leafs.includes(d)) rmdirQuiet(d);
  restore();
  for (const d of leafs) rmdirQuiet(d);
}

/**
 * memory.peak is reset per open file (kernel 6.12+): a write through an fd makes later reads
 * through that fd report the peak since. The fd is kept for the cell's life.
 */
function openPeak(dir: string): number | null {
  try {
    const fd = fs.openSync(path.join(dir, 'memory.peak'), 'r+');
    try {
      fs.writeSync(fd, 'reset\n');
      return fd;
    } catch {
      fs.closeSync(fd);
      return null;
    }
  } catch {
    return null;
  }
}

function peakResettable(dir: string): boolean {
  const fd = openPeak(dir);
  if (fd === null) return false;
  fs.closeSync(fd);
  return true;
}

/** One cell's cgroup in the unified tree: the peak reset through its fd, the rest counted from a baseline. */
class V2Cell implements CgroupCell {
  readonly join: string[];
  /** Without a resettable memory.peak a cell serves one run (its peak since it was made is the run's). */
  readonly reusable: boolean;
  private readonly peakFd: number | null;
  /** Tests of a session run in it so far: from the second on, memory.peak spans more than one. */
  private tests = 0;
  private sampled = 0;
  private cpuBase = 0;
  private oomBase = 0;
  private pidsBase = 0;
  constructor(private readonly dir: string) {
    this.join = [path.join(dir, 'cgroup.procs')];
    this.peakFd = openPeak(dir);
    this.reusable = this.peakFd !== null;
  }

  prepare(limits: Limits, extraPids = 0): void {
    write(path.join(this.dir, 'memory.max'), String(Math.max(1 << 20, Math.floor(limits.memoryBytes))));
    write(path.join(this.dir, 'pids.max'), String(Math.max(1, Math.floor(limits.pids)) + CELL_OVERHEAD_PIDS + extraPids));
  }

  cpuNs(): number | null {
    const us = field(tryRead(path.join(this.dir, 'cpu.stat')), 'usage_usec');
    return us === null ? null : us * 1000 - this.cpuBase;
  }

  sampleMemory(): void {
    if (this.peakFd !== null) return;
    const cur = Number(tryRead(path.join(this.dir, 'memory.current')) ?? 0);
    if (cur > this.sampled) this.sampled = cur;
  }

  kill(keep: number): void {
    killLoop(this.dir, keep);
  }

  empty(keep: number): boolean {
    return procs(this.dir).every((p) => p === keep);
  }

  stats(maxRssBytes?: number | null): CgroupStats {
    let peak: number | null;
    if (this.peakFd !== null) {
      const buf = Buffer.alloc(32);
      const n = fs.readSync(this.peakFd, buf, 0, buf.length, 0);
      peak = Number(buf.subarray(0, n).toString('utf8').trim());
    } else if (this.tests <= 1) {
      // a cell that serves one run: its peak since it was made is the run's (and its launcher's)
      const t = tryRead(path.join(this.dir, 'memory.peak'));
      peak = t !== null ? Number(t) : this.sampled || null;
    } else {
      // a later test of a session: sampled, or the largest process's resident set if that is more
      peak = Math.max(this.sampled, maxRssBytes ?? 0) || null;
    }
    // memory.oom.group is off (it would take the launcher along): each kill is counted
    const events = tryRead(path.join(this.dir, 'memory.events'));
    return {
      cpuNs: this.cpuNs(),
      peakBytes: peak,
      oomKills: (field(events, 'oom_kill') ?? 0) - this.oomBase,
      pidsRefused: (field(tryRead(path.join(this.dir, 'pids.events')), 'max') ?? 0) - this.pidsBase,
    };
  }

  async reset(): Promise<void> {
    const current = Number((await fs.promises.readFile(path.join(this.dir, 'memory.current'), 'utf8').catch(() => '0')) || 0);
    if (current > RECLAIM_ABOVE) {
      // EAGAIN when not all of it could be reclaimed: what is left is the launcher's own
      await fs.promises.writeFile(path.join(this.dir, 'memory.reclaim'), String(current)).catch(() => {});
    }
    this.zero();
  }

  restart(): void {
    this.tests++;
    this.zero();
  }

  private zero(): void {
    if (this.peakFd !== null) fs.writeSync(this.peakFd, 'reset\n');
    this.sampled = 0;
    this.cpuBase = 0;
    this.cpuBase = this.cpuNs() ?? 0;
    this.oomBase = field(tryRead(path.join(this.dir, 'memory.events')), 'oom_kill') ?? 0;
    this.pidsBase = field(tryRead(path.join(this.dir, 'pids.events')), 'max') ?? 0;
  }

  remove(): void {
    if (this.peakFd !== null) fs.closeSync(this.peakFd);
    rmdirQuiet(this.dir);
  }
}
