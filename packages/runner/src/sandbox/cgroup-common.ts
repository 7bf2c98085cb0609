/**
 * What the cgroup backends share: the interfaces the sandbox drives, the caveats of their
 * figures, the cgroupfs file helpers, and where the hierarchies are and which cgroup is ours.
 * Every directory is created below the runner's OWN cgroup of each hierarchy, as
 * `<own>/judge/<pid>-<random>/run-<n>` (one fresh child per run, so the counters start clean),
 * never at a hierarchy root.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { BackendKind, Limits } from './types.js';

/** What every cgroup backend's figures include besides the program itself. */
export const MEASUREMENT_CAVEATS = [
  'memory counts the page cache a run faults in (files it reads first, files it writes, /tmp) besides its own allocations, and the sandbox\'s own two small processes',
  "CPU time includes the program's start: about 1 ms for a test of a submission (the fork and exec by the sandbox's helper), 2–4 ms for a run of its own (bwrap setting up the namespaces)",
];

/** Final counters of one run, read once its cgroup is empty. */
export interface CgroupStats {
  cpuNs: number | null;
  peakBytes: number | null;
  /** OOM kills inside the run's cgroup (a fresh cgroup starts at 0). */
  oomKills: number;
  /** Forks refused because pids.max was reached. */
  pidsRefused: number;
}

/**
 * The cgroups of one cell: reused run after run, with the cell's launcher (judge-cell) inside
 * them for good, so a run's processes are born there instead of being moved in.
 */
export interface CgroupCell {
  /** The cgroup.procs files the launcher joins once, when it starts. */
  readonly join: string[];
  /** One run's limits; the launcher and bwrap count as two of its processes, `extraPids` more on top. */
  prepare(limits: Limits, extraPids?: number): void;
  /** CPU time of the run so far, in ns. */
  cpuNs(): number | null;
  /** Memory in use now (only where no peak counter exists), for sampling. */
  sampleMemory(): void;
  /** Kills every process but `keep` (the launcher). */
  kill(keep: number): void;
  /** No process but `keep` is left. */
  empty(keep: number): boolean;
  /**
   * The run's counters, read once only the launcher is left. `maxRssBytes` (the program's largest
   * resident set, from wait4) stands in for a peak the backend cannot reset between tests.
   */
  stats(maxRssBytes?: number | null): CgroupStats;
  /** The cell may serve another run (else the pool makes a fresh one for each). */
  readonly reusable: boolean;
  /**
   * Makes the cell carry nothing into its next run: page cache the last run left charged is
   * reclaimed, the peak and CPU counters start again, the event counters get a new baseline.
   * Asynchronous (the file system calls run off the event loop): it is done between runs.
   */
  reset(): Promise<void>;
  /**
   * Between the tests of a session, on the spot: the peak and CPU counters start again and the
   * event counters get a new baseline (the sandbox itself stays, so nothing is reclaimed).
   */
  restart(): void;
  /** Removes the cell's directories (only the launcher may be left, and it is killed first). */
  remove(): void;
}

/** Processes of a run besides its own: the cell's launcher and bwrap's monitor. */
export const CELL_OVERHEAD_PIDS = 2;
/** Page cache left charged to a cell above this is reclaimed before its next run. */
export const RECLAIM_ABOVE = 2 << 20;

export interface CgroupBackend {
  readonly kind: BackendKind;
  /** What this backend cannot enforce or measure. */
  caveats(): string[];
  /** A new cell's cgroups (empty, limits not yet set); null for `none`. */
  createCell(): CgroupCell | null;
  /** Removes every directory this instance created. */
  close(): void;
  /** Where it lives, for `judge-runner check`. */
  describe(): string;
}

/** Limits of the trial cgroup a backend creates and removes when it is detected. */
export const PROBE_LIMITS: Limits = { cpuMs: 1000, wallMs: 1000, memoryBytes: 64 << 20, pids: 8, outputBytes: 1 };

/** A backend that is detected makes, limits and removes one cell before it is used. */
export function tryCell(backend: CgroupBackend): void {
  const cell = backend.createCell();
  try {
    cell?.prepare(PROBE_LIMITS);
  } finally {
    cell?.remove();
  }
}

// ---------------------------------------------------------------------------------------------
// small file helpers (cgroupfs files are tiny: synchronous I/O is the fast path)

export function write(file: string, value: string): void {
  fs.writeFileSync(file, value);
}
export function read(file: string): string {
  return fs.readFileSync(file, 'utf8');
}
export function tryRead(file: string): string | null {
  try {
    return read(file);
  } catch {
    return null;
  }
}
export function exists(file: string): boolean {
  return fs.existsSync(file);
}
/** `key value` lines (memory.oom_control, memory.events, cpu.stat, pids.events). */
export function field(text: string | null, key: string): number | null {
  if (text === null) return null;
  const m = new RegExp(`^${key} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : null;
}
export function rmdirQuiet(dir: string): boolean {
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
export function procs(dir: string): number[] {
  const text = tryRead(path.join(dir, 'cgroup.procs'));
  if (!text) return [];
  return text
    .split('\n')
    .filter(Boolean)
    .map(Number);
}
/** Kill loop (the launcher stays, so no cgroup.kill): pids.max bounds the tree, so this converges. */
export function killLoop(dir: string, keep: number): void {
  for (let round = 0; round < 100; round++) {
    const pids = procs(dir).filter((p) => p !== keep);
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
export function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

// ---------------------------------------------------------------------------------------------
// where the hierarchies are and which cgroup is ours

export interface CgroupMount {
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

export function ownDir(mount: CgroupMount, ownPath: string): string | null {
  const root = mount.root === '/' ? '' : mount.root.replace(/\/$/, '');
  if (root && ownPath !== root && !ownPath.startsWith(`${root}/`)) return null;
  const rel = ownPath.slice(root.length);
  const dir = path.join(mount.mountPoint, rel);
  return exists(dir) ? dir : null;
}

export function instanceName(): string {
  return `${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * Removes instance directories a crashed runner left behind (`<pid>-<hex>` whose pid is gone).
 * rmdir only: a directory that still holds processes is refused by the kernel and left alone.
 */
export function sweepStale(judgeDir: string): void {
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
