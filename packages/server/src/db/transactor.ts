import type Database from 'better-sqlite3';
import type { PermissionResolver } from '../auth/permissions.js';
import type { BusMessage, DomainEvent, EventBus } from '../events/bus.js';

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

/**
 * Runs a write as one SQLite transaction. better-sqlite3 is synchronous, so the function cannot
 * interleave with another request: check-then-write is atomic without row locks.
 */
export class Transactor {
  constructor(
    private readonly sqlite: Database.Database,
    private readonly bus: EventBus,
    private readonly permissions: PermissionResolver,
  ) {}

  run<T>(fn: (out: Outbox) => T): T {
    const out = new Outbox();
    let result: T;
    try {
      result = this.sqlite.transaction(() => fn(out))();
    } finally {
      // reads inside the transaction may have cached rows that a rollback took back
      if (out.permissionsChanged) this.permissions.invalidate();
    }
    for (const fn of out.afterCommit) fn();
    this.bus.publish(out.messages);
    return result;
  }
}
