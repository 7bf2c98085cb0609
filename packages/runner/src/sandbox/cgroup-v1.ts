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

/**
 * `cgroup-v1`: a v1 (or hybrid) host: memory (+ memsw), pids and cpuacct hierarchies, plus the
 * unified v2 tree's `cgroup.kill` / `cgroup.procs` when it is mounted and writable.
 */
interface V1Dirs {
  memory: string;
  pids: string;
  cpuacct: string | null;
  unified: string | null;
}

export class V1Backend implements CgroupBackend {
  readonly kind = 'cgroup-v1' as const;
  private seq = 0;
  private readonly memsw: boolean;
  private readonly killFile: boolean;
  private constructor(
    private readonly inst: V1Dirs,
    private readonly created: string[],
  ) {
    this.memsw = exists(path.join(inst.memory, 'memory.memsw.limit_in_bytes'));
    this.killFile = inst.unified !== null && exists(path.join(inst.unified, 'cgroup.kill'));
  }

  /** Finds the hierarchies, creates `<own>/judge/<instance>` in each and tries a child. */
  static detect(): { backend?: V1Backend; problem?: string } {
    const mounts = cgroupMounts();
    const own = ownCgroups();
    const base = (ctl: string): string | null => {
      const m = mounts.find((x) => !x.v2 && x.controllers.includes(ctl));
      const p = own.get(ctl);
      return m && p !== undefined ? ownDir(m, p) : null;
    };
    const memory = base('memory');
    const pids = base('pids');
    if (!memory || !pids) return { problem: `cgroup v1: no ${memory ? 'pids' : 'memory'} hierarchy for this process` };
    const cpuacct = base('cpuacct');
    const uniMount = mounts.find((x) => x.v2);
    const uniOwn = own.get('');
    const unified = uniMount && uniOwn !== undefined ? ownDir(uniMount, uniOwn) : null;
    const name = instanceName();
    const created: string[] = [];
    const make = (b: string): string => {
      const judge = path.join(b, 'judge');
      if (!exists(judge)) {
        fs.mkdirSync(judge);
        created.push(judge);
      } else sweepStale(judge);
      const dir = path.join(judge, name);
      fs.mkdirSync(dir);
      created.push(dir);
      return dir;
    };
    try {
      const dirs: V1Dirs = { memory: make(memory), pids: make(pids), cpuacct: cpuacct ? make(cpuacct) : null, unified: null };
      if (unified) {
        try {
          dirs.unified = make(unified);
        } catch {
          /* the unified tree is optional here: no cgroup.kill then */
        }
      }
      if (!dirs.cpuacct && !(dirs.unified && exists(path.join(dirs.unified, 'cpu.stat')))) {
        throw new Error('no cpuacct hierarchy and no cpu.stat in the unified tree');
      }
      const backend = new V1Backend(dirs, created);
      backend.create(PROBE_LIMITS).remove();
      return { backend };
    } catch (e) {
      for (const d of created.reverse()) rmdirQuiet(d);
      return { problem: `cgroup v1: ${errText(e)}` };
    }
  }

  caveats(): string[] {
    const c = [...MEASUREMENT_CAVEATS];
    if (!this.memsw) c.push('swap is not limited (no memory.memsw: swap accounting is off); on a host with swap a program may exceed its memory limit');
    if (!this.killFile) c.push('no cgroup.kill (unified tree not writable): leftover processes are killed one by one');
    return c;
  }

  describe(): string {
    return Object.values(this.inst).filter(Boolean).join(', ');
  }

  create(limits: Limits): CgroupRun {
    const name = `run-${++this.seq}`;
    const d: V1Dirs = {
      memory: path.join(this.inst.memory, name),
      pids: path.join(this.inst.pids, name),
      cpuacct: this.inst.cpuacct && path.join(this.inst.cpuacct, name),
      unified: this.inst.unified && path.join(this.inst.unified, name),
    };
    const all = [d.memory, d.pids, d.cpuacct, d.unified].filter((x): x is string => x !== null);
    const made: string[] = [];
    try {
      for (const dir of all) {
        fs.mkdirSync(dir);
        made.push(dir);
      }
      const mem = String(Math.max(1 << 20, Math.floor(limits.memoryBytes)));
      // fresh cgroup: memsw starts unlimited, so the limit goes first, then memsw (no swap escape)
      write(path.join(d.memory, 'memory.limit_in_bytes'), mem);
      if (this.memsw) write(path.join(d.memory, 'memory.memsw.limit_in_bytes'), mem);
      write(path.join(d.pids, 'pids.max'), String(Math.max(1, Math.floor(limits.pids))));
    } catch (e) {
      for (const dir of made.reverse()) rmdirQuiet(dir);
      throw e;
    }
    const procsDir = d.unified ?? d.pids;
    const killFile = this.killFile && d.unified ? path.join(d.unified, 'cgroup.kill') : null;
    const cpuFile = d.cpuacct ? path.join(d.cpuacct, 'cpuacct.usage') : path.join(d.unified!, 'cpu.stat');
    const cpuNs = (): number | null => {
      const t = tryRead(cpuFile);
      if (t === null) return null;
      return d.cpuacct ? Number(t) : (field(t, 'usage_usec') ?? 0) * 1000;
    };
    return {
      attach(pid) {
        for (const dir of all) write(path.join(dir, 'cgroup.procs'), String(pid));
      },
      cpuNs,
      sampleMemory() {},
      kill() {
        if (killFile) {
          try {
            write(killFile, '1');
            return;
          } catch {
            /* fall back */
          }
        }
        killLoop(procsDir);
        killLoop(d.pids);
      },
      empty() {
        return procs(procsDir).length === 0 && (procsDir === d.pids || procs(d.pids).length === 0);
      },
      stats() {
        const peak = tryRead(path.join(d.memory, 'memory.max_usage_in_bytes'));
        return {
          cpuNs: cpuNs(),
          peakBytes: peak === null ? null : Number(peak),
          oomKills: field(tryRead(path.join(d.memory, 'memory.oom_control')), 'oom_kill') ?? 0,
          pidsRefused: field(tryRead(path.join(d.pids, 'pids.events')), 'max') ?? 0,
        };
      },
      remove() {
        for (const dir of all) rmdirQuiet(dir);
      },
    };
  }

  close(): void {
    for (const d of [...this.created].reverse()) rmdirQuiet(d);
  }
}
