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
  PROBE_LIMITS,
  procs,
  rmdirQuiet,
  sweepStale,
  tryRead,
  write,
  type CgroupBackend,
  type CgroupRun,
} from './cgroup-common.js';
import type { Limits } from './types.js';

/** `cgroup-v2`: a pure v2 host with the memory and pids controllers delegated to us. */
export class V2Backend implements CgroupBackend {
  readonly kind = 'cgroup-v2' as const;
  private seq = 0;
  private readonly peakFile: boolean;
  private readonly killFile: boolean;
  private constructor(
    private readonly inst: string,
    private readonly created: string[],
    private readonly restore: () => void,
  ) {
    this.peakFile = exists(path.join(inst, 'memory.peak'));
    this.killFile = exists(path.join(inst, 'cgroup.kill'));
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
      backend.create(PROBE_LIMITS).remove();
      return { backend };
    } catch (e) {
      undoV2(created, restore);
      return { problem: `cgroup v2: ${errText(e)}` };
    }
  }

  caveats(): string[] {
    const c = [...MEASUREMENT_CAVEATS];
    if (!this.peakFile) c.push('no memory.peak (kernel < 5.19): peak memory is sampled every 50 ms and may miss short spikes');
    if (!this.killFile) c.push('no cgroup.kill (kernel < 5.14): leftover processes are killed one by one');
    return c;
  }

  describe(): string {
    return this.inst;
  }

  create(limits: Limits): CgroupRun {
    const dir = path.join(this.inst, `run-${++this.seq}`);
    fs.mkdirSync(dir);
    try {
      write(path.join(dir, 'memory.max'), String(Math.max(1 << 20, Math.floor(limits.memoryBytes))));
      if (exists(path.join(dir, 'memory.swap.max'))) write(path.join(dir, 'memory.swap.max'), '0');
      if (exists(path.join(dir, 'memory.oom.group'))) write(path.join(dir, 'memory.oom.group'), '1');
      write(path.join(dir, 'pids.max'), String(Math.max(1, Math.floor(limits.pids))));
    } catch (e) {
      rmdirQuiet(dir);
      throw e;
    }
    const hasPeak = exists(path.join(dir, 'memory.peak'));
    const killFile = this.killFile ? path.join(dir, 'cgroup.kill') : null;
    let sampled = 0;
    const cpuNs = (): number | null => {
      const us = field(tryRead(path.join(dir, 'cpu.stat')), 'usage_usec');
      return us === null ? null : us * 1000;
    };
    return {
      attach(pid) {
        write(path.join(dir, 'cgroup.procs'), String(pid));
      },
      cpuNs,
      sampleMemory() {
        if (hasPeak) return;
        const cur = Number(tryRead(path.join(dir, 'memory.current')) ?? 0);
        if (cur > sampled) sampled = cur;
      },
      kill() {
        if (killFile) {
          try {
            write(killFile, '1');
            return;
          } catch {
            /* fall back */
          }
        }
        killLoop(dir);
      },
      empty() {
        const ev = tryRead(path.join(dir, 'cgroup.events'));
        if (ev !== null) return field(ev, 'populated') === 0;
        return procs(dir).length === 0;
      },
      stats() {
        const events = tryRead(path.join(dir, 'memory.events'));
        const peak = hasPeak ? tryRead(path.join(dir, 'memory.peak')) : null;
        return {
          cpuNs: cpuNs(),
          peakBytes: peak !== null ? Number(peak) : sampled || null,
          oomKills: Math.max(field(events, 'oom_kill') ?? 0, (field(events, 'oom_group_kill') ?? 0) > 0 ? 1 : 0),
          pidsRefused: field(tryRead(path.join(dir, 'pids.events')), 'max') ?? 0,
        };
      },
      remove() {
        rmdirQuiet(dir);
      },
    };
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
