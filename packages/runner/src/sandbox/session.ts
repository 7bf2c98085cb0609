/**
 * A session: one sandbox in which the tests of one submission run one after another, each as a
 * fork and exec by the helper inside (native/box.c) instead of a new bubblewrap sandbox. Every
 * test still gets its own limits, counters, stdio (opened outside: the program sees no test
 * file's path), a fresh /tmp, and no process left from the test before. A sandbox that dies
 * (a program that killed the helper) ends its test as killed; the next test opens a new one.
 * A launcher that dies (judge-cell, outside the sandbox, so not what a program may reach) fails
 * the test it ran with a SandboxError, or, between tests, only retires the session's sandbox: the
 * judging then fails as an infrastructure failure (agent.ts), which the server gives to a runner
 * again up to its delivery cap, and the next test opens a new sandbox. No 'error' of the
 * launcher is ever left without a listener (cell.ts CellEmitter).
 */
import type { Readable } from 'node:stream';
import type { CellExit, CellSession, CellStarted } from './cell.js';
import type { CellPool, Lease } from './cell-pool.js';
import { SandboxError } from './errors.js';
import { TAIL } from './host.js';
import { cellStdio, outcome, stderrIo } from './outcome.js';
import { PipeSet } from './pipes.js';
import type { RunResult, RunSpec, RunningProgram } from './types.js';
import type { KillReason } from './verdict.js';

/** What every test of a session shares: where and how the program runs. */
export type SessionSpec = Omit<RunSpec, 'stdin' | 'stdout' | 'stderr' | 'stderrKeepBytes'>;
/** One test: its stdio, and optionally its own argv and limits (never above the session's). */
export type TestSpec = Pick<RunSpec, 'stdin' | 'stdout' | 'stderr' | 'stderrKeepBytes'> & Partial<Pick<RunSpec, 'argv' | 'limits'>>;

/** What the sandbox gives a session: cells, the command line of its sandbox, a test's rlimits. */
export interface SessionHost {
  pool: CellPool;
  uid: number | undefined;
  none: boolean;
  /** bwrap running the helper, for the session's spec. */
  boxArgv(spec: SessionSpec): string[];
  /** The rlimits of the sandbox itself (bwrap and the helper). */
  boxRlimits: string;
  testRlimits(spec: RunSpec): string;
  /** Counts a test as a run of the sandbox (its slot, close(), the withdrawal of its work). */
  track(p: RunningProgram): RunningProgram;
}

/** The helper, bwrap's monitor and pid 1 count as processes of every test besides the launcher. */
const SESSION_EXTRA_PIDS = 2;
/** How long a test may outlive the helper's kill before the whole sandbox is killed. */
const KILL_GRACE_MS = 1000;

export class Session {
  private lease: Lease | undefined;
  private cs: CellSession | undefined;
  private closed = false;
  private running = false;

  constructor(
    private readonly host: SessionHost,
    private readonly spec: SessionSpec,
  ) {}

  /** Runs one test to its end ('pipe' stdin gets no input, 'pipe' outputs are drained). */
  async run(t: TestSpec): Promise<RunResult> {
    const p = this.start(t);
    p.stdin?.end();
    (p.stdout as Readable | null)?.resume();
    (p.stderr as Readable | null | undefined)?.resume();
    return p.result;
  }

  /** Starts one test; with 'pipe' stdio the caller drives it (interactive problems). */
  start(t: TestSpec): RunningProgram {
    if (this.closed) throw new SandboxError('session closed');
    if (this.running) throw new SandboxError('a session runs one test at a time');
    this.running = true;
    const spec: RunSpec = { ...this.spec, ...t, argv: t.argv ?? this.spec.argv, limits: t.limits ?? this.spec.limits };
    const test = new SessionTest(spec, this.host.testRlimits(spec));
    let go!: () => void;
    const result = new Promise<void>((r) => (go = r))
      .then(() => this.open())
      .then((cs) => test.run(cs, this.lease!))
      .finally(() => {
        this.running = false;
        test.pipes.destroy();
      });
    let tracked: RunningProgram;
    try {
      tracked = this.host.track({ stdin: test.pipes.stdin, stdout: test.pipes.outMeter, stderr: test.pipes.errKeeper, result, kill: () => test.kill('user') });
    } catch (e) {
      this.running = false;
      throw e;
    }
    go();
    return tracked;
  }

  /** Ends the sandbox and gives its cell back. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.shut();
  }

  private async open(): Promise<CellSession> {
    if (this.cs && !this.cs.lost && !this.cs.ended && !this.cs.failure) return this.cs;
    await this.shut();
    const lease = await this.host.pool.acquire();
    let cs: CellSession;
    try {
      lease.cg?.prepare(this.spec.limits, SESSION_EXTRA_PIDS);
      cs = lease.cell.session({ uid: this.host.uid, rlimits: this.host.boxRlimits, argv: this.host.boxArgv(this.spec) });
      await untilStarted(cs);
    } catch (e) {
      this.host.pool.release(lease, false);
      throw e;
    }
    this.lease = lease;
    this.cs = cs;
    // the sandbox ended, or its launcher died (also between tests): its cell goes, the next test opens another
    const gone = (): void => {
      if (this.cs === cs) void this.shut();
    };
    cs.once('closed', gone);
    cs.on('error', gone);
    return cs;
  }

  /** The sandbox is gone or going: its cell goes back (sound only when it ended as asked). */
  private async shut(): Promise<void> {
    const { cs, lease } = this;
    this.cs = undefined;
    this.lease = undefined;
    if (!cs || !lease) return;
    if (!cs.ended) {
      const closed = new Promise<void>((resolve) => {
        cs.once('closed', () => resolve());
        setTimeout(resolve, 2000).unref();
      });
      cs.end();
      await closed;
    }
    const sound = lease.cg ? lease.cg.empty(lease.cell.pid) : true;
    this.host.pool.release(lease, sound);
  }
}

/** Resolves once the session's sandbox is up; rejects with why it did not start. Leaves no listener behind. */
function untilStarted(cs: CellSession): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = (): void => {
      cs.off('started', onStarted);
      cs.off('error', onError);
      cs.off('exit', onExit);
    };
    const onStarted = (_s: CellStarted): void => {
      done();
      resolve();
    };
    const onError = (e: Error): void => {
      done();
      reject(e);
    };
    const onExit = (exit: CellExit): void => {
      done();
      const words = `${exit.head.toString('utf8')}${exit.tail.toString('utf8')}`.trim().split('\n').slice(-3).join(' | ');
      reject(new SandboxError(`the sandbox did not start (bwrap status ${exit.status}): ${words || 'no message'}`));
    };
    cs.on('started', onStarted);
    cs.on('error', onError);
    cs.on('exit', onExit);
  });
}

/** One test of a session, from its request to its result. */
class SessionTest {
  readonly pipes: PipeSet;
  private killedFor: KillReason | undefined;
  private killedAt: number | undefined;
  private killTest: (() => void) | undefined;

  constructor(
    private readonly spec: RunSpec,
    private readonly rlimits: string,
  ) {
    this.pipes = new PipeSet(spec, () => this.kill('ole'));
  }

  kill(why: KillReason): void {
    if (this.killedFor) return; // the first reason is the one that counts
    this.killedFor = why;
    this.killedAt = performance.now();
    this.killTest?.();
  }

  async run(cs: CellSession, lease: Lease): Promise<RunResult> {
    const { spec } = this;
    const cg = lease.cg;
    if (cg) {
      cg.prepare(spec.limits, SESSION_EXTRA_PIDS);
      cg.restart();
    }
    const stdout = cellStdio(spec.stdout, 'out');
    const stderr = stderrIo(spec);
    let wall: NodeJS.Timeout | undefined;
    let cpu: NodeJS.Timeout | undefined;
    let grace: NodeJS.Timeout | undefined;
    this.killTest = () => {
      cs.kill();
      // a helper that does not end the test in time takes the sandbox along
      grace ??= setTimeout(() => cg?.kill(lease.cell.pid), KILL_GRACE_MS);
    };
    const t0 = performance.now();
    let onExit: ((exit: CellExit) => void) | undefined;
    let onError: ((e: Error) => void) | undefined;
    const onPiped = (s: CellStarted): void => {
      try {
        this.pipes.bridge(s.fds, (fd, w) => lease.cell.openPipe(fd, w), () => cs.opened());
      } catch {
        this.kill('setup');
      }
    };
    try {
      const exit = await new Promise<CellExit>((resolve, reject) => {
        if (cs.failure) return reject(cs.failure);
        onExit = resolve;
        onError = reject;
        cs.once('exit', onExit);
        cs.once('error', onError);
        cs.on('piped', onPiped);
        cs.test({ rlimits: this.rlimits, stdio: [cellStdio(spec.stdin, 'in').io, stdout.io, stderr], headBytes: spec.stderrKeepBytes ?? TAIL, argv: spec.argv });
        if (this.killedFor) this.killTest!();
        wall = setTimeout(() => this.kill('wall'), Math.min(spec.limits.wallMs, 2 ** 31 - 1));
        if (cg) {
          const limitNs = spec.limits.cpuMs * 1e6;
          cpu = setInterval(() => {
            cg.sampleMemory();
            const ns = cg.cpuNs();
            if (ns !== null && ns > limitNs) this.kill('tle');
          }, 50);
        }
      });
      this.killTest = undefined;
      const stats = cg?.stats(exit.maxRssBytes) ?? null;
      await this.pipes.drained(200);
      return outcome(spec, {
        exit,
        stats,
        none: !cg,
        killedFor: this.killedFor,
        killedAt: this.killedAt,
        wallMs: exit.at - t0,
        stdout,
        outMeter: this.pipes.outMeter,
        errKeeper: this.pipes.errKeeper,
        stderrIgnored: stderr.kind === 'null',
      });
    } finally {
      this.killTest = undefined;
      clearTimeout(wall);
      clearTimeout(grace);
      clearInterval(cpu);
      // only this test's listeners: the session's own ('error' for its whole life) stay
      if (onExit) cs.off('exit', onExit);
      if (onError) cs.off('error', onError);
      cs.off('piped', onPiped);
    }
  }
}
