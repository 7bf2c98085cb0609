/**
 * The sandbox every untrusted program runs in: bubblewrap namespaces, a uid of its own per slot,
 * rlimit backstops, and cgroups that limit, measure and kill the whole tree. The per-run pipeline
 * (made cheap):
 *
 *   an idle cell: a judge-cell launcher that joined its cgroups once (cell.ts, cell-pool.ts)
 *     → the run's limits written to the cell's cgroups
 *     → the cell forks: stdio, rlimits (backstops; the cgroup does the real work), slot uid
 *     → bwrap --json-status-fd 3 --unshare-all ... -- argv   (bwrap's own init is pid 1)
 *   wall timer + 50 ms CPU watchdog (every process but the launcher killed; without cgroups bwrap)
 *   → bwrap exits → wait until only the launcher is left → counters → verdict
 *   → the cell is reset off the event loop (page cache reclaimed, counters zeroed) for its next run.
 *
 * Nothing is spawned by the runner per run, and no process is moved between cgroups per run:
 * moving one waits for an RCU grace period in the kernel (5–25 ms on a quiet host), and forking
 * the runner's own process blocks its event loop for a millisecond or more.
 *
 * run.ts supervises each run through those phases; what it uses lives beside it (host.ts,
 * stdio.ts, verdict.ts, cgroups.ts).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { currentCancel } from './cancel-scope.js';
import { detectBackend, type CgroupBackend } from './cgroups.js';
import { SandboxError } from './errors.js';
import { CELL_BINARY, cellBinaryProblem } from './cell.js';
import { CellPool } from './cell-pool.js';
import { hostRootArgs, isExecutable, removeTree, SANDBOX_PATH, stackLimit, versionAtLeast, which } from './host.js';
import { SupervisedRun, type Launch } from './run.js';
import { Session, type SessionSpec } from './session.js';
import { createWorkRoot } from './work-root.js';
import type { BackendKind, RunResult, RunSpec, RunningProgram } from './types.js';

export { SandboxError } from './errors.js';
export type { Session, SessionSpec, TestSpec } from './session.js';

/** Where the helper of a session is, inside its sandbox. */
const BOX_HELPER = '/run/judge-cell';
/** The fd on which the cell gives bwrap the system-call filter (SECCOMP_FD of native/cell.h). */
const SECCOMP_FD = 5;

export interface SandboxOptions {
  /** Concurrent runs, each slot with a uid of its own when root (default 1). */
  slots?: number;
  /** Judge even without a writable cgroup (rlimits only); `caveats()` says what is lost. */
  insecureNoCgroup?: boolean;
  /** Where boxes and logs go (default: a fresh directory under the system temp dir, removed by close). */
  workRoot?: string;
  /** First slot uid/gid when root (default 60000): slot n runs as uidBase + n. */
  uidBase?: number;
  /** Force a backend instead of detecting one (tests; `none` still needs insecureNoCgroup). */
  backend?: BackendKind;
  /** Path of bwrap (default: found on PATH, then /usr/bin/bwrap). */
  bwrapPath?: string;
  /**
   * CPUs the slots are pinned to: slot n runs its programs on cpus[n % cpus.length] (CPU
   * affinity, inherited by what they start). Empty or absent: not pinned.
   */
  cpus?: number[];
  /** Install SIGTERM/SIGINT handlers that close the sandbox and then exit (default false: the caller does). */
  closeOnSignals?: boolean;
  /**
   * The system-call filter and a session test's own IPC namespace (native/seccomp.c, native/box.c).
   * Default true; false only to measure what they cost (bench/sandbox-overhead.mjs): it is insecure.
   */
  syscallFilter?: boolean;
}

/** A fresh working directory for one run, owned by the slot's uid, mode 0700. */
export interface Box {
  path: string;
  slot: number;
  uid: number;
  gid: number;
  /** Removes the directory and everything in it. */
  dispose(): Promise<void>;
}

export interface BwrapInfo {
  path: string;
  version: string;
}

interface Active {
  kill(): void;
  done: Promise<unknown>;
}

export class Sandbox {
  readonly backend: BackendKind;
  readonly bwrap: BwrapInfo;
  readonly workRoot: string;
  readonly slots: number;
  private readonly root: boolean;
  private readonly uidBase: number;
  private readonly prefix: string[];
  private readonly newBwrap: boolean;
  private readonly stack: string;
  private readonly active = new Set<Active>();
  private readonly boxes = new Set<string>();
  private readonly busy: number[];
  private readonly pool: CellPool;
  private readonly helper: string;
  private readonly filter: boolean;
  readonly cpus: number[];
  private nextBox = 0;
  private closed = false;
  private readonly onExit = (): void => this.closeSync();
  private readonly onSignal?: (sig: NodeJS.Signals) => void;

  private constructor(
    private readonly cg: CgroupBackend,
    bwrap: BwrapInfo,
    workRoot: string,
    private readonly ownWorkRoot: boolean,
    opts: SandboxOptions,
  ) {
    this.backend = cg.kind;
    this.bwrap = bwrap;
    this.workRoot = workRoot;
    this.slots = Math.max(1, Math.floor(opts.slots ?? 1));
    this.root = process.geteuid?.() === 0;
    this.uidBase = opts.uidBase ?? 60000;
    this.busy = new Array<number>(this.slots).fill(0);
    this.cpus = (opts.cpus ?? []).filter((c) => Number.isInteger(c) && c >= 0);
    this.filter = opts.syscallFilter ?? true;
    this.pool = new CellPool(cg);
    // the helper of sessions, where every slot uid can reach it (a checkout may be private)
    this.helper = path.join(workRoot, '.judge-cell');
    fs.copyFileSync(CELL_BINARY, this.helper);
    fs.chmodSync(this.helper, 0o755);
    this.pool.warm(this.slots);
    this.newBwrap = versionAtLeast(bwrap.version, 0, 8);
    this.stack = stackLimit(this.root);
    this.prefix = [
      '--unshare-all',
      '--unshare-user',
      ...(this.newBwrap ? ['--disable-userns'] : []),
      '--die-with-parent',
      '--new-session',
      ...hostRootArgs(),
      '--proc',
      '/proc',
      '--dev',
      '/dev',
    ];
    process.on('exit', this.onExit);
    if (opts.closeOnSignals) {
      const handler = (sig: NodeJS.Signals): void => {
        process.off('SIGTERM', handler);
        process.off('SIGINT', handler);
        void this.close().finally(() => process.kill(process.pid, sig));
      };
      this.onSignal = handler;
      process.on('SIGTERM', handler);
      process.on('SIGINT', handler);
    }
  }

  /** bwrap's path and version, or null when it is not installed. */
  static findBwrap(explicit?: string): BwrapInfo | null {
    const p = explicit ?? which('bwrap');
    if (!p || !isExecutable(p)) return null;
    try {
      const out = execFileSync(p, ['--version'], { encoding: 'utf8', timeout: 5000 }).trim();
      return { path: p, version: out.replace(/^bubblewrap\s*/, '') };
    } catch {
      return null;
    }
  }

  static async create(opts: SandboxOptions = {}): Promise<Sandbox> {
    const bwrap = Sandbox.findBwrap(opts.bwrapPath);
    if (!bwrap) {
      throw new SandboxError(
        `bubblewrap (bwrap) not found${opts.bwrapPath ? ` at ${opts.bwrapPath}` : ' on PATH or in /usr/bin'}: judge-runner runs every program in it. Install it: apt-get install bubblewrap`,
      );
    }
    const launcher = cellBinaryProblem();
    if (launcher) throw new SandboxError(launcher);
    const cg = detectBackend(opts.backend);
    if (cg.kind === 'none' && !opts.insecureNoCgroup) {
      cg.close();
      throw new SandboxError(
        [
          'No writable cgroup, so the sandbox cannot enforce a memory limit on a process tree, limit the number of processes, ' +
            'measure CPU time of all processes and threads, measure peak memory, or kill every process a program leaves behind.',
          ...cg.caveats().filter((c) => c.startsWith('no cgroup because')).map((c) => `  - ${c.slice(9)}`),
          'Run as root (or with a delegated cgroup), or start with --insecure-no-cgroup to judge with rlimits only.',
        ].join('\n'),
      );
    }
    let workRoot: string;
    let own = false;
    try {
      if (opts.workRoot) {
        workRoot = path.resolve(opts.workRoot);
        if (!fs.existsSync(workRoot)) {
          fs.mkdirSync(workRoot, { recursive: true, mode: 0o711 });
          fs.chmodSync(workRoot, 0o711);
        }
      } else {
        // with an owner file, so that the next runner removes it if this one is killed (work-root.ts)
        workRoot = createWorkRoot();
        own = true;
      }
    } catch (e) {
      cg.close();
      throw e;
    }
    return new Sandbox(cg, bwrap, workRoot, own, opts);
  }

  /** What this machine's sandbox cannot enforce or measure (printed by `check` and `start`). */
  caveats(): string[] {
    const c = [...this.cg.caveats()];
    if (!this.root) c.push('not root: programs run under the runner\'s own uid (no uid of their own per slot), so they could signal the runner\'s other sandboxed programs');
    if (!this.filter) c.push('no system-call filter and no IPC namespace per test (syscallFilter: false)');
    if (!this.newBwrap) c.push(`bubblewrap ${this.bwrap.version} < 0.8: nested user namespaces cannot be disabled, /tmp is not size-limited`);
    return c;
  }

  /** Where the backend keeps its cgroups (for `check`). */
  describeBackend(): string {
    return this.cg.describe();
  }

  uidOf(slot: number): number {
    return this.root ? this.uidBase + slot : (process.geteuid?.() ?? 0);
  }

  /**
   * A fresh, empty directory for one run (`dir`, removed first if it exists; by default a new one
   * under workRoot), owned by a slot's uid with mode 0700. Runs whose workDir is a box run under
   * that box's slot uid. Its parent must be searchable by the slot uid (a mkdtemp dir of ours is
   * opened up to 0711).
   */
  async prepareBox(dir?: string): Promise<Box> {
    if (this.closed) throw new SandboxError('sandbox closed');
    const slot = this.nextBox++ % this.slots;
    const uid = this.uidOf(slot);
    const p = path.resolve(dir ?? path.join(this.workRoot, `box-${this.nextBox}-${randomBytes(3).toString('hex')}`));
    await fs.promises.rm(p, { recursive: true, force: true });
    await fs.promises.mkdir(p, { recursive: true, mode: 0o700 });
    if (this.root) await fs.promises.chown(p, uid, uid);
    await fs.promises.chmod(p, 0o700);
    this.ensureReachable(path.dirname(p));
    this.boxes.add(p);
    const boxes = this.boxes;
    return {
      path: p,
      slot,
      uid,
      gid: uid,
      async dispose() {
        boxes.delete(p);
        await removeTree(p);
      },
    };
  }

  /** Runs a program to the end. 'pipe' outputs are drained and counted; a 'pipe' stdin gets no input. */
  async run(spec: RunSpec): Promise<RunResult> {
    const p = this.start(spec);
    p.stdin?.end();
    (p.stdout as Readable | null)?.resume();
    (p.stderr as Readable | null | undefined)?.resume();
    return p.result;
  }

  /** Starts a program; with 'pipe' stdio the caller drives it (interactive problems). */
  start(spec: RunSpec): RunningProgram {
    if (this.closed) throw new SandboxError('sandbox closed');
    if (currentCancel()?.aborted) throw new SandboxError('cancelled: the work was withdrawn');
    this.validate(spec);
    const slot = this.slotFor(spec.workDir);
    if (spec.stdin === 'pipe' || spec.stdout === 'pipe' || spec.stderr === 'pipe') {
      // streamed stdio goes through a session's helper: only the program holds its pipes, so its
      // closing one is seen at once (bwrap and its pid 1 would hold them until the very end)
      const { stdin, stdout, stderr, stderrKeepBytes, ...base } = spec;
      const session = this.openSession(base);
      const p = session.start({ stdin, stdout, stderr, stderrKeepBytes });
      return { ...p, result: p.result.finally(() => session.close()) };
    }
    const run = new SupervisedRun(spec, this.pool, { ...this.commandLine(spec, slot), uid: this.root ? this.uidOf(slot) : undefined });
    return this.track(slot, {
      stdin: run.pipes.stdin,
      stdout: run.pipes.outMeter,
      stderr: run.pipes.errKeeper,
      result: run.supervise(),
      kill: () => run.kill('user'),
    });
  }

  /** A run counts for its slot, is killed by close() and by the withdrawal of the work it belongs to. */
  private track(slot: number, p: RunningProgram): RunningProgram {
    const cancel = currentCancel();
    this.busy[slot]!++;
    const result = p.result.finally(() => this.busy[slot]!--);
    const entry: Active = { kill: p.kill, done: result.catch(() => {}) };
    this.active.add(entry);
    cancel?.addEventListener('abort', p.kill, { once: true });
    void entry.done.then(() => {
      this.active.delete(entry);
      cancel?.removeEventListener('abort', p.kill);
    });
    return { ...p, result };
  }


  /**
   * A sandbox kept open for many runs of one program (the tests of a submission): each run is a
   * fork and exec inside it, with its own limits, counters, stdio files and a fresh /tmp. Opened
   * on its first run; close() it when done.
   */
  openSession(spec: SessionSpec): Session {
    if (this.closed) throw new SandboxError('sandbox closed');
    this.validate({ ...spec, stdin: 'ignore' });
    const slot = this.slotFor(spec.workDir);
    return new Session(
      {
        pool: this.pool,
        uid: this.root ? this.uidOf(slot) : undefined,
        none: this.cg.kind === 'none',
        boxArgv: (s) => this.bwrapArgs(s, [this.helper, BOX_HELPER], [BOX_HELPER, '--box', ...(this.filter ? [] : ['--unfiltered'])]),
        // the helper's hard limits bound what each test may be given: as high as a language may ask
        boxRlimits: `nofile=4096,core=0,stack=${this.stack}`,
        testRlimits: (s) => this.rlimits(s, slot),
        track: (p) => {
          if (this.closed) throw new SandboxError('sandbox closed');
          if (currentCancel()?.aborted) throw new SandboxError('cancelled: the work was withdrawn');
          return this.track(slot, p);
        },
      },
      spec,
    );
  }

  /** Kills what still runs, removes the cgroups, the boxes not yet disposed and our workRoot. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const a of this.active) a.kill();
    await Promise.all([...this.active].map((a) => a.done));
    await this.pool.close();
    this.cg.close();
    for (const b of this.boxes) await removeTree(b).catch(() => {});
    this.boxes.clear();
    if (this.ownWorkRoot) await removeTree(this.workRoot).catch(() => {});
    process.off('exit', this.onExit);
    if (this.onSignal) {
      process.off('SIGTERM', this.onSignal);
      process.off('SIGINT', this.onSignal);
    }
  }

  /** The synchronous part of close, for process exit. */
  private closeSync(): void {
    if (this.closed) return;
    this.closed = true;
    for (const a of this.active) a.kill();
    this.pool.closeSync();
    this.cg.close(); // what is still busy is swept by the next start (sweepStale)
    try {
      if (this.ownWorkRoot) fs.rmSync(this.workRoot, { recursive: true, force: true });
    } catch {
      /* best effort */
    }
  }

  // -------------------------------------------------------------------------------------------

  private validate(spec: RunSpec): void {
    const bad = (m: string): never => {
      throw new SandboxError(`bad run spec: ${m}`);
    };
    if (!Array.isArray(spec.argv) || spec.argv.length === 0) bad('argv is empty');
    if (spec.argv.some((a) => typeof a !== 'string' || a.includes('\0'))) bad('argv must be strings without NUL');
    if (!path.isAbsolute(spec.workDir)) bad('workDir must be absolute');
    if (!fs.existsSync(spec.workDir)) bad(`workDir ${spec.workDir} does not exist`);
    const l = spec.limits;
    for (const k of ['cpuMs', 'wallMs', 'memoryBytes', 'pids', 'outputBytes'] as const) {
      if (!(typeof l?.[k] === 'number' && l[k] > 0 && Number.isFinite(l[k]))) bad(`limits.${k} must be a positive number`);
    }
    for (const m of spec.mounts ?? []) {
      if (!path.isAbsolute(m.box) || m.box === '/' || m.box === '/box' || /^\/(proc|dev|usr|tmp)(\/|$)/.test(m.box)) bad(`mount target ${m.box}`);
      if (!fs.existsSync(m.host)) bad(`mount source ${m.host} does not exist`);
    }
    for (const k of Object.keys(spec.env ?? {})) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) bad(`env name ${k}`);
  }

  private slotFor(workDir: string): number {
    if (this.root) {
      try {
        const s = fs.statSync(workDir).uid - this.uidBase;
        if (s >= 0 && s < this.slots) return s;
      } catch {
        /* validated before */
      }
    }
    let best = 0;
    for (let i = 1; i < this.slots; i++) if (this.busy[i]! < this.busy[best]!) best = i;
    return best;
  }

  /** bwrap's command line and the rlimits the cell sets before it executes bwrap. */
  private commandLine(spec: RunSpec, slot: number): Omit<Launch, 'uid'> {
    return { argv: this.bwrapArgs(spec, null, spec.argv), rlimits: this.rlimits(spec, slot) };
  }

  /** The backstops of one program (with a cgroup the 50 ms watchdog decides, not RLIMIT_CPU). */
  private rlimits(spec: Pick<RunSpec, 'limits' | 'openFiles' | 'addressSpaceLimit'>, slot: number): string {
    const l = spec.limits;
    const none = this.cg.kind === 'none';
    const cpuS = Math.max(1, Math.ceil(l.cpuMs / 1000));
    const soft = none ? cpuS : cpuS + 1;
    const rl = [`cpu=${soft}:${soft + 1}`, `fsize=${Math.floor(l.outputBytes) + 1}`, `nofile=${spec.openFiles ?? 64}`, 'core=0', `stack=${this.stack}`];
    if (none && this.root) rl.push(`nproc=${Math.floor(l.pids)}`);
    if (none && spec.addressSpaceLimit) rl.push(`as=${Math.floor(l.memoryBytes)}`);
    if (this.cpus.length) rl.push(`affinity=${this.cpus[slot % this.cpus.length]}`);
    return rl.join(',');
  }

  /** bwrap running `command`; `bind` mounts one more host file read-only (a session's helper). */
  private bwrapArgs(spec: Omit<RunSpec, 'argv'>, bind: [string, string] | null, command: string[]): string[] {
    const l = spec.limits;
    // bwrap reports an exit code on fd 3 only once it has executed the program
    const bw = [this.bwrap.path, '--json-status-fd', '3', ...this.prefix];
    if (this.newBwrap) bw.push('--size', String(Math.floor(l.memoryBytes)));
    bw.push('--tmpfs', '/tmp', spec.writable ? '--bind' : '--ro-bind', spec.workDir, '/box');
    for (const m of spec.mounts ?? []) bw.push(m.writable ? '--bind' : '--ro-bind', m.host, m.box);
    if (bind) bw.push('--ro-bind', bind[0], bind[1]);
    bw.push('--chdir', '/box', '--clearenv', '--setenv', 'PATH', SANDBOX_PATH, '--setenv', 'HOME', '/box', '--setenv', 'LANG', 'C.UTF-8');
    for (const [k, v] of Object.entries(spec.env ?? {})) bw.push('--setenv', k, v);
    bw.push('--hostname', 'judge', '--remount-ro', '/', '--remount-ro', '/dev');
    // the system-call filter (native/seccomp.c): a run's program gets it from bwrap, on the fd the
    // cell fills; a session's helper keeps CAP_SYS_ADMIN of the sandbox's user namespace to give
    // each test an IPC namespace of its own, and filters each test itself (native/box.c)
    if (this.filter && bind) bw.push('--cap-add', 'CAP_SYS_ADMIN');
    else if (this.filter) bw.push('--seccomp', String(SECCOMP_FD));
    bw.push('--', ...command);
    return bw;
  }

  /** The slot uid binds the box itself: every directory above it must be searchable by others. */
  private ensureReachable(dir: string): void {
    if (!this.root) return;
    const me = process.geteuid?.() ?? 0;
    let d = dir;
    for (;;) {
      const st = fs.statSync(d);
      if ((st.mode & 0o001) === 0) {
        const parent = path.dirname(d);
        const parentSt = parent !== d ? fs.statSync(parent) : null;
        // a private dir of ours (in workRoot, or a mkdtemp in a sticky world-writable dir): open it for search
        const inWorkRoot = d === this.workRoot || d.startsWith(`${this.workRoot}/`);
        if (st.uid === me && (inWorkRoot || (parentSt && (parentSt.mode & 0o1002) === 0o1002))) {
          fs.chmodSync(d, (st.mode & 0o7777) | 0o001);
        } else {
          throw new SandboxError(`${d} is not searchable by the sandbox uids (needs o+x): put boxes below a directory they can reach`);
        }
      }
      const up = path.dirname(d);
      if (up === d) return;
      d = up;
    }
  }
}
