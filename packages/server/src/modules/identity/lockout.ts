import type { LimitStore } from '../../http/limits.js';

/**
 * What the lockout remembers in memory. A stranger's guesses must not lock an
 * account's owner out, and an unknown name must answer exactly as a known account does:
 *
 * - GuessingAddresses: which addresses failed against which account lately. While an account is
 *   locked (or its failure budget is spent) only those addresses are refused; an address that has
 *   not failed against it still has its password checked, so the owner signs in from their own
 *   machine while the guesser's addresses wait. An attempt counts as a failure from the moment it
 *   starts until its password is known to be right, so guesses sent in parallel cannot pass as
 *   coming from an address without failures.
 * - UnknownNameLocks: the lockout of names no account has, kept like an account's own (failures in
 *   a row, then `lockoutMinutes` of LockedOut), so guessing shows no difference between them.
 *
 * Both hold at most MAX_ENTRIES, the least recently changed going first, so that guessing random
 * names cannot grow the server's memory without bound. An address's marks lapse `lockoutMinutes`
 * after its last attempt; a name's failures in a row are kept like an account's stored count, until
 * a lock starts them again (or, past MAX_ENTRIES, the entry is dropped).
 */

const MAX_ENTRIES = 50_000;

/** A Map that drops entries past their time and, when full, the least recently changed. */
class Expiring<V extends { until: number }> {
  private readonly entries = new Map<string, V>();

  get(key: string, now: number): V | undefined {
    const e = this.entries.get(key);
    if (e && e.until <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  set(key: string, value: V): void {
    // re-inserted so that Map order stays the order of last change
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}

export class GuessingAddresses {
  private readonly marks = new Expiring<{ count: number; until: number }>();

  constructor(private readonly windowMs: number) {}

  private static key(account: string, address: string | undefined): string {
    return `${account}\n${address ?? ''}`;
  }

  /** Failures and attempts in flight from this address against this account, besides `own` of the caller's. */
  others(account: string, address: string | undefined, now: number, own = 0): number {
    return Math.max(0, (this.marks.get(GuessingAddresses.key(account, address), now)?.count ?? 0) - own);
  }

  /** An attempt starts: it counts as a failure until it proves right (succeeded). */
  attempt(account: string, address: string | undefined, now: number): void {
    const key = GuessingAddresses.key(account, address);
    const count = (this.marks.get(key, now)?.count ?? 0) + 1;
    this.marks.set(key, { count, until: now + this.windowMs });
  }

  /** The right password from this address: its failures in a row are over. */
  succeeded(account: string, address: string | undefined): void {
    this.marks.delete(GuessingAddresses.key(account, address));
  }
}

export class UnknownNameLocks {
  private readonly names = new Expiring<{ failures: number; lockedUntil: number; until: number }>();

  constructor(
    private readonly failuresToLock: number,
    private readonly lockMs: number,
  ) {}

  locked(name: string, now: number): boolean {
    const e = this.names.get(name, now);
    return !!e && e.lockedUntil > now;
  }

  /** Counts a failure and locks at the threshold, starting the count again, as an account's row does. */
  failed(name: string, now: number): void {
    const e = this.names.get(name, now);
    const failures = (e?.failures ?? 0) + 1;
    const lockedUntil = e?.lockedUntil ?? 0;
    const lock = failures >= this.failuresToLock;
    const next = lock ? { failures: 0, lockedUntil: now + this.lockMs } : { failures, lockedUntil };
    this.names.set(name, { ...next, until: Number.POSITIVE_INFINITY });
  }
}

/** What the sign-in keeps of the lockout between attempts: here in memory, or shared (below). */
export interface LockoutMarks {
  others(account: string, address: string | undefined, now: number, own?: number): number | Promise<number>;
  attempt(account: string, address: string | undefined, now: number): void | Promise<void>;
  succeeded(account: string, address: string | undefined): void | Promise<void>;
  nameLocked(name: string, now: number): boolean | Promise<boolean>;
  nameFailed(name: string, now: number): void | Promise<void>;
}

/** One server's marks, in memory (the classes above). */
export function memoryMarks(windowMs: number, failuresToLock: number, lockMs: number): LockoutMarks {
  const guessing = new GuessingAddresses(windowMs);
  const names = new UnknownNameLocks(failuresToLock, lockMs);
  return {
    others: (account, address, now, own) => guessing.others(account, address, now, own),
    attempt: (account, address, now) => guessing.attempt(account, address, now),
    succeeded: (account, address) => guessing.succeeded(account, address),
    nameLocked: (name, now) => names.locked(name, now),
    nameFailed: (name, now) => names.failed(name, now),
  };
}

/**
 * The same marks kept where every server of a cluster counts (http/limits.ts), so that attempts
 * spread over the servers lock exactly as they would on one. They run on the wall clock, as the
 * shared store expires its rows by it. Two differences from memory, both on the strict side or
 * harmless: an address's marks lapse a window after its first attempt in that window rather than its
 * last (a guesser's next failure marks it again), and a name's failures in a row lapse after a day
 * (no guessing waits a day between attempts; an account's own count is stored on its row).
 */
export function sharedMarks(limits: LimitStore, windowMs: number, failuresToLock: number, lockMs: number): LockoutMarks {
  const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
  const marks = limits.limiter({ points: Number.MAX_SAFE_INTEGER, duration: seconds(windowMs), keyPrefix: 'guess' });
  // the failuresToLock-th failure goes past `points` and blocks the name for the lock's length
  const names = limits.limiter({ points: Math.max(0, failuresToLock - 1), duration: 86_400, blockDuration: seconds(lockMs), keyPrefix: 'name-lock' });
  const key = (account: string, address: string | undefined): string => `${account}\n${address ?? ''}`;
  return {
    others: async (account, address, _now, own = 0) => Math.max(0, ((await marks.get(key(account, address)))?.consumedPoints ?? 0) - own),
    attempt: async (account, address) => {
      await marks.penalty(key(account, address), 1);
    },
    succeeded: async (account, address) => {
      await marks.delete(key(account, address));
    },
    nameLocked: async (name) => {
      const r = await names.get(name);
      return !!r && r.consumedPoints > names.points && r.msBeforeNext > 0;
    },
    nameFailed: async (name) => {
      await names.consume(name).catch((r: unknown) => {
        // a RateLimiterRes is the lock starting; an Error is the store failing
        if (r instanceof Error) throw r;
      });
    },
  };
}
