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
  CELL_OVERHEAD_PIDS,
  RECLAIM_ABOVE,
} from './cgroup-common.js';
import type { CgroupStats } from './cgroup-common.js';
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
  private constructor(
    private readonly inst: V1Dirs,
    private readonly created: string[],
  ) {
    this.memsw = exists(path.join(inst.memory, 'memory.memsw.limit_in_bytes'));
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
      tryCell(backend);
      return { backend };
    } catch (e) {
      for (const d of created.reverse()) rmdirQuiet(d);
      return { problem: `cgroup v1: ${errText(e)}` };
    }
  }

  caveats(): string[] {
    const c = [...MEASUREMENT_CAVEATS];
    if (!this.memsw) c.push('swap is not limited (no memory.memsw: swap accounting is off); on a host with swap a program may exceed its memory limit');
    return c;
  }

  describe(): string {
    return Object.values(this.inst).filter(Boolean).join(', ');
  }

  createCell(): CgroupCell {
    const name = `cell-${++this.seq}`;
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
    } catch (e) {
      for (const dir of made.reverse()) rmdirQuiet(dir);
      throw e;
    }
    return new V1Cell(d, all, this.memsw);
  }

  close(): void {
    for (const d of [...this.created].reverse()) rmdirQuiet(d);
  }
}

/** One cell's cgroups in the v1 hierarchies: counters reset by writing to them, events counted from a baseline. */
class V1Cell implements CgroupCell {
  readonly join: string[];
  readonly reusable = true;
  // a new cgroup starts unlimited
  private memLimit = Infinity;
  private oomBase = 0;
  private pidsBase = 0;
  private cpuBase = 0;
  constructor(
    private readonly d: V1Dirs,
    private readonly all: string[],
    private readonly memsw: boolean,
  ) {
    this.join = all.map((dir) => path.join(dir, 'cgroup.procs'));
  }

  prepare(limits: Limits, extraPids = 0): void {
    const mem = Math.max(1 << 20, Math.floor(limits.memoryBytes));
    const memFile = path.join(this.d.memory, 'memory.limit_in_bytes');
    const swFile = path.join(this.d.memory, 'memory.memsw.limit_in_bytes');
    // memsw may never be below the memory limit: raise memsw first, lower it last
    if (this.memsw && mem > this.memLimit) write(swFile, String(mem));
    write(memFile, String(mem));
    if (this.memsw && mem <= this.memLimit) write(swFile, String(mem));
    this.memLimit = mem;
    write(path.join(this.d.pids, 'pids.max'), String(Math.max(1, Math.floor(limits.pids)) + CELL_OVERHEAD_PIDS + extraPids));
  }

  cpuNs(): number | null {
    if (this.d.cpuacct) {
      const t = tryRead(path.join(this.d.cpuacct, 'cpuacct.usage'));
      return t === null ? null : Number(t) - this.cpuBase;
    }
    const us = field(tryRead(path.join(this.d.unified!, 'cpu.stat')), 'usage_usec');
    return us === null ? null : us * 1000 - this.cpuBase;
  }

  sampleMemory(): void {}

  kill(keep: number): void {
    killLoop(this.d.pids, keep);
    if (this.d.unified) killLoop(this.d.unified, keep);
  }

  empty(keep: number): boolean {
    return procs(this.d.pids).every((p) => p === keep) && (!this.d.unified || procs(this.d.unified).every((p) => p === keep));
  }

  stats(): CgroupStats {
    const peak = tryRead(path.join(this.d.memory, 'memory.max_usage_in_bytes'));
    return {
      cpuNs: this.cpuNs(),
      peakBytes: peak === null ? null : Number(peak),
      oomKills: (field(tryRead(path.join(this.d.memory, 'memory.oom_control')), 'oom_kill') ?? 0) - this.oomBase,
      pidsRefused: (field(tryRead(path.join(this.d.pids, 'pids.events')), 'max') ?? 0) - this.pidsBase,
    };
  }

  async reset(): Promise<void> {
    const usage = Number((await fs.promises.readFile(path.join(this.d.memory, 'memory.usage_in_bytes'), 'utf8').catch(() => '0')) || 0);
    if (usage > RECLAIM_ABOVE) await fs.promises.writeFile(path.join(this.d.memory, 'memory.force_empty'), '0').catch(() => {});
    this.restart();
  }

  restart(): void {
    const mem = (f: string): string => path.join(this.d.memory, f);
    write(mem('memory.max_usage_in_bytes'), '0');
    if (this.memsw) write(mem('memory.memsw.max_usage_in_bytes'), '0');
    this.cpuBase = 0;
    if (this.d.cpuacct) write(path.join(this.d.cpuacct, 'cpuacct.usage'), '0');
    else this.cpuBase = this.cpuNs() ?? 0;
    this.oomBase = field(tryRead(mem('memory.oom_control')), 'oom_kill') ?? 0;
    this.pidsBase = field(tryRead(path.join(this.d.pids, 'pids.events')), 'max') ?? 0;
  }

  remove(): void {
    for (const dir of this.all) rmdirQuiet(dir);
  }
}
