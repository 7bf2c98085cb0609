import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import type { SQL } from 'drizzle-orm';
import type { BusMessage, CacheNote, DomainEvent } from '../events/bus.js';
import { lockSkipLocked, type Engine, type EngineName, type Q } from './storage.js';

/** What a write collects while it runs; released only after commit. */
export class Outbox {
  readonly messages: BusMessage[] = [];
  readonly afterCommit: (() => void)[] = [];
  /** For the other servers of a cluster (cluster/cache-notes.ts); this one updates its caches itself. */
  readonly notes: CacheNote[] = [];
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
    if (!this.permissionsChanged) this.note({ what: 'permissions' });
    this.permissionsChanged = true;
  }

  /** Tells the other servers that something they keep in memory changed with this write. */
  note(n: CacheNote): void {
    this.notes.push(n);
  }
}

/** What happens after a transaction; app.ts wires in the permission cache and the event bus. */
export interface TransactionHooks {
  /**
   * Inside each attempt of an asynchronous write, after its function and before COMMIT, with its
   * statements' builder: what must commit or roll back with the write (the cluster's event log).
   */
  beforeCommit?: ((q: Q, out: Outbox) => Promise<void>)[];
  /** After every transaction, committed or rolled back: reads inside it may have cached what a rollback took back. */
  settled?: ((out: Outbox) => void)[];
  /** After a commit only, in order, after the outbox's own `then` work. */
  committed?: ((out: Outbox) => void)[];
}

interface OpenScope {
  owner: Transactor;
  q: Q;
  /** Set in a write: what a joining write adds to. */
  out?: Outbox;
  ended: boolean;
}

/** Which read or write the running code is inside, followed through its awaits. */
const scope = new AsyncLocalStorage<OpenScope>();

/**
 * Runs writes as transactions of the engine, and releases what they collected (events, cache
 * refreshes, wake-ups) only once they committed. `read` and `write` are the data layer every
 * service uses; `run` is the synchronous SQLite-only form that services are leaving.
 */
export class Transactor {
  /** Made once: better-sqlite3 builds four wrapper functions for every transaction() call. */
  private readonly inTransaction?: <T>(fn: (out: Outbox) => T, out: Outbox) => T;

  /** `sqlite` is null on PostgreSQL, which has no synchronous form (`run`). */
  constructor(
    sqlite: Database.Database | null,
    private readonly hooks: TransactionHooks = {},
    private readonly engine?: Engine & { readonly writing?: boolean },
  ) {
    if (sqlite) this.inTransaction = sqlite.transaction((fn: (out: Outbox) => unknown, out: Outbox) => fn(out)) as <T>(fn: (out: Outbox) => T, out: Outbox) => T;
  }

  /** Which engine holds the data (the embedded one when only the synchronous form is set up). */
  get engineName(): EngineName {
    return this.engine?.name ?? 'sqlite';
  }

  /** The row lock a claim's subquery ends with on this engine (see `lockSkipLocked` in storage.ts). */
  lockSkipLocked(): SQL {
    return lockSkipLocked(this.engineName);
  }

  /**
   * Reads that must not see another request's unfinished write. Inside an open read or write of this
   * transactor (a service calling another), it runs on that one's `q`: on SQLite a second lock would
   * wait for the first forever, and on PostgreSQL another connection would not see the open write.
   */
  read<T>(fn: (q: Q) => Promise<T>): Promise<T> {
    const open = this.openHere();
    if (open) return fn(open.q);
    return this.requireEngine().read((q) => this.within({ owner: this, q, ended: false }, () => fn(q)));
  }

  /**
   * One transaction on the engine; its outbox is released after the commit, as with `run`. An engine
   * may run `fn` again (PostgreSQL retries a lost serialization race): each attempt gets a fresh
   * outbox, and only the committed attempt's is released.
   */
  async write<T>(fn: (q: Q, out: Outbox) => Promise<T>): Promise<T> {
    const open = this.openHere();
    if (open) {
      // a write called from within another joins it, as a nested transaction would
      if (!open.out) throw new Error('a write began inside a read: write from the start instead');
      return fn(open.q, open.out);
    }
    const tried: Outbox[] = [];
    let result: T;
    try {
      result = await this.requireEngine().transaction(async (q) => {
        const out = new Outbox();
        tried.push(out);
        const r = await this.within({ owner: this, q, out, ended: false }, () => fn(q, out));
        for (const hook of this.hooks.beforeCommit ?? []) await hook(q, out);
        return r;
      });
    } finally {
      // every attempt, not just the last: a rolled-back one may have cached what it read, and
      // what it touched (permissions) need not be what the next attempt touches
      for (const out of tried) for (const hook of this.hooks.settled ?? []) hook(out);
    }
    return this.release(tried.at(-1)!, result);
  }

  /** The synchronous form (SQLite only). better-sqlite3 runs it within one turn, so it cannot interleave. */
  run<T>(fn: (out: Outbox) => T): T {
    // An open asynchronous write shares the connection: a nested BEGIN would join it.
    if (this.engine?.writing) throw new Error('a synchronous transaction began while an asynchronous one was open');
    if (!this.inTransaction) throw new Error('the synchronous form needs SQLite');
    const out = new Outbox();
    let result: T;
    try {
      result = this.inTransaction(fn, out);
    } finally {
      for (const hook of this.hooks.settled ?? []) hook(out);
    }
    return this.release(out, result);
  }

  private release<T>(out: Outbox, result: T): T {
    for (const then of out.afterCommit) then();
    for (const hook of this.hooks.committed ?? []) hook(out);
    return result;
  }

  /** The read or write of this transactor that the calling code runs inside, if it is still open. */
  private openHere(): OpenScope | undefined {
    const open = scope.getStore();
    return open && open.owner === this && !open.ended ? open : undefined;
  }

  /** Runs `fn` as inside `open`; work it left behind (a timer, a promise not awaited) no longer counts as inside once it ends. */
  private async within<T>(open: OpenScope, fn: () => Promise<T>): Promise<T> {
    try {
      return await scope.run(open, fn);
    } finally {
      open.ended = true;
    }
  }

  private requireEngine(): Engine {
    if (!this.engine) throw new Error('this transactor has no engine');
    return this.engine;
  }
}
