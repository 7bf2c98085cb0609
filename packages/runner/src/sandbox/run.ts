/**
 * One run under supervision, in named phases (research/sandbox.md §2.2):
 *
 *   lease      an idle cell (a launcher already inside its cgroups), the run's limits applied
 *   launch     the cell forks: stdio, rlimits, the slot uid, then bwrap; pipes the runner streams
 *              are opened through /proc/<cell>/fd
 *   watch      wall timer and 50 ms CPU watchdog until bwrap exits
 *   collect    wait until only the launcher is left, read the counters, decide the status
 *   abort      on any failure of the above: kill, wait, throw the cell away
 *   teardown   every timer cleared, the cell given back (reset for its next run)
 */
import fs from 'node:fs';
import net from 'node:net';
import { PassThrough, type Readable } from 'node:stream';
import type { CellExit, CellRequest, CellRun, CellStarted, CellStdio } from './cell.js';
import type { CellPool, Lease } from './cell-pool.js';
import { SandboxError } from './errors.js';
import { signalName, TAIL } from './host.js';
import { Meter, StderrKeeper, streamDone } from './stdio.js';
import type { RunResult, RunSpec, Stdio } from './types.js';
import { decide, type KillReason } from './verdict.js';

/** What the sandbox computed for the launch: bwrap's command line and the rlimits. */
export interface Launch {
  argv: string[];
  rlimits: string;
  uid: number | undefined;
}

/** How a Stdio of the spec reaches the cell, and how its size is told afterwards. */
function cellStdio(s: Stdio | undefined, dir: 'in' | 'out'): { io: CellStdio; path?: string; fd?: number; sizeBefore?: number } {
  if (s === undefined || s === 'ignore') return { io: { kind: 'null' } };
  if (s === 'pipe') return { io: { kind: 'pipe' } };
  if ('path' in s) return { io: { kind: dir === 'in' ? 'read' : 'write', path: s.path }, path: s.path };
  // the caller's own fd: the cell opens the same file through /proc (appending, for output)
  const via = `/proc/${process.pid}/fd/${s.fd}`;
  let sizeBefore: number | undefined;
  try {
    const st = fs.fstatSync(s.fd);
    if (st.isFile()) sizeBefore = st.size;
  } catch {
    throw new SandboxError(`bad run spec: fd ${s.fd} is not open`);
  }
  return { io: { kind: dir === 'in' ? 'read' : 'append', path: via }, fd: s.fd, sizeBefore };
}

function decodeStatus(status: number): { code: number | null; signal: NodeJS.Signals | null } {
  const sig = status & 0x7f;
  if (sig === 0) return { code: (status >> 8) & 0xff, signal: null };
  return { code: null, signal: (signalName(sig) as NodeJS.Signals | undefined) ?? 'SIGKILL' };
}

export class SupervisedRun {
  /** Counted stdout when it is a pipe. */
  readonly outMeter: Meter | null;
  /** stderr as a stream, when the caller asked for a pipe. */
  readonly errKeeper: StderrKeeper | null;
  /** Where the caller writes a piped stdin (bridged to the program once it runs). */
  readonly stdin: PassThrough | null;
  private readonly stdout: ReturnType<typeof cellStdio>;
  private killedFor: KillReason | undefined;
  private killedAt: number | undefined;
  private lease: Lease | undefined;
  private started: CellStarted | undefined;
  private exitSeen = false;
  private startedAt: number | undefined;
  private readonly sockets: net.Socket[] = [];
  private wallTimer: NodeJS.Timeout | undefined;
  private cpuTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly spec: RunSpec,
    private readonly pool: CellPool,
    private readonly launch: Launch,
  ) {
    this.stdout = cellStdio(spec.stdout, 'out');
    this.outMeter = spec.stdout === 'pipe' ? new Meter(spec.limits.outputBytes, () => this.kill('ole')) : null;
    this.errKeeper = spec.stderr === 'pipe' ? new StderrKeeper(spec.stderrKeepBytes ?? TAIL, true) : null;
    this.stdin = spec.stdin === 'pipe' ? new PassThrough() : null;
    this.stdin?.on('error', () => {});
  }

  /** Kills the whole run; the first reason is the one that counts. */
  kill(why: KillReason): void {
    if (this.exitSeen) {
      if (why === 'ole') this.killedFor ??= why; // the meter may finish after the exit
      return;
    }
    this.killedFor ??= why;
    this.killedAt ??= performance.now();
    if (!this.started || !this.lease) return; // not launched yet: it will not be
    this.killNow();
  }

  private killNow(): void {
    const { cell, cg } = this.lease!;
    try {
      if (cg) cg.kill(cell.pid);
      else process.kill(this.started!.pid, 'SIGKILL'); // bwrap: --die-with-parent takes the namespace along
    } catch {
      /* already gone */
    }
  }

  /** The run from start to result; on any failure it is killed and its cell thrown away before the error goes on. */
  async supervise(): Promise<RunResult> {
    let sound = false;
    try {
      this.lease = await this.pool.acquire();
      if (this.killedFor) return this.neverLaunched();
      this.lease.cg?.prepare(this.spec.limits);
      const run = this.lease.cell.run(this.request());
      const exit = await this.watch(run);
      const result = await this.collect(exit);
      sound = true;
      return result;
    } catch (e) {
      await this.abort();
      throw e;
    } finally {
      this.teardown();
      if (this.lease) this.pool.release(this.lease, sound);
    }
  }

  private request(): CellRequest {
    const stdin = cellStdio(this.spec.stdin, 'in');
    // stderr is never output: the cell keeps its head and tail unless the caller streams it
    const ignored = (this.spec.stderr === undefined || this.spec.stderr === 'ignore') && !this.spec.outOfMemory?.length;
    const stderr: CellStdio = this.spec.stderr === 'pipe' ? { kind: 'pipe' } : ignored ? { kind: 'null' } : { kind: 'keep' };
    return {
      uid: this.launch.uid,
      rlimits: this.launch.rlimits,
      stdio: [stdin.io, this.stdout.io, stderr],
      headBytes: this.spec.stderrKeepBytes ?? TAIL,
      argv: this.launch.argv,
    };
  }

  /** Phase launch + watch: the run's events until bwrap is reaped. */
  private watch(run: CellRun): Promise<CellExit> {
    const { limits } = this.spec;
    return new Promise<CellExit>((resolve, reject) => {
      run.once('error', reject);
      run.once('exit', (exit: CellExit) => {
        this.exitSeen = true;
        resolve(exit);
      });
      run.once('started', (s: CellStarted) => {
        this.started = s;
        this.startedAt = performance.now();
        try {
          this.openPipes(s);
        } catch {
          this.kill('setup');
          return;
        }
        if (this.killedFor) this.killNow();
        this.wallTimer = setTimeout(() => this.kill('wall'), Math.min(limits.wallMs, 2 ** 31 - 1));
        const cg = this.lease!.cg;
        if (cg) {
          const limitNs = limits.cpuMs * 1e6;
          this.cpuTimer = setInterval(() => {
            cg.sampleMemory();
            const ns = cg.cpuNs();
            if (ns !== null && ns > limitNs) this.kill('tle');
          }, 50);
        }
      });
    });
  }

  /** The pipes the caller streams: opened through the cell's fds, then the cell drops its ends. */
  private openPipes(s: CellStarted): void {
    const cell = this.lease!.cell;
    if (s.fds.every((fd) => fd < 0)) return;
    try {
      if (s.fds[0] >= 0 && this.stdin) {
        let fd: number | null = null;
        try {
          fd = cell.openPipe(s.fds[0], true);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ENXIO') throw e; // ENXIO: it stopped reading already
        }
        if (fd === null) this.stdin.resume();
        else {
          const sock = this.socket(fd, false);
          this.stdin.pipe(sock);
        }
      }
      if (s.fds[1] >= 0 && this.outMeter) this.socket(cell.openPipe(s.fds[1], false), true).pipe(this.outMeter);
      if (s.fds[2] >= 0 && this.errKeeper) this.socket(cell.openPipe(s.fds[2], false), true).pipe(this.errKeeper);
    } finally {
      cell.opened();
    }
  }

  private socket(fd: number, readable: boolean): net.Socket {
    const sock = new net.Socket({ fd, readable, writable: !readable });
    sock.on('error', () => {});
    this.sockets.push(sock);
    return sock;
  }

  /** Phase collect: the counters once only the launcher is left, the output sizes, and the status they make. */
  private async collect(exit: CellExit): Promise<RunResult> {
    const { cell, cg } = this.lease!;
    if (cg) await waitEmpty(cg, cell.pid);
    const st = cg?.stats();
    await this.drained(200);
    const keeper = this.errKeeper ?? StderrKeeper.kept(exit.head, exit.tail, exit.stderrBytes);
    const { code, signal } = decodeStatus(exit.status);
    if (!exit.started && !this.killedFor) this.notStarted(code, signal, keeper);
    const wallMs = exit.at - this.launchedAt(exit);
    const ignored = this.request().stdio[2].kind === 'null';
    if (!this.errKeeper && !ignored) this.keepStderr(keeper);
    const cpuMs = st?.cpuNs != null ? Math.round(st.cpuNs / 1e5) / 10 : Math.round(wallMs * 10) / 10;
    const result = decide({
      limits: this.spec.limits,
      none: !cg,
      killedFor: this.killedFor,
      code,
      signal,
      cpuMs,
      wallMs: Math.round(wallMs * 10) / 10,
      memoryBytes: st?.peakBytes ?? null,
      oomKills: st?.oomKills ?? 0,
      pidsRefused: st?.pidsRefused ?? 0,
      stdoutBytes: this.outMeter ? this.outMeter.bytes : (this.measureStdout() ?? 0),
      ...(ignored ? { stderrBytes: undefined, stderrTail: undefined } : { stderrBytes: keeper.bytes, stderrHead: keeper.headText(), stderrTail: keeper.tailText() }),
      outOfMemory: this.spec.outOfMemory ?? [],
    });
    // a run the judge stopped ended when it was told to: its teardown may outlast the other side's reaction
    return { ...result, exitedAt: Math.min(exit.at, this.killedAt ?? exit.at) };
  }

  private launchedAt(exit: CellExit): number {
    return this.startedAt ?? exit.at;
  }

  /**
   * bwrap reports an exit code only once it executed the program: without one, the sandbox failed
   * to set up (its own words are on stderr), unless the program itself was not there to execute,
   * which is the program's failure as before.
   */
  private notStarted(code: number | null, signal: NodeJS.Signals | null, keeper: StderrKeeper): void {
    const said = `${keeper.headText()}\n${keeper.tailText()}`;
    if (/^bwrap: execvp /m.test(said)) return;
    const why = said.trim().split('\n').filter(Boolean).slice(-3).join(' | ') || 'no message';
    throw new SandboxError(`the sandbox did not start (bwrap ${signal ? `killed by ${signal}` : `exit ${code}`}): ${why}`);
  }

  private measureStdout(): number | null {
    const t = this.stdout;
    try {
      if (t.path !== undefined) return fs.statSync(t.path).size;
      if (t.fd !== undefined && t.sizeBefore !== undefined) return Math.max(0, fs.fstatSync(t.fd).size - t.sizeBefore);
    } catch {
      /* gone */
    }
    return null;
  }

  /** What was kept of stderr goes to the caller's file or fd, if it named one (after what the program wrote there). */
  private keepStderr(k: StderrKeeper): void {
    const to = this.spec.stderr;
    if (to === undefined || typeof to === 'string') return;
    if ('path' in to) fs.writeFileSync(to.path, k.keptText(), { mode: 0o600 });
    else if (k.bytes > 0) fs.writeSync(to.fd, k.keptText(), fs.fstatSync(to.fd).size);
  }

  /** A run killed before it was launched: nothing ran. */
  private neverLaunched(): RunResult {
    this.exitSeen = true;
    const now = performance.now();
    return {
      ...decide({
        limits: this.spec.limits,
        none: !this.lease?.cg,
        killedFor: this.killedFor,
        code: null,
        signal: 'SIGKILL',
        cpuMs: 0,
        wallMs: 0,
        memoryBytes: null,
        oomKills: 0,
        pidsRefused: 0,
        stdoutBytes: 0,
        stderrBytes: undefined,
        stderrTail: undefined,
        outOfMemory: [],
      }),
      exitedAt: Math.min(now, this.killedAt ?? now),
    };
  }

  /** Lets what is buffered in the pipes reach the meters; the caller may not read, so not for long. */
  private async drained(ms: number): Promise<void> {
    const streams: Readable[] = [this.outMeter, this.errKeeper].filter((s): s is Meter | StderrKeeper => s !== null);
    if (!streams.length) return;
    let t: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(streams.map((m) => streamDone(m))), new Promise((r) => (t = setTimeout(r, ms)))]);
    clearTimeout(t);
  }

  /** Phase abort: nothing of the run may outlive a failure of the supervisor. */
  private async abort(): Promise<void> {
    this.killedFor ??= 'setup';
    if (!this.lease) return;
    if (this.started && !this.exitSeen) this.killNow();
    const { cell, cg } = this.lease;
    if (cg) await waitEmpty(cg, cell.pid).catch(() => {});
  }

  /** Phase teardown: no timer or pipe outlives the run. */
  private teardown(): void {
    clearTimeout(this.wallTimer);
    clearInterval(this.cpuTimer);
    for (const s of this.sockets) s.destroy();
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls until only the launcher is left (1 ms steps); kills again if something lingers. */
async function waitEmpty(cg: NonNullable<Lease['cg']>, keep: number): Promise<void> {
  if (cg.empty(keep)) return;
  cg.kill(keep);
  const start = Date.now();
  let spins = 0;
  while (!cg.empty(keep)) {
    if (Date.now() - start > 5000) throw new SandboxError('processes of a run survived their kill for 5 s');
    if (++spins % 50 === 0) cg.kill(keep);
    await (spins < 20 ? new Promise<void>((r) => setImmediate(r)) : delay(1));
  }
}
