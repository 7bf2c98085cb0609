/**
 * One run under supervision, in named phases:
 *
 *   lease      an idle cell (a launcher already inside its cgroups), the run's limits applied
 *   launch     the cell forks: stdio, rlimits, the slot uid, then bwrap; pipes the runner streams
 *              are opened through /proc/<cell>/fd
 *   watch      wall timer and 50 ms CPU watchdog until bwrap exits
 *   collect    wait until only the launcher is left, read the counters, decide the status
 *   abort      on any failure of the above: kill, wait, throw the cell away
 *   teardown   every timer cleared, the cell given back (reset for its next run)
 */
import type { CellExit, CellRequest, CellRun, CellStarted } from './cell.js';
import type { CellPool, Lease } from './cell-pool.js';
import { SandboxError } from './errors.js';
import { TAIL } from './host.js';
import { cellStdio, outcome, stderrIo, type StdioTarget } from './outcome.js';
import { PipeSet } from './pipes.js';
import type { RunResult, RunSpec } from './types.js';
import { decide, type KillReason } from './verdict.js';

/** What the sandbox computed for the launch: bwrap's command line and the rlimits. */
export interface Launch {
  argv: string[];
  rlimits: string;
  uid: number | undefined;
}

export class SupervisedRun {
  /** The streams the caller drives (interactive problems). */
  readonly pipes: PipeSet;
  private readonly stdout: StdioTarget;
  private killedFor: KillReason | undefined;
  private killedAt: number | undefined;
  private lease: Lease | undefined;
  private started: CellStarted | undefined;
  private exitSeen = false;
  private startedAt: number | undefined;
  private wallTimer: NodeJS.Timeout | undefined;
  private cpuTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly spec: RunSpec,
    private readonly pool: CellPool,
    private readonly launch: Launch,
  ) {
    this.stdout = cellStdio(spec.stdout, 'out');
    this.pipes = new PipeSet(spec, () => this.kill('ole'));
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
    const stderr = stderrIo(this.spec);
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
          const cell = this.lease!.cell;
          this.pipes.bridge(s.fds, (fd, w) => cell.openPipe(fd, w), () => cell.opened());
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

  /** Phase collect: the counters once only the launcher is left, the output sizes, and the status they make. */
  private async collect(exit: CellExit): Promise<RunResult> {
    const { cell, cg } = this.lease!;
    if (cg) await waitEmpty(cg, cell.pid);
    const stats = cg?.stats(exit.maxRssBytes) ?? null;
    await this.pipes.drained(200);
    return outcome(this.spec, {
      exit,
      stats,
      none: !cg,
      killedFor: this.killedFor,
      killedAt: this.killedAt,
      wallMs: exit.at - (this.startedAt ?? exit.at),
      stdout: this.stdout,
      outMeter: this.pipes.outMeter,
      errKeeper: this.pipes.errKeeper,
      stderrIgnored: stderrIo(this.spec).kind === 'null',
    });
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
    this.pipes.destroy();
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
