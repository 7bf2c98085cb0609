/** A request that has waited for the lock longer than it ever should (see ReadWriteLock's `stuck`). */
export interface StuckWaiter {
  /** What the request that waited longest wants, and for how long it has waited. */
  wants: 'read' | 'write';
  waitedMs: number;
  /** Who holds the lock now: one writer, or this many readers. */
  heldBy: 'write' | 'read';
  readers: number;
  /** Requests waiting, the stuck one among them. */
  waiting: number;
}

/** How long a wait means a stuck lock, and who hears of it. */
export interface StuckWatch {
  afterMs: number;
  report(s: StuckWaiter): void;
}

/** Said of a stuck lock: what the server can tell, and the likeliest cause. */
export function describeStuck(s: StuckWaiter): string {
  const holder = s.heldBy === 'write' ? 'a write' : `${s.readers} read(s)`;
  return `a ${s.wants} has waited ${Math.round(s.waitedMs / 1000)} s for the database, held by ${holder}, with ${s.waiting} request(s) waiting: a read or write begun inside an open one without being handed its scope waits for itself forever (docs/storage.md, "Rules for service code")`;
}

const STUCK_AFTER_MS = 10_000;

interface Waiter {
  write: boolean;
  go: () => void;
  since: number;
  reported?: boolean;
}

/**
 * A fair readers-writer lock for one SQLite connection shared by concurrent async requests.
 * Readers share it; a writer has it alone. Waiters are served in arrival order, so a stream of
 * readers cannot starve a writer and a writer waits only for the readers already inside.
 *
 * A read or write begun inside an open write (or inside a read, with a writer queued) waits for
 * itself forever. The transactor cannot see that in production (it follows no scope; the tests'
 * check does, src/db/scope-check.ts), so the lock watches its queue instead: a request that has
 * waited `stuck.afterMs` is reported once, and nothing is refused. The watch costs one timer while
 * requests wait, none while the lock is free or held without contention.
 */
export class ReadWriteLock {
  private readers = 0;
  private writing = false;
  private readonly waiting: Waiter[] = [];
  private watching?: NodeJS.Timeout;

  constructor(private stuck: StuckWatch = { afterMs: STUCK_AFTER_MS, report: (s) => process.emitWarning(describeStuck(s), 'DatabaseLockWarning') }) {}

  /** Reports stuck waiters there from now on (the server's log) instead of as a process warning. */
  reportStuckTo(report: (s: StuckWaiter) => void): void {
    this.stuck = { afterMs: this.stuck.afterMs, report };
  }

  /** Whether a writer holds the lock now. */
  get writerInside(): boolean {
    return this.writing;
  }

  async read<T>(fn: () => Promise<T>): Promise<T> {
    if (this.writing || this.waiting.length) await this.wait(false);
    else this.readers++;
    try {
      return await fn();
    } finally {
      this.readers--;
      this.wake();
    }
  }

  async write<T>(fn: () => Promise<T>): Promise<T> {
    if (this.writing || this.readers || this.waiting.length) await this.wait(true);
    else this.writing = true;
    try {
      return await fn();
    } finally {
      this.writing = false;
      this.wake();
    }
  }

  private wait(write: boolean): Promise<void> {
    return new Promise<void>((go) => {
      this.waiting.push({ write, go, since: Date.now() });
      if (!this.watching) this.watch(this.stuck.afterMs);
    });
  }

  /** Looks at the longest waiter after `ms`, and again while any request waits. */
  private watch(ms: number): void {
    this.watching = setTimeout(() => {
      this.watching = undefined;
      const first = this.waiting[0];
      if (!first) return;
      const waitedMs = Date.now() - first.since;
      if (waitedMs >= this.stuck.afterMs && !first.reported) {
        first.reported = true;
        this.stuck.report({ wants: first.write ? 'write' : 'read', waitedMs, heldBy: this.writing ? 'write' : 'read', readers: this.readers, waiting: this.waiting.length });
      }
      this.watch(first.reported ? this.stuck.afterMs : this.stuck.afterMs - waitedMs);
    }, ms);
    // a watch never keeps the process alive
    this.watching.unref();
  }

  /** Lets in the next writer alone, or every reader up to the next writer; the counts are taken for them. */
  private wake(): void {
    if (this.writing) return;
    const next = this.waiting[0];
    if (!next) return;
    if (next.write) {
      if (this.readers) return;
      this.waiting.shift();
      this.writing = true;
      next.go();
      return;
    }
    while (this.waiting[0] && !this.waiting[0].write) {
      this.readers++;
      this.waiting.shift()!.go();
    }
  }
}
