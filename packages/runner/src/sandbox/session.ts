/**
 * A session: one sandbox in which the tests of one submission run one after another, each as a
 * fork and exec by the helper inside (native/box.c) instead of a new bubblewrap sandbox. Every
 * test still gets its own limits, counters, stdio (opened outside: the program sees no test
 * file's path), a fresh /tmp, and no process left from the test before. A sandbox that dies
 * (a program that killed the helper) ends its test as killed; the next test opens a new one.
 */
import type { CellExit, CellSession, CellStarted } from './cell.js';
import type { CellPool, Lease } from './cell-pool.js';
import { SandboxError } from './errors.js';
import { TAIL } from './host.js';
import { cellStdio, outcome, stderrIo } from './outcome.js';
import type { RunResult, RunSpec } from './types.js';
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

  /** Runs one test to its end. */
  async run(t: TestSpec): Promise<RunResult> {
    if (this.closed) throw new SandboxError('session closed');
    if (this.running) throw new SandboxError('a session runs one test at a time');
    this.running = true;
    try {
      const cs = await this.open();
      return await this.test(cs, { ...this.spec, ...t, argv: t.argv ?? this.spec.argv, limits: t.limits ?? this.spec.limits });
    } finally {
      this.running = false;
    }
  }

  /** Ends the sandbox and gives its cell back. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.shut();
  }

  private async open(): Promise<CellSession> {
    if (this.cs) return this.cs;
    const lease = await this.host.pool.acquire();
    let cs: CellSession;
    try {
      lease.cg?.prepare(this.spec.limits, SESSION_EXTRA_PIDS);
      cs = lease.cell.session({ uid: this.host.uid, rlimits: this.host.boxRlimits, argv: this.host.boxArgv(this.spec) });
      await new Promise<void>((resolve, reject) => {
        cs.once('started', (_s: CellStarted) => resolve());
        cs.once('error', reject);
        cs.once('exit', (exit: CellExit) => {
          const words = `${exit.head.toString('utf8')}${exit.tail.toString('utf8')}`.trim().split('\n').slice(-3).join(' | ');
          reject(new SandboxError(`the sandbox did not start (bwrap status ${exit.status}): ${words || 'no message'}`));
        });
      });
    } catch (e) {
      this.host.pool.release(lease, false);
      throw e;
    }
    cs.removeAllListeners();
    this.lease = lease;
    this.cs = cs;
    cs.once('closed', () => {
      if (this.cs === cs) void this.shut();
    });
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

  private test(cs: CellSession, spec: RunSpec): Promise<RunResult> {
    const { lease } = this;
    if (!lease) throw new SandboxError('session not open');
    const cg = lease.cg;
    if (cg) {
      cg.prepare(spec.limits, SESSION_EXTRA_PIDS);
      cg.restart();
    }
    const stdout = cellStdio(spec.stdout, 'out');
    const stderr = stderrIo(spec);
    if (stderr.kind === 'pipe' || stdout.io.kind === 'pipe' || spec.stdin === 'pipe') throw new SandboxError('a session test takes files, not pipes');
    let killedFor: KillReason | undefined;
    let killedAt: number | undefined;
    let wall: NodeJS.Timeout | undefined;
    let cpu: NodeJS.Timeout | undefined;
    let grace: NodeJS.Timeout | undefined;
    const kill = (why: KillReason): void => {
      if (killedFor) return;
      killedFor = why;
      killedAt = performance.now();
      cs.kill();
      // a helper that does not end the test in time takes the sandbox along
      grace = setTimeout(() => cg?.kill(lease.cell.pid), KILL_GRACE_MS);
    };
    const t0 = performance.now();
    return new Promise<CellExit>((resolve, reject) => {
      cs.once('exit', resolve);
      cs.once('error', reject);
      cs.test({ rlimits: this.host.testRlimits(spec), stdio: [cellStdio(spec.stdin, 'in').io, stdout.io, stderr], headBytes: spec.stderrKeepBytes ?? TAIL, argv: spec.argv });
      wall = setTimeout(() => kill('wall'), Math.min(spec.limits.wallMs, 2 ** 31 - 1));
      if (cg) {
        const limitNs = spec.limits.cpuMs * 1e6;
        cpu = setInterval(() => {
          cg.sampleMemory();
          const ns = cg.cpuNs();
          if (ns !== null && ns > limitNs) kill('tle');
        }, 50);
      }
    })
      .then((exit) =>
        outcome(spec, {
          exit,
          stats: cg?.stats() ?? null,
          none: !cg,
          killedFor,
          killedAt,
          wallMs: exit.at - t0,
          stdout,
          outMeter: null,
          errKeeper: null,
          stderrIgnored: stderr.kind === 'null',
        }),
      )
      .finally(() => {
        clearTimeout(wall);
        clearTimeout(grace);
        clearInterval(cpu);
        cs.removeAllListeners('exit');
        cs.removeAllListeners('error');
      });
  }
}
