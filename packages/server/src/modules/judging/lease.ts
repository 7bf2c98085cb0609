import { ApiError, notFound } from '@judge/contract';
import { sha256Hex } from '../../util.js';

/** Lease lengths (decisions §8, §12): 60 s unless asked, never under 15 s or over an hour. */
export const LEASE_DEFAULT_SECONDS = 60;
const LEASE_MIN_SECONDS = 15;
const LEASE_MAX_SECONDS = 3600;
/** A job or trial handed out this many times without a result is given up. */
export const MAX_DELIVERIES = 5;

/**
 * Why held work comes back without a result. A polite release (the runner is shutting down and
 * says so) is not a failed delivery; everything else is: an infrastructure failure, a lapsed
 * lease, a runner that was revoked or whose process died. Work that a failed delivery brings back
 * is queued again only while it has had fewer than MAX_DELIVERIES deliveries; otherwise it is
 * given up with `reason`, so no submission can bring runners down one after another forever.
 */
export type Return = { released: true } | { released?: false; reason: string };

/** What becomes of work coming back after `deliveries` deliveries: queued again, or given up and why. */
export function afterReturn(deliveries: number, why: Return): { requeue: true; countDelivery: boolean } | { requeue: false; failure: string } {
  if (why.released) return { requeue: true, countDelivery: false };
  if (deliveries >= MAX_DELIVERIES) return { requeue: false, failure: `Given up after ${deliveries} deliveries without a result; last: ${why.reason}` };
  return { requeue: true, countDelivery: true };
}

export function leaseSeconds(asked: number | undefined): number {
  if (asked === undefined) return LEASE_DEFAULT_SECONDS;
  return Math.min(Math.max(asked, LEASE_MIN_SECONDS), LEASE_MAX_SECONDS);
}

/** The later of the current expiry and `now + seconds`: renewing never shortens a lease. */
export function extendedLease(current: string | null, now: Date, seconds: number): string {
  const asked = new Date(now.getTime() + seconds * 1000).toISOString();
  return current && current > asked ? current : asked;
}

interface Held {
  state: string;
  runnerId: string | null;
  leaseHash: string | null;
}

/**
 * The checks every call about a held job or trial makes, in this order: it exists (404), the token
 * is its current lease (403 stale), the caller is the runner holding it (403 foreign), and it is
 * still running (409). A token is compared by its hash, as it is stored.
 */
export function requireHeld<T extends Held>(row: T | undefined, runnerId: string, leaseToken: string, what: 'job' | 'trial' | 'sample run'): T {
  if (!row) throw notFound(what);
  if (!row.leaseHash || row.leaseHash !== sha256Hex(leaseToken)) {
    throw ApiError.of('runner.lease.stale', `The lease token is not the ${what}'s current lease (it lapsed, was released, or the ${what} was cancelled)`);
  }
  if (row.runnerId !== runnerId) throw ApiError.of('runner.lease.foreign', `Another runner holds this ${what}`);
  if (row.state !== 'running') throw ApiError.of(what === 'job' ? 'job.state' : what === 'trial' ? 'trial.state' : 'sampleRun.state', `The ${what} is ${row.state}, not running`);
  return row;
}

/**
 * Wakes long polls when work is queued. A waiter resolves on the next `notify` or when its time is
 * up, whichever comes first; waking everyone is fine since each then races for the work in a transaction.
 */
export class WorkSignal {
  private waiters = new Set<() => void>();
  /** Counts notifications, so that a poll sees one that came while its `take` was awaited. */
  private notified = 0;
  /** Signals woken with this one: a job's long poll wakes when a trial is queued. */
  private readonly followers: WorkSignal[] = [];
  /** Set when the server shuts down: long polls end at once and nobody waits again. */
  closed = false;

  /** Wakes `other`'s waiters too whenever this signal is notified. */
  alsoWake(other: WorkSignal): void {
    this.followers.push(other);
  }

  close(): void {
    this.closed = true;
    this.notify();
  }

  notify(): void {
    this.notified++;
    const woken = this.waiters;
    this.waiters = new Set();
    for (const wake of woken) wake();
    for (const f of this.followers) f.notify();
  }

  wait(ms: number, abort?: AbortSignal): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        abort?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.waiters.add(done);
      abort?.addEventListener('abort', done, { once: true });
    });
  }

  /**
   * Tries `take` now, and again each time work is queued, until it yields something or
   * `waitSeconds` have passed (a long poll), or until `elsewhere` says the caller has other work
   * waiting (then null at once, so that it goes for that). A caller that went away is handed nothing.
   * Work queued while `take` or `elsewhere` was running is looked for again at once, not missed.
   */
  async poll<T>(
    take: () => Promise<T | null>,
    waitSeconds: number,
    abort?: AbortSignal,
    elsewhere?: () => Promise<boolean>,
  ): Promise<T | null> {
    const deadline = Date.now() + waitSeconds * 1000;
    for (;;) {
      if (abort?.aborted) return null;
      const seen = this.notified;
      const got = await take();
      if (got) return got;
      if (elsewhere && (await elsewhere())) return null;
      const left = deadline - Date.now();
      if (left <= 0 || abort?.aborted || this.closed) return null;
      if (this.notified === seen) await this.wait(left, abort);
    }
  }

  get waiting(): number {
    return this.waiters.size;
  }
}
