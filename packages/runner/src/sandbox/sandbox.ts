/**
 * The sandbox every untrusted program runs in: bubblewrap namespaces, a uid of its own per slot,
 * rlimit backstops, and a fresh cgroup per run that limits, measures and kills the whole tree.
 * The per-run pipeline is research/sandbox.md §2.2:
 *
 *   Node spawn (uid/gid of the slot, env {PATH} only)
 *     → prlimit --cpu --fsize --nofile --core=0 --stack   (backstops; the cgroup does the real work)
 *     → bwrap --info-fd 3 --block-fd 4 --unshare-all ... --as-pid-1 ... -- sh -c '"$@" & wait $!' argv
 *   read fd 3 to EOF → child-pid → write it to the run's cgroup.procs → one byte on fd 4
 *   wall timer + 50 ms CPU watchdog (cgroup.kill; without cgroups SIGKILL of the sandbox's pid 1)
 *   → bwrap exits → wait for an empty cgroup → counters → verdict (tle, wall, mle, ole, re, ok)
 *   → remove the cgroup.
 *
 * Node's own spawn drops to the slot uid (setgid, setgroups(0), setuid), which spares the setpriv
 * exec of the research recipe (1–2 ms a run).
 */
import { spawn, execFileSync, type ChildProcess, type StdioOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform, type TransformCallback, type Readable, type Writable } from 'node:stream';
import { detectBackend, type CgroupBackend, type CgroupRun } from './cgroups.js';
import type { BackendKind, Limits, RunResult, RunSpec, RunStatus, RunningProgram, Stdio } from './types.js';

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
  /** Install SIGTERM/SIGINT handlers that close the sandbox and then exit (default false: the caller does). */
  closeOnSignals?: boolean;
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

/** Thrown when the sandbox itself cannot work (not for a program that fails). */
export class SandboxError extends Error {
  override name = 'SandboxError';
}

const TAIL = 4096;
/**
 * pid 1 of the sandbox: sh starts the program (as pid 2, with the normal signal semantics pid 1
 * would lose), reaps whatever gets orphaned, and exits with the program's status (128+n for a
 * signal); the kernel then kills and reaps what is left in the namespace. bwrap's own init would
 * do the same, but bwrap exits without reaping it, leaving a zombie on the host for every run
 * until the host's init collects it (forever where the runner itself is pid 1 of a container).
 * A background job's stdin is /dev/null in sh, hence the detour through fd 3.
 */
const INIT = ['/bin/sh', '-c', 'exec 3<&0; "$@" <&3 3<&- & wait $!', 'sh'];
const SANDBOX_PATH = '/usr/bin:/bin';

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function which(name: string, extra: string[] = []): string | null {
  const dirs = [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/bin', '/bin', '/usr/local/bin', ...extra];
  for (const d of dirs) {
    const p = path.join(d, name);
    if (isExecutable(p)) return p;
  }
  return null;
}

function versionAtLeast(v: string, major: number, minor: number): boolean {
  const m = /(\d+)\.(\d+)/.exec(v);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return a > major || (a === major && b >= minor);
}

function signalName(n: number): string | undefined {
  for (const [name, num] of Object.entries(os.constants.signals)) if (num === n) return name;
  return undefined;
}

/** The hard RLIMIT_STACK of this process, for prlimit --stack (unlimited where allowed). */
function stackLimit(root: boolean): string {
  if (root) return 'unlimited';
  const m = /^Max stack size\s+\S+\s+(\S+)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
  return !m || m[1] === 'unlimited' ? 'unlimited' : `${m[1]}:${m[1]}`;
}

/** The read-only host tree every sandbox sees: /usr, the merged-/usr links, the loader cache, the JDK config. */
function hostRootArgs(): string[] {
  const a = ['--ro-bind', '/usr', '/usr'];
  for (const name of ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32']) {
    const p = `/${name}`;
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) a.push('--symlink', fs.readlinkSync(p), p);
    else if (st.isDirectory()) a.push('--ro-bind', p, p);
  }
  for (const f of ['/etc/ld.so.cache', '/etc/alternatives']) if (fs.existsSync(f)) a.push('--ro-bind', f, f);
  let etc: string[] = [];
  try {
    etc = fs.readdirSync('/etc');
  } catch {
    /* no /etc */
  }
  // the JDK's conf/ links into /etc/java-NN-openjdk
  for (const e of etc.sort()) if (/^java-\d+-openjdk$/.test(e)) a.push('--ro-bind', `/etc/${e}`, `/etc/${e}`);
  return a;
}

/** Counts bytes passing through, keeps the tail, and stops passing data on at the limit. */
class Meter extends Transform {
  bytes = 0;
  private tail: Buffer = Buffer.alloc(0);
  constructor(
    private readonly limit: number,
    private readonly onOver: () => void,
    private readonly keepTail: boolean,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    const before = this.bytes;
    this.bytes += chunk.length;
    if (this.keepTail) {
      const t = Buffer.concat([this.tail, chunk]);
      this.tail = t.length > TAIL ? t.subarray(t.length - TAIL) : t;
    }
    if (this.bytes > this.limit) {
      const room = Math.max(0, this.limit - before);
      if (room > 0) this.push(chunk.subarray(0, room));
      this.onOver();
      cb();
      return;
    }
    cb(null, chunk);
  }
  tailText(): string {
    return this.tail.toString('utf8');
  }
}

/** What one stdio entry became for the spawn, and how to measure it afterwards. */
interface Prepared {
  stdio: 'pipe' | 'ignore' | number;
  /** fd we opened and close right after the spawn */
  ownFd?: number;
  path?: string;
  fd?: number;
  sizeBefore?: number;
}

function prepareStdio(s: Stdio | undefined, write: boolean): Prepared {
  if (s === undefined || s === 'ignore') return { stdio: 'ignore' };
  if (s === 'pipe') return { stdio: 'pipe' };
  if ('path' in s) {
    const fd = fs.openSync(s.path, write ? 'w' : 'r', 0o600);
    return { stdio: fd, ownFd: fd, path: s.path };
  }
  let sizeBefore: number | undefined;
  try {
    const st = fs.fstatSync(s.fd);
    if (st.isFile()) sizeBefore = st.size;
  } catch {
    /* not a file */
  }
  return { stdio: s.fd, fd: s.fd, sizeBefore };
}

/** Bytes written to a file target, and its tail when asked for. */
function measureFile(p: Prepared, wantTail: boolean): { bytes: number; tail?: string } | null {
  let fd: number;
  let start = 0;
  let close = false;
  if (p.path !== undefined) {
    try {
      fd = fs.openSync(p.path, 'r');
      close = true;
    } catch {
      return null;
    }
  } else if (p.fd !== undefined && p.sizeBefore !== undefined) {
    fd = p.fd;
    start = p.sizeBefore;
  } else return null;
  try {
    const size = fs.fstatSync(fd).size;
    const bytes = Math.max(0, size - start);
    if (!wantTail || bytes === 0) return { bytes };
    const from = Math.max(start, size - TAIL);
    const buf = Buffer.alloc(size - from);
    let n: number;
    try {
      n = fs.readSync(fd, buf, 0, buf.length, from);
    } catch {
      // the caller's fd is write-only: read the same file through /proc
      try {
        const rfd = fs.openSync(`/proc/self/fd/${fd}`, 'r');
        try {
          n = fs.readSync(rfd, buf, 0, buf.length, from);
        } finally {
          fs.closeSync(rfd);
        }
      } catch {
        return { bytes };
      }
    }
    return { bytes, tail: buf.subarray(0, n).toString('utf8') };
  } finally {
    if (close) fs.closeSync(fd);
  }
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
  private nextBox = 0;
  private closed = false;
  private readonly onExit = (): void => this.closeSync();
  private readonly onSignal?: (sig: NodeJS.Signals) => void;

  private constructor(
    private readonly cg: CgroupBackend,
    bwrap: BwrapInfo,
    private readonly prlimit: string,
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
    this.newBwrap = versionAtLeast(bwrap.version, 0, 8);
    this.stack = stackLimit(this.root);
    this.prefix = [
      '--unshare-all',
      '--unshare-user',
      ...(this.newBwrap ? ['--disable-userns'] : []),
      '--die-with-parent',
      '--new-session',
      '--as-pid-1',
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
    const prlimit = which('prlimit');
    if (!prlimit) throw new SandboxError('prlimit not found: install util-linux');
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
        workRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'judge-sandbox-'));
        fs.chmodSync(workRoot, 0o711);
        own = true;
      }
    } catch (e) {
      cg.close();
      throw e;
    }
    return new Sandbox(cg, bwrap, prlimit, workRoot, own, opts);
  }

  /** What this machine's sandbox cannot enforce or measure (printed by `check` and `start`). */
  caveats(): string[] {
    const c = [...this.cg.caveats()];
    if (!this.root) c.push('not root: programs run under the runner\'s own uid (no uid of their own per slot), so they could signal the runner\'s other sandboxed programs');
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
    this.validate(spec);
    const limits = spec.limits;
    const slot = this.slotFor(spec.workDir);
    const cg = this.cg.create(limits);
    // stderr is needed for runtime out-of-memory messages even when the caller ignores it
    const stderrSpec: Stdio | undefined = spec.stderr === undefined || spec.stderr === 'ignore' ? (spec.outOfMemory?.length ? 'pipe' : 'ignore') : spec.stderr;
    const prepared: Prepared[] = [];
    let child: ChildProcess;
    try {
      prepared.push(prepareStdio(spec.stdin, false), prepareStdio(spec.stdout, true), prepareStdio(stderrSpec, true));
      const { file, args } = this.commandLine(spec);
      const stdio: StdioOptions = [prepared[0]!.stdio, prepared[1]!.stdio, prepared[2]!.stdio, 'pipe', 'pipe'];
      const uid = this.root ? this.uidOf(slot) : undefined;
      child = spawn(file, args, {
        stdio,
        env: { PATH: SANDBOX_PATH },
        ...(uid !== undefined ? { uid, gid: uid } : {}),
      });
    } catch (e) {
      cg?.remove();
      throw e;
    } finally {
      for (const p of prepared) if (p.ownFd !== undefined) fs.closeSync(p.ownFd);
    }
    this.busy[slot]!++;

    let killedFor: 'tle' | 'wall' | 'ole' | 'user' | 'setup' | undefined;
    // The sandbox's pid 1 (host pid, from bwrap's info fd) once known. Killing it (or the whole
    // cgroup) rather than bwrap lets bwrap reap it: a killed bwrap would orphan it to the host's init.
    let sandboxPid: number | undefined;
    let backstop: NodeJS.Timeout | undefined;
    const alive = (): boolean => child.exitCode === null && child.signalCode === null;
    const kill = (why: NonNullable<typeof killedFor>): void => {
      if (!alive()) {
        if (why === 'ole') killedFor ??= why; // the meters may finish after the exit
        return;
      }
      killedFor ??= why;
      if (sandboxPid === undefined) {
        child.kill('SIGKILL'); // still setting up: nothing of the program runs yet
        return;
      }
      try {
        if (cg) cg.kill();
        else process.kill(sandboxPid, 'SIGKILL');
      } catch {
        /* already gone */
      }
      backstop ??= setTimeout(() => alive() && child.kill('SIGKILL'), 1000);
    };

    const meters: Meter[] = [];
    const meter = (stream: Readable | null, keepTail: boolean): Meter | null => {
      if (!stream) return null;
      const m = new Meter(limits.outputBytes, () => kill('ole'), keepTail);
      stream.on('error', () => {});
      stream.pipe(m);
      meters.push(m);
      return m;
    };
    const outMeter = meter(child.stdout, false);
    const errMeter = meter(child.stderr, true);
    child.stdin?.on('error', () => {}); // EPIPE when the program stops reading
    const exposeStderr = spec.stderr === 'pipe';
    if (errMeter && !exposeStderr) errMeter.resume();

    const info = child.stdio[3] as Readable | null;
    const block = child.stdio[4] as Writable | null;
    info?.on('error', () => {});
    block?.on('error', () => {});
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
    // 'exit' may not follow a spawn error
    const ended = Promise.race([exited, spawnError.then(() => ({ code: null, signal: null }))]);

    const result = (async (): Promise<RunResult> => {
      let wallTimer: NodeJS.Timeout | undefined;
      let cpuTimer: NodeJS.Timeout | undefined;
      const setupTimer = setTimeout(() => kill('setup'), 20_000);
      try {
        // 1. bwrap writes {"child-pid": N} right after its clone and closes fd 3; read it to EOF
        let text = '';
        const infoDone = new Promise<void>((resolve) => {
          if (!info) return;
          info.setEncoding('utf8');
          info.on('data', (d: string) => (text += d));
          info.once('end', resolve);
          info.once('close', resolve);
        });
        const first = await Promise.race([infoDone.then(() => 'info' as const), spawnError]);
        if (first instanceof Error) throw new SandboxError(`cannot start the sandbox: ${first.message}`);
        let pid: number | undefined;
        try {
          pid = (JSON.parse(text) as { 'child-pid'?: number })['child-pid'];
        } catch {
          pid = undefined;
        }
        if (!pid) {
          kill('setup');
          const { code } = await ended;
          const err = measureFile(prepared[2]!, true)?.tail ?? errMeter?.tailText() ?? '';
          throw new SandboxError(`the sandbox did not start (bwrap exit ${code}): ${err.trim().split('\n').slice(-3).join(' | ') || 'no message'}`);
        }
        // 2. late attach: the namespaces are being built meanwhile, and are not charged to the run
        try {
          cg?.attach(pid);
        } catch (e) {
          kill('setup'); // bwrap itself: the program has not started
          const { code } = await ended;
          // ESRCH: the sandbox died while it was being set up (a mount it could not make, say):
          // bwrap's own words say why
          const err = measureFile(prepared[2]!, true)?.tail ?? errMeter?.tailText() ?? '';
          const said = err.trim().split('\n').slice(-3).join(' | ');
          const why = said
            ? `bwrap exit ${code}: ${said}`
            : `bwrap exit ${code} during set-up; usually a directory it must mount is out of the slot uid's reach (a parent not searchable by others)`;
          throw new SandboxError(`cannot move the sandbox into its cgroup: ${(e as Error).message} (${why})`);
        }
        sandboxPid = pid;
        clearTimeout(setupTimer);
        // 3. let it exec
        block?.end('x');
        const t0 = process.hrtime.bigint();
        wallTimer = setTimeout(() => kill('wall'), Math.min(limits.wallMs, 2 ** 31 - 1));
        if (cg) {
          const limitNs = limits.cpuMs * 1e6;
          cpuTimer = setInterval(() => {
            cg.sampleMemory();
            const ns = cg.cpuNs();
            if (ns !== null && ns > limitNs) kill('tle');
          }, 50);
        }
        const { code, signal } = await exited;
        const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
        clearTimeout(wallTimer);
        clearInterval(cpuTimer);
        // 4. the sandbox's pid 1 may still be tearing down: wait for an empty cgroup
        if (cg) await waitEmpty(cg);
        const st = cg?.stats();
        cg?.remove();
        // pipes: let what is buffered reach the meters (the caller may not read: do not wait long)
        if (meters.length) {
          let t: NodeJS.Timeout | undefined;
          await Promise.race([Promise.all(meters.map((m) => streamDone(m))), new Promise((r) => (t = setTimeout(r, 200)))]);
          clearTimeout(t);
        }
        const out = outMeter ? { bytes: outMeter.bytes } : measureFile(prepared[1]!, false);
        const err = errMeter ? { bytes: errMeter.bytes, tail: errMeter.tailText() } : measureFile(prepared[2]!, true);
        const cpuMs = st?.cpuNs != null ? Math.round(st.cpuNs / 1e5) / 10 : Math.round(wallMs * 10) / 10;
        return decide({
          limits,
          none: !cg,
          killedFor,
          code,
          signal,
          cpuMs,
          wallMs: Math.round(wallMs * 10) / 10,
          memoryBytes: st?.peakBytes ?? null,
          oomKills: st?.oomKills ?? 0,
          pidsRefused: st?.pidsRefused ?? 0,
          stdoutBytes: out?.bytes ?? 0,
          stderrBytes: err?.bytes,
          stderrTail: err?.tail,
          outOfMemory: spec.outOfMemory ?? [],
        });
      } catch (e) {
        kill('setup');
        if (cg) {
          await ended;
          await waitEmpty(cg).catch(() => {});
          cg.remove();
        }
        throw e;
      } finally {
        clearTimeout(setupTimer);
        clearTimeout(backstop);
        clearTimeout(wallTimer);
        clearInterval(cpuTimer);
        this.busy[slot]!--;
      }
    })();
    const entry: Active = { kill: () => kill('user'), done: result.catch(() => {}) };
    this.active.add(entry);
    void entry.done.then(() => this.active.delete(entry));
    return {
      stdin: child.stdin,
      stdout: outMeter,
      stderr: exposeStderr ? errMeter : null,
      result,
      kill: () => kill('user'),
    };
  }

  /** Kills what still runs, removes the cgroups, the boxes not yet disposed and our workRoot. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const a of this.active) a.kill();
    await Promise.all([...this.active].map((a) => a.done));
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

  private commandLine(spec: RunSpec): { file: string; args: string[] } {
    const l = spec.limits;
    const none = this.cg.kind === 'none';
    const cpuS = Math.max(1, Math.ceil(l.cpuMs / 1000));
    // with a cgroup the 50 ms watchdog decides and RLIMIT_CPU is only the backstop
    const soft = none ? cpuS : cpuS + 1;
    const pr = [
      `--cpu=${soft}:${soft + 1}`,
      `--fsize=${Math.floor(l.outputBytes) + 1}`,
      `--nofile=${spec.openFiles ?? 64}`,
      '--core=0',
      `--stack=${this.stack}`,
    ];
    if (none && this.root) pr.push(`--nproc=${Math.floor(l.pids)}`);
    if (none && spec.addressSpaceLimit) pr.push(`--as=${Math.floor(l.memoryBytes)}`);
    const bw = ['--info-fd', '3', '--block-fd', '4', ...this.prefix];
    if (this.newBwrap) bw.push('--size', String(Math.floor(l.memoryBytes)));
    bw.push('--tmpfs', '/tmp', spec.writable ? '--bind' : '--ro-bind', spec.workDir, '/box');
    for (const m of spec.mounts ?? []) bw.push(m.writable ? '--bind' : '--ro-bind', m.host, m.box);
    bw.push('--chdir', '/box', '--clearenv', '--setenv', 'PATH', SANDBOX_PATH, '--setenv', 'HOME', '/box', '--setenv', 'LANG', 'C.UTF-8');
    for (const [k, v] of Object.entries(spec.env ?? {})) bw.push('--setenv', k, v);
    bw.push('--hostname', 'judge', '--remount-ro', '/', '--remount-ro', '/dev', '--', ...INIT, ...spec.argv);
    return { file: this.prlimit, args: [...pr, this.bwrap.path, ...bw] };
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

/** Final verdict in the order of research/sandbox.md §2.2 step 8. */
function decide(x: {
  limits: Limits;
  none: boolean;
  killedFor: 'tle' | 'wall' | 'ole' | 'user' | 'setup' | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
  cpuMs: number;
  wallMs: number;
  memoryBytes: number | null;
  oomKills: number;
  pidsRefused: number;
  stdoutBytes: number;
  stderrBytes: number | undefined;
  stderrTail: string | undefined;
  outOfMemory: { exitCode: number; stderr: string }[];
}): RunResult {
  // bwrap folds a signal n into 128+n; a kill of bwrap itself shows as the signal
  const sig = x.signal ?? (x.code !== null && x.code > 128 && x.code < 128 + 65 ? signalName(x.code - 128) : undefined);
  const base = {
    exitCode: x.code,
    cpuMs: x.cpuMs,
    wallMs: x.wallMs,
    memoryBytes: x.memoryBytes,
    stdoutBytes: x.stdoutBytes,
    ...(sig ? { signal: sig } : {}),
    ...(x.stderrBytes !== undefined ? { stderrBytes: x.stderrBytes } : {}),
    ...(x.stderrTail !== undefined ? { stderrTail: x.stderrTail } : {}),
  };
  const r = (status: RunStatus, reason?: string): RunResult => ({ status, ...base, ...(reason ? { reason } : {}) });
  const L = x.limits;
  const mib = (b: number): string => `${Math.round(b / 1048576)} MiB`;
  if (x.killedFor === 'tle' || (!x.none && x.cpuMs > L.cpuMs) || sig === 'SIGXCPU' || (x.none && sig === 'SIGKILL' && !x.killedFor && x.wallMs >= L.cpuMs)) {
    return r('tle', `CPU time limit exceeded (${L.cpuMs} ms)`);
  }
  if (x.killedFor === 'wall') return r('wall', `wall-clock limit exceeded (${L.wallMs} ms)`);
  if (x.oomKills > 0) return r('mle', `out of memory (limit ${mib(L.memoryBytes)})`);
  const tail = x.stderrTail ?? '';
  const hint = x.outOfMemory.find((h) => x.code === h.exitCode && new RegExp(h.stderr, 'm').test(tail));
  if (hint) {
    const line = tail.split('\n').find((s) => new RegExp(hint.stderr, 'm').test(s))?.trim();
    return r('mle', `out of memory (${line ? line.slice(0, 200) : `exit ${x.code}`})`);
  }
  const over = Math.max(x.stdoutBytes, x.stderrBytes ?? 0);
  if (x.killedFor === 'ole' || over > L.outputBytes || sig === 'SIGXFSZ') return r('ole', `output limit exceeded (${L.outputBytes} bytes)`);
  if (x.killedFor === 'user') return r('re', 'killed by the runner');
  if (x.code !== 0 || x.signal) {
    let reason = sig ? `killed by ${sig}` : `exit code ${x.code}`;
    if (x.pidsRefused > 0) reason += `; process limit (${L.pids}) reached`;
    return r('re', reason);
  }
  return r('ok');
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function streamDone(s: Readable): Promise<void> {
  return new Promise((resolve) => {
    if (s.readableEnded || s.destroyed) return resolve();
    s.once('end', resolve);
    s.once('close', resolve);
    s.once('error', () => resolve());
  });
}

/** Polls until no process is left (1 ms steps); kills again if something lingers. */
async function waitEmpty(cg: CgroupRun): Promise<void> {
  if (cg.empty()) return;
  cg.kill();
  const start = Date.now();
  let spins = 0;
  while (!cg.empty()) {
    if (Date.now() - start > 5000) throw new SandboxError('processes of a run survived cgroup.kill for 5 s');
    if (++spins % 50 === 0) cg.kill();
    await (spins < 20 ? new Promise<void>((r) => setImmediate(r)) : delay(1));
  }
}

async function removeTree(p: string): Promise<void> {
  try {
    await fs.promises.rm(p, { recursive: true, force: true });
  } catch {
    // a program may have left directories without write permission: open them up and retry
    const walk = (d: string): void => {
      try {
        fs.chmodSync(d, 0o700);
        for (const e of fs.readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) walk(path.join(d, e.name));
      } catch {
        /* ignore */
      }
    };
    walk(p);
    await fs.promises.rm(p, { recursive: true, force: true });
  }
}
