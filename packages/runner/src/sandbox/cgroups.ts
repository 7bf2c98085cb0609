/**
 * Cgroup backends: where each run's processes are counted, limited and killed.
 *
 * - `cgroup-v1`: a v1 (or hybrid) host: memory (+ memsw), pids and cpuacct hierarchies, plus the
 *   unified v2 tree's `cgroup.kill` / `cgroup.procs` when it is mounted and writable.
 * - `cgroup-v2`: a pure v2 host with the memory and pids controllers delegated to us.
 * - `none`: no writable cgroup; the sandbox falls back to rlimits (see Sandbox).
 *
 * Every directory is created below the runner's OWN cgroup of each hierarchy, as
 * `<own>/judge/<pid>-<random>/run-<n>` (one fresh child per run, so the counters start clean),
 * never at a hierarchy root, and removed again (runs after each run, the rest by `close()`).
 * See research/sandbox.md §2 and §7.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { BackendKind, Limits } from './types.js';

/** Final counters of one run, read once its cgroup is empty. */
/** What every cgroup backend's figures include besides the program itself. */
const MEASUREMENT_CAVEATS = [
  'memory counts the page cache a run faults in (files it reads first, files it writes, /tmp) besides its own allocations',
  "CPU time includes 2–4 ms of sandbox start-up (the exec of the program and of sh, the sandbox's pid 1)",
];

export interface CgroupStats {
  cpuNs: number | null;
  peakBytes: number | null;
  /** OOM kills inside the run's cgroup (a fresh cgroup starts at 0). */
  oomKills: number;
  /** Forks refused because pids.max was reached. */
  pidsRefused: number;
}

/** The cgroup(s) of one run. */
export interface CgroupRun {
  /** Moves a process (all its threads) into the run's cgroups. */
  attach(pid: number): void;
  /** CPU time of the whole tree so far, in ns. */
  cpuNs(): number | null;
  /** Memory in use now (only where no peak counter exists), for sampling. */
  sampleMemory(): void;
  /** Kills every process in the cgroup (cgroup.kill, else one by one). */
  kill(): void;
  empty(): boolean;
  stats(): CgroupStats;
  /** Removes the run's directories (the cgroup must be empty). */
  remove(): void;
}

export interface CgroupBackend {
  readonly kind: BackendKind;
  /** What this backend cannot enforce or measure. */
  caveats(): string[];
  /** A fresh cgroup for one run, limits applied; null for `none`. */
  create(limits: Limits): CgroupRun | null;
  /** Removes every directory this instance created. */
  close(): void;
  /** Where it lives, for `judge-runner check`. */
  describe(): string;
}

// ---------------------------------------------------------------------------------------------
// small file helpers (cgroupfs files are tiny: synchronous I/O is the fast path)

function write(file: string, value: string): void {
  fs.writeFileSync(file, value);
}
function read(file: string): string {
  return fs.readFileSync(file, 'utf8');
}
function tryRead(file: string): string | null {
  try {
    return read(file);
  } catch {
    return null;
  }
}
function exists(file: string): boolean {
  return fs.existsSync(file);
}
/** `key value` lines (memory.oom_control, memory.events, cpu.stat, pids.events). */
function field(text: string | null, key: string): number | null {
  if (text === null) return null;
  const m = new RegExp(`^${key} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : null;
}
function rmdirQuiet(dir: string): boolean {
  for (let i = 0; i < 50; i++) {
    try {
      fs.rmdirSync(dir);
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return true;
      if (code !== 'EBUSY') return false;
      // a v1 memory cgroup can stay busy for a moment after its last task left
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
  return false;
}
function procs(dir: string): number[] {
  const text = tryRead(path.join(dir, 'cgroup.procs'));
  if (!text) return [];
  return text
    .split('\n')
    .filter(Boolean)
    .map(Number);
}
/** Kill loop for trees without cgroup.kill: pids.max bounds the tree, so this converges. */
function killLoop(dir: string): void {
  for (let round = 0; round < 100; round++) {
    const pids = procs(dir);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
}
function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

// ---------------------------------------------------------------------------------------------
// where the hierarchies are and which cgroup is ours

interface CgroupMount {
  mountPoint: string;
  /** The hierarchy path mounted there (`/` unless a cgroup namespace or bind shows a subtree). */
  root: string;
  v2: boolean;
  controllers: string[];
}

function unescapeMount(s: string): string {
  return s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
}

export function cgroupMounts(mountinfo = tryRead('/proc/self/mountinfo') ?? ''): CgroupMount[] {
  const out: CgroupMount[] = [];
  for (const line of mountinfo.split('\n')) {
    const dash = line.indexOf(' - ');
    if (dash < 0) continue;
    const left = line.slice(0, dash).split(' ');
    const right = line.slice(dash + 3).split(' ');
    const fstype = right[0];
    if (fstype !== 'cgroup' && fstype !== 'cgroup2') continue;
    const opts = (right[2] ?? '').split(',');
    out.push({
      mountPoint: unescapeMount(left[4] ?? ''),
      root: unescapeMount(left[3] ?? '/'),
      v2: fstype === 'cgroup2',
      controllers: fstype === 'cgroup2' ? [] : opts.filter((o) => ['memory', 'pids', 'cpuacct', 'cpu', 'freezer', 'cpuset'].includes(o)),
    });
  }
  return out;
}

/** controller → own path (v1), and '' → own path in the unified hierarchy. */
export function ownCgroups(text = tryRead('/proc/self/cgroup') ?? ''): Map<string, string> {
  const own = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^(\d+):([^:]*):(.*)$/.exec(line);
    if (!m) continue;
    const [, id, ctl, p] = m as unknown as [string, string, string, string];
    if (id === '0' && ctl === '') own.set('', p);
    else for (const c of ctl.split(',')) if (c && !c.startsWith('name=')) own.set(c, p);
  }
  return own;
}

function ownDir(mount: CgroupMount, ownPath: string): string | null {
  const root = mount.root === '/' ? '' : mount.root.replace(/\/$/, '');
  if (root && ownPath !== root && !ownPath.startsWith(`${root}/`)) return null;
  const rel = ownPath.slice(root.length);
  const dir = path.join(mount.mountPoint, rel);
  return exists(dir) ? dir : null;
}

function instanceName(): string {
  return `${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * Removes instance directories a crashed runner left behind (`<pid>-<hex>` whose pid is gone).
 * rmdir only: a directory that still holds processes is refused by the kernel and left alone.
 */
function sweepStale(judgeDir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(judgeDir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^(\d+)-[0-9a-f]{8}$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    try {
      process.kill(pid, 0);
      continue; // alive (or not ours to judge)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ESRCH') continue;
    }
    const inst = path.join(judgeDir, name);
    try {
      for (const child of fs.readdirSync(inst, { withFileTypes: true })) {
        if (child.isDirectory()) rmdirQuiet(path.join(inst, child.name));
      }
    } catch {
      /* gone */
    }
    rmdirQuiet(inst);
  }
}

// ---------------------------------------------------------------------------------------------
// cgroup v1 (and hybrid)

interface V1Dirs {
  memory: string;
  pids: string;
  cpuacct: string | null;
  unified: string | null;
}

class V1Backend implements CgroupBackend {
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
      backend.create({ cpuMs: 1000, wallMs: 1000, memoryBytes: 64 << 20, pids: 8, outputBytes: 1 }).remove();
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

// ---------------------------------------------------------------------------------------------
// cgroup v2

class V2Backend implements CgroupBackend {
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
      backend.create({ cpuMs: 1000, wallMs: 1000, memoryBytes: 64 << 20, pids: 8, outputBytes: 1 }).remove();
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
  create(): null {
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
