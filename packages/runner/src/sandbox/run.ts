/**
 * One run under supervision, in named phases (research/sandbox.md §2.2):
 *
 *   spawn      stdio opened, prlimit → bwrap spawned as the slot uid, output meters attached
 *   childPid   bwrap's info fd read to EOF: the host pid of the sandbox's pid 1
 *   attach     that pid moved into the run's cgroup (late attach: set-up is not charged)
 *   watch      one byte on the block fd lets it exec; wall timer and 50 ms CPU watchdog until exit
 *   collect    wait for an empty cgroup, read the counters, drain the meters, decide the status
 *   abort      on any failure of the above: kill, wait, remove the cgroup
 *   teardown   every timer cleared, whatever happened
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import fs from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { CgroupRun } from './cgroup-common.js';
import { SandboxError } from './errors.js';
import { SANDBOX_PATH, TAIL } from './host.js';
import { measureFile, Meter, prepareStdio, StderrKeeper, streamDone, type StdioTarget } from './stdio.js';
import type { RunResult, RunSpec } from './types.js';
import { decide, type KillReason } from './verdict.js';

/** Gives up on a sandbox that has not reached the program in this long. */
const SETUP_MS = 20_000;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** performance.now() when the exit was seen, before any teardown. */
  at: number;
}

/** What to spawn: the full command line (prlimit … bwrap … argv) and the uid to drop to. */
export interface Launch {
  file: string;
  args: string[];
  uid: number | undefined;
}

export class SupervisedRun {
  /** Counted stdout when it is a pipe (null for files and fds). */
  readonly outMeter: Meter | null;
  /** stderr, kept in part and counted (null when it is ignored). */
  readonly errKeeper: StderrKeeper | null;
  /** Every stream that must drain before the run's figures are final. */
  private readonly drains: Readable[] = [];
  private killedFor: KillReason | undefined;
  /** performance.now() of the first kill, for the order of an interactive pair. */
  private killedAt: number | undefined;
  // The sandbox's pid 1 (host pid, from bwrap's info fd) once known. Killing it (or the whole
  // cgroup) rather than bwrap lets bwrap reap it: a killed bwrap would orphan it to the host's init.
  private sandboxPid: number | undefined;
  private backstop: NodeJS.Timeout | undefined;
  private setupTimer: NodeJS.Timeout | undefined;
  private wallTimer: NodeJS.Timeout | undefined;
  private cpuTimer: NodeJS.Timeout | undefined;
  private readonly exited: Promise<Exit>;
  private readonly spawnError: Promise<Error>;
  /** The exit, or a spawn error ('exit' may not follow one). */
  private readonly ended: Promise<Exit>;

  /** Phase spawn: opens the stdio targets, spawns, and closes the fds the child now holds. */
  static spawn(spec: RunSpec, cg: CgroupRun | null, launch: () => Launch): SupervisedRun {
    // stderr always comes through a pipe the runner reads (kept in part, never limited: it is not
    // output), unless it is ignored and no runtime out-of-memory message has to be read from it
    const ignored = (spec.stderr === undefined || spec.stderr === 'ignore') && !spec.outOfMemory?.length;
    const targets: StdioTarget[] = [];
    let child: ChildProcess;
    try {
      targets.push(prepareStdio(spec.stdin, false), prepareStdio(spec.stdout, true), { stdio: ignored ? 'ignore' : 'pipe' });
      const { file, args, uid } = launch();
      const stdio: StdioOptions = [targets[0]!.stdio, targets[1]!.stdio, targets[2]!.stdio, 'pipe', 'pipe'];
      child = spawn(file, args, {
        stdio,
        env: { PATH: SANDBOX_PATH },
        ...(uid !== undefined ? { uid, gid: uid } : {}),
      });
    } catch (e) {
      cg?.remove();
      throw e;
    } finally {
      for (const t of targets) if (t.ownFd !== undefined) fs.closeSync(t.ownFd);
    }
    return new SupervisedRun(child, targets, spec, cg);
  }

  private constructor(
    readonly child: ChildProcess,
    private readonly targets: StdioTarget[],
    private readonly spec: RunSpec,
    private readonly cg: CgroupRun | null,
  ) {
    this.outMeter = this.meter(child.stdout);
    this.errKeeper = this.keeper(child.stderr);
    child.stdin?.on('error', () => {}); // EPIPE when the program stops reading
    (child.stdio[3] as Readable | null)?.on('error', () => {});
    (child.stdio[4] as Writable | null)?.on('error', () => {});
    this.exited = new Promise<Exit>((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() }));
    });
    this.spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
    this.ended = Promise.race([this.exited, this.spawnError.then(() => ({ code: null, signal: null, at: performance.now() }))]);
  }

  /** The caller asked for stderr as a pipe. */
  get exposeStderr(): boolean {
    return this.spec.stderr === 'pipe';
  }

  /** Output cap: a pipe goes through a meter that kills the run at the output limit. */
  private meter(stream: Readable | null): Meter | null {
    if (!stream) return null;
    const m = new Meter(this.spec.limits.outputBytes, () => this.kill('ole'));
    stream.on('error', () => {});
    stream.pipe(m);
    this.drains.push(m);
    return m;
  }

  /** stderr: read as fast as it comes, whatever its size; only its head and tail are kept. */
  private keeper(stream: Readable | null): StderrKeeper | null {
    if (!stream) return null;
    const k = new StderrKeeper(this.spec.stderrKeepBytes ?? TAIL, this.exposeStderr);
    stream.on('error', () => {});
    stream.pipe(k);
    if (!this.exposeStderr) k.resume();
    this.drains.push(k);
    return k;
  }

  /** Lets what is buffered in the pipes reach the meters; the caller may not read, so not for long. */
  private async drained(ms: number): Promise<void> {
    if (!this.drains.length) return;
    let t: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.drains.map((m) => streamDone(m))), new Promise((r) => (t = setTimeout(r, ms)))]);
    clearTimeout(t);
  }

  private alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Kills the whole run (the cgroup, else the sandbox's pid 1); the first reason is the one that counts. */
  kill(why: KillReason): void {
    if (!this.alive()) {
      if (why === 'ole') this.killedFor ??= why; // the meters may finish after the exit
      return;
    }
    this.killedFor ??= why;
    this.killedAt ??= performance.now();
    if (this.sandboxPid === undefined) {
      this.child.kill('SIGKILL'); // still setting up: nothing of the program runs yet
      return;
    }
    try {
      if (this.cg) this.cg.kill();
      else process.kill(this.sandboxPid, 'SIGKILL');
    } catch {
      /* already gone */
    }
    this.backstop ??= setTimeout(() => this.alive() && this.child.kill('SIGKILL'), 1000);
  }

  /** The run from start to result; on any failure it is killed and its cgroup removed before the error goes on. */
  async supervise(): Promise<RunResult> {
    this.setupTimer = setTimeout(() => this.kill('setup'), SETUP_MS);
    try {
      const pid = await this.childPid();
      await this.attach(pid);
      const { exit, wallMs } = await this.watch();
      return await this.collect(exit, wallMs);
    } catch (e) {
      await this.abort();
      throw e;
    } finally {
      this.teardown();
    }
  }

  /** Phase childPid: bwrap writes {"child-pid": N} right after its clone and closes fd 3; read it to EOF. */
  private async childPid(): Promise<number> {
    const info = this.child.stdio[3] as Readable | null;
    let text = '';
    const infoDone = new Promise<void>((resolve) => {
      if (!info) return;
      info.setEncoding('utf8');
      info.on('data', (d: string) => (text += d));
      info.once('end', resolve);
      info.once('close', resolve);
    });
    const first = await Promise.race([infoDone.then(() => 'info' as const), this.spawnError]);
    if (first instanceof Error) throw new SandboxError(`cannot start the sandbox: ${first.message}`);
    let pid: number | undefined;
    try {
      pid = (JSON.parse(text) as { 'child-pid'?: number })['child-pid'];
    } catch {
      pid = undefined;
    }
    if (!pid) {
      this.kill('setup');
      const { code } = await this.ended;
      await this.drained(200);
      throw new SandboxError(`the sandbox did not start (bwrap exit ${code}): ${this.setupMessage() || 'no message'}`);
    }
    return pid;
  }

  /** Phase attach: late attach; the namespaces are being built meanwhile, and are not charged to the run. */
  private async attach(pid: number): Promise<void> {
    try {
      this.cg?.attach(pid);
    } catch (e) {
      this.kill('setup'); // bwrap itself: the program has not started
      const { code } = await this.ended;
      await this.drained(200);
      // ESRCH: the sandbox died while it was being set up (a mount it could not make, say):
      // bwrap's own words say why
      const said = this.setupMessage();
      const why = said
        ? `bwrap exit ${code}: ${said}`
        : `bwrap exit ${code} during set-up; usually a directory it must mount is out of the slot uid's reach (a parent not searchable by others)`;
      throw new SandboxError(`cannot move the sandbox into its cgroup: ${(e as Error).message} (${why})`);
    }
    this.sandboxPid = pid;
    clearTimeout(this.setupTimer);
  }

  /** bwrap's last stderr lines, for a sandbox that failed to set up. */
  private setupMessage(): string {
    const err = this.errKeeper?.tailText() ?? '';
    return err.trim().split('\n').slice(-3).join(' | ');
  }

  /** Phase watch: lets the program exec, then the wall timer and the CPU watchdog until it exits. */
  private async watch(): Promise<{ exit: Exit; wallMs: number }> {
    const { limits } = this.spec;
    (this.child.stdio[4] as Writable | null)?.end('x');
    const t0 = process.hrtime.bigint();
    this.wallTimer = setTimeout(() => this.kill('wall'), Math.min(limits.wallMs, 2 ** 31 - 1));
    const cg = this.cg;
    if (cg) {
      const limitNs = limits.cpuMs * 1e6;
      this.cpuTimer = setInterval(() => {
        cg.sampleMemory();
        const ns = cg.cpuNs();
        if (ns !== null && ns > limitNs) this.kill('tle');
      }, 50);
    }
    const exit = await this.exited;
    const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
    clearTimeout(this.wallTimer);
    clearInterval(this.cpuTimer);
    return { exit, wallMs };
  }

  /** Phase collect: the counters of an empty cgroup, the output sizes, and the status they make. */
  private async collect({ code, signal, at }: Exit, wallMs: number): Promise<RunResult> {
    const cg = this.cg;
    // the sandbox's pid 1 may still be tearing down: wait for an empty cgroup
    if (cg) await waitEmpty(cg);
    const st = cg?.stats();
    cg?.remove();
    await this.drained(200);
    const out = this.outMeter ? { bytes: this.outMeter.bytes } : measureFile(this.targets[1]!);
    const err = this.errKeeper;
    if (err) this.keepStderr(err);
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
      stdoutBytes: out?.bytes ?? 0,
      stderrBytes: err?.bytes,
      stderrHead: err?.headText(),
      stderrTail: err?.tailText(),
      outOfMemory: this.spec.outOfMemory ?? [],
    });
    // a run the judge stopped ended when it was told to: its teardown may outlast the other side's reaction
    return { ...result, exitedAt: Math.min(at, this.killedAt ?? at) };
  }

  /** What was kept of stderr goes to the caller's file or fd, if it named one. */
  private keepStderr(k: StderrKeeper): void {
    const to = this.spec.stderr;
    if (to === undefined || typeof to === 'string') return;
    if ('path' in to) fs.writeFileSync(to.path, k.keptText(), { mode: 0o600 });
    else if (k.bytes > 0) fs.writeSync(to.fd, k.keptText());
  }

  /** Phase abort: nothing of the run may outlive a failure of the supervisor. */
  private async abort(): Promise<void> {
    this.kill('setup');
    if (this.cg) {
      await this.ended;
      await waitEmpty(this.cg).catch(() => {});
      this.cg.remove();
    }
  }

  /** Phase teardown: no timer outlives the run. */
  private teardown(): void {
    clearTimeout(this.setupTimer);
    clearTimeout(this.backstop);
    clearTimeout(this.wallTimer);
    clearInterval(this.cpuTimer);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
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
