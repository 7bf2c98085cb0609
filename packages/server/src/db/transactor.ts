import { sql, type SQL } from 'drizzle-orm';
import type { BusMessage, CacheNote, DomainEvent } from '../events/bus.js';
import { ADVISORY_KEYS, ADVISORY_NAMESPACE } from './postgres-engine.js';
import { ScopeCheck } from './scope-check.js';
import { lockSkipLocked, type Engine, type EngineName, type Isolation, type Q } from './storage.js';

/** What a write collects while it runs; released only after commit. */
export class Outbox {
  readonly messages: BusMessage[] = [];
  readonly afterCommit: (() => void)[] = [];
  /** For the other servers of a cluster (cluster/cache-notes.ts); this one updates its caches itself. */
  readonly notes: CacheNote[] = [];
  permissionsChanged = false;
  /** Set once the write's function has returned or thrown: nothing may join it after that. */
  ended = false;

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

/**
 * An open write, handed to a service called inside it so that the call joins it: its statements'
 * builder and what it collects. A read inside a read or write is handed the `q` alone.
 */
export interface Within {
  readonly q: Q;
  readonly out: Outbox;
}

/**
 * Runs writes as transactions of the engine, and releases what they collected (events, cache
 * refreshes, wake-ups) only once they committed. `read` and `write` are the data layer every
 * service uses.
 *
 * A read or write called from inside another one (a service calling another) is handed that one's
 * scope (`within`) and runs in it: on SQLite a lock of its own would wait for the open write forever,
 * and on PostgreSQL another connection would not see the open write. The scope is passed by hand
 * rather than followed with AsyncLocalStorage, which would make every `await` in the process cost
 * about twice as much (bench/README.md); with `JUDGE_TX_SCOPE_CHECK=1` (the tests) it is followed
 * all the same, to refuse a nested call that was not handed its scope (scope-check.ts).
 */
export class Transactor {
  private readonly check?: ScopeCheck;

  constructor(
    private readonly engine: Engine,
    private readonly hooks: TransactionHooks = {},
    checkScopes = process.env.JUDGE_TX_SCOPE_CHECK === '1',
  ) {
    if (checkScopes) this.check = new ScopeCheck();
  }

  /** Which engine holds the data. */
  get engineName(): EngineName {
    return this.engine.name;
  }

  /**
   * Inside a write, before it appends to a table whose ids readers follow as a cursor: on PostgreSQL
   * a lock held to the commit, so that the rows of two such writes become visible in id order (a
   * reader past id n never misses a row below n committed later); SQLite writes one at a time.
   */
  async inCommitOrder(q: Q, table: 'clicsEvents'): Promise<void> {
    if (this.engineName !== 'postgres') return;
    const pgq = q as unknown as { execute(s: SQL): Promise<unknown> };
    await pgq.execute(sql`select pg_advisory_xact_lock(${ADVISORY_NAMESPACE}, ${ADVISORY_KEYS[table]})`);
  }

  /** The row lock a claim's subquery ends with on this engine (see `lockSkipLocked` in storage.ts). */
  lockSkipLocked(): SQL {
    return lockSkipLocked(this.engineName);
  }

  /**
   * Reads that must not see another request's unfinished write. `within`: the `q` of the open read
   * or write the caller runs inside, if any; the read then runs on it.
   */
  read<T>(fn: (q: Q) => Promise<T>, within?: Q): Promise<T> {
    if (this.check) return this.checkedRead(this.check, fn, within);
    return within ? fn(within) : this.engine.read(fn);
  }

  /**
   * One transaction on the engine; its outbox is released after the commit. An engine may run `fn`
   * again (PostgreSQL retries a lost serialization race): each attempt gets a fresh outbox, and only
   * the committed attempt's is released. `within`: the open write the caller runs inside, if any;
   * this one then joins it, as a nested transaction would (one commit, one rollback, one release).
   */
  write<T>(fn: (q: Q, out: Outbox) => Promise<T>, within?: Within): Promise<T> {
    return this.transaction(fn, within, 'serializable');
  }

  /**
   * A write that claims rows it picked with `skipLockedRows` / `lockSkipLocked` (a job, a trial),
   * safe by those row locks rather than by SERIALIZABLE: READ COMMITTED on PostgreSQL (storage.ts,
   * Isolation, says what such a write may do), the same single writer on SQLite.
   */
  claim<T>(fn: (q: Q, out: Outbox) => Promise<T>): Promise<T> {
    return this.transaction(fn, undefined, 'rowLocks');
  }

  /**
   * A write whose check-then-write is about one owner's rows, safe by locking the owner's row first
   * with `lockedRows` rather than by SERIALIZABLE: READ COMMITTED on PostgreSQL (storage.ts,
   * Isolation), the same single writer on SQLite. `within` as for `write`.
   */
  writeLocking<T>(fn: (q: Q, out: Outbox) => Promise<T>, within?: Within): Promise<T> {
    return this.transaction(fn, within, 'rowLocks');
  }

  private async transaction<T>(fn: (q: Q, out: Outbox) => Promise<T>, within: Within | undefined, isolation: Isolation): Promise<T> {
    const check = this.check;
    if (within) {
      // its events would be collected after they were released, and never sent
      if (within.out.ended) throw new Error('a write was given the scope of a write that has ended');
      check?.given(this, 'write');
      return fn(within.q, within.out);
    }
    check?.unnested(this, 'write');
    const tried: Outbox[] = [];
    let result: T;
    try {
      result = await this.engine.transaction(async (q) => {
        const out = new Outbox();
        tried.push(out);
        let r: T;
        try {
          r = check ? await check.track(this, 'write', () => fn(q, out)) : await fn(q, out);
        } finally {
          out.ended = true;
        }
        for (const hook of this.hooks.beforeCommit ?? []) await hook(q, out);
        return r;
      }, isolation);
    } finally {
      // every attempt, not just the last: a rolled-back one may have cached what it read, and
      // what it touched (permissions) need not be what the next attempt touches
      for (const out of tried) for (const hook of this.hooks.settled ?? []) hook(out);
    }
    const out = tried.at(-1)!;
    for (const then of out.afterCommit) then();
    for (const hook of this.hooks.committed ?? []) hook(out);
    return result;
  }

  private async checkedRead<T>(check: ScopeCheck, fn: (q: Q) => Promise<T>, within?: Q): Promise<T> {
    if (within) {
      check.given(this, 'read');
      return fn(within);
    }
    check.unnested(this, 'read');
    return this.engine.read((q) => check.track(this, 'read', () => fn(q)));
  }
}
