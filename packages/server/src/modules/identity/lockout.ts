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
