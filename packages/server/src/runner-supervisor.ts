import type { ChildProcess } from 'node:child_process';
import type { LocalRunnerHealth } from '@judge/contract';

/**
 * Keeps one child process running: when it exits for any reason other than `stop()`, the exit is
 * logged with its cause and the process started again after a delay that doubles from
 * `firstDelayMs` up to `maxDelayMs`, and starts over once a process has stayed up `stableMs`
 * (a runner that crashes at start-up is not restarted in a tight loop; one that crashed after
 * hours of work comes back at once).
 */
export interface SupervisorOptions {
  /** Starts one process, or says why none can be started (then nothing is tried again). */
  spawn: () => Spawned | Promise<Spawned>;
  log: (line: string) => void;
  /** Called when a process has exited, before any restart (e.g. to give back what it held). */
  onExit?: () => void;
  /** How the process is named in the log. */
  name?: string;
  firstDelayMs?: number;
  maxDelayMs?: number;
  stableMs?: number;
  /** Lines of its stderr kept to explain an exit. */
  tailLines?: number;
  /**
   * Added to the log when a process ends within seconds of its start (it may never work here),
   * given its last lines: what to do about it, or undefined for nothing to add.
   */
  earlyExitHint?: (tail: readonly string[]) => string | undefined;
  /** How a line of its stderr is quoted in the log (e.g. its advice in the supervisor's terms). */
  quote?: (line: string) => string;
}

export type Spawned = ChildProcess | { unavailable: string };

const iso = (ms: number) => new Date(ms).toISOString();
const EARLY_EXIT_MS = 10_000;

/** The reason health gives before the first start was tried (judge up may still be choosing its sandbox uids). */
export const NOT_STARTED_YET = 'not started yet';

export class Supervisor {
  private child: ChildProcess | undefined;
  private state: LocalRunnerHealth;
  private delay: number;
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;
  private startedAt = 0;
  private tail: string[] = [];
  private readonly name: string;
  private readonly first: number;
  private readonly max: number;
  private readonly stable: number;
  private readonly keep: number;

  constructor(private readonly o: SupervisorOptions) {
    this.name = o.name ?? 'the process';
    this.first = o.firstDelayMs ?? 500;
    this.max = o.maxDelayMs ?? 30_000;
    this.stable = o.stableMs ?? 60_000;
    this.keep = o.tailLines ?? 5;
    this.delay = this.first;
    this.state = { state: 'notStarted', since: iso(Date.now()), restarts: 0, reason: NOT_STARTED_YET };
  }

  /** Starts the first process; answers false (and keeps the reason in `status()`) when none can start. */
  start(): Promise<boolean> {
    return this.launch();
  }

  /** What health shows: running, restarting (and when), or not started and why. */
  status(): LocalRunnerHealth {
    return { ...this.state };
  }

  /** No more restarts; the running process gets SIGTERM (it finishes or gives back its work) and is waited for. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      this.set({ state: 'notStarted', reason: 'the server is stopping' });
      return;
    }
    this.set({ state: 'stopping', ...(child.pid ? { pid: child.pid } : {}) });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    await exited;
  }

  private set(next: Omit<LocalRunnerHealth, 'since' | 'restarts'>): void {
    const { restarts, lastExit } = this.state;
    this.state = { ...(lastExit ? { lastExit } : {}), ...next, since: iso(Date.now()), restarts };
  }

  private async launch(): Promise<boolean> {
    if (this.stopping) return false;
    let started: Spawned;
    try {
      started = await this.o.spawn();
    } catch (e) {
      started = { unavailable: (e as Error).message };
    }
    if (!('unavailable' in started) && this.stopping) {
      // stop() came while this one was being prepared: it never gets to work
      started.kill('SIGTERM');
      return false;
    }
    if ('unavailable' in started) {
      this.set({ state: 'notStarted', reason: started.unavailable });
      return false;
    }
    const child = started;
    this.child = child;
    this.startedAt = Date.now();
    this.tail = [];
    this.keepTail(child);
    this.set({ state: 'running', ...(child.pid ? { pid: child.pid } : {}) });
    // a spawn that fails (no such program) emits 'error' and then, for an unstarted child, no 'exit'
    child.once('error', (e) => {
      if (child.pid === undefined) this.exited(child, null, null, e.message);
    });
    child.once('exit', (code, signal) => this.exited(child, code, signal));
    return true;
  }

  private keepTail(child: ChildProcess): void {
    let rest = '';
    child.stderr?.on('data', (d: Buffer) => {
      const lines = (rest + d.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) if (l.trim()) this.tail.push(this.o.quote ? this.o.quote(l) : l);
      if (this.tail.length > this.keep) this.tail.splice(0, this.tail.length - this.keep);
    });
  }

  private exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null, error?: string): void {
    if (child !== this.child) return;
    this.child = undefined;
    const now = Date.now();
    const lastExit = { at: iso(now), ...(code !== null ? { code } : {}), ...(signal ? { signal } : {}) };
    try {
      this.o.onExit?.();
    } catch (e) {
      this.o.log(`judge: after ${this.name} exited: ${(e as Error).message}`);
    }
    if (this.stopping) {
      this.state = { state: 'notStarted', since: iso(now), restarts: this.state.restarts, reason: 'the server stopped it', lastExit };
      return;
    }
    const upMs = now - this.startedAt;
    if (upMs >= this.stable) this.delay = this.first;
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, this.max);
    const cause = error ?? (signal ? `was killed by ${signal}` : `exited with code ${code}`);
    const last = this.tail.length ? `; its last lines: ${this.tail.join(' | ')}` : '';
    const advice = upMs < EARLY_EXIT_MS ? this.o.earlyExitHint?.(this.tail) : undefined;
    const hint = advice ? `. ${advice}` : '';
    this.o.log(`judge: ${this.name} (pid ${child.pid ?? '?'}) ${cause} after ${(upMs / 1000).toFixed(1)} s; starting it again in ${(wait / 1000).toFixed(1)} s${last}${hint}`);
    this.state = { state: 'restarting', since: iso(now), restarts: this.state.restarts, nextAttemptAt: iso(now + wait), lastExit };
    this.timer = setTimeout(() => {
      this.state.restarts++;
      void this.launch();
    }, wait);
    this.timer.unref();
  }
}
