import type Database from 'better-sqlite3';
import type { BusMessage, DomainEvent } from '../events/bus.js';

/** What a write collects while it runs; released only after commit. */
export class Outbox {
  readonly messages: BusMessage[] = [];
  readonly afterCommit: (() => void)[] = [];
  permissionsChanged = false;

  emit(e: DomainEvent): void {
    this.messages.push({ kind: 'event', event: e as DomainEvent });
  }

  endSessions(sessionIds: string[], reason: Extract<BusMessage, { kind: 'sessionsEnded' }>['reason']): void {
    if (sessionIds.length) this.messages.push({ kind: 'sessionsEnded', sessionIds, reason });
  }

  /** Work for after the commit (refreshing a cache, waking a long poll), in the order asked. */
  then(fn: () => void): void {
    this.afterCommit.push(fn);
  }

  /** The write touched grants, roles or accounts: cached permissions must be read again. */
  touchPermissions(): void {
    this.permissionsChanged = true;
  }
}

/** What happens after a transaction; app.ts wires in the permission cache and the event bus. */
export interface TransactionHooks {
  /** After every transaction, committed or rolled back: reads inside it may have cached what a rollback took back. */
  settled?: ((out: Outbox) => void)[];
  /** After a commit only, in order, after the outbox's own `then` work. */
  committed?: ((out: Outbox) => void)[];
}

/**
 * Runs a write as one SQLite transaction. better-sqlite3 is synchronous, so the function cannot
 * interleave with another request: check-then-write is atomic without row locks.
 */
export class Transactor {
  /** Made once: better-sqlite3 builds four wrapper functions for every transaction() call. */
  private readonly inTransaction: <T>(fn: (out: Outbox) => T, out: Outbox) => T;

  constructor(
    sqlite: Database.Database,
    private readonly hooks: TransactionHooks = {},
  ) {
    this.inTransaction = sqlite.transaction((fn: (out: Outbox) => unknown, out: Outbox) => fn(out)) as <T>(fn: (out: Outbox) => T, out: Outbox) => T;
  }

  run<T>(fn: (out: Outbox) => T): T {
    const out = new Outbox();
    let result: T;
    try {
      result = this.inTransaction(fn, out);
    } finally {
      for (const hook of this.hooks.settled ?? []) hook(out);
    }
    for (const then of out.afterCommit) then();
    for (const hook of this.hooks.committed ?? []) hook(out);
    return result;
  }
}
