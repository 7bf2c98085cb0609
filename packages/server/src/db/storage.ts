import { sql, type SQL } from 'drizzle-orm';
import type { AnySQLiteTable, BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import type * as schema from './schema.js';

/**
 * The query builder every service writes its SQL with: drizzle, typed against the one schema
 * description (`schema.ts`). Only the portable part may be used, so that the same code runs on
 * SQLite and on PostgreSQL:
 * - a builder is run by awaiting it (never `.all()`, `.get()`, `.run()`, `.values()`: PostgreSQL's
 *   builders have none of them); one row is `(await q.select()…limit(1))[0]`;
 * - how many rows a write touched is asked with `.returning({ id: t.id })`, not from the driver's
 *   result (SQLite's `changes`, PostgreSQL's `rowCount`);
 * - raw SQL only inside `sql` fragments of a builder, and only what both engines understand
 *   (no `json_each`, `strftime`, `INSERT OR …`, `COLLATE NOCASE`, `GROUP_CONCAT`; lists are bound
 *   with `inArray`, case is folded with `lower()`).
 */
export type Q = BaseSQLiteDatabase<'async', unknown, typeof schema>;

/** Which engine holds the data: the embedded default or a PostgreSQL server shared by several judges. */
export type EngineName = 'sqlite' | 'postgres';

/**
 * One database, asynchronously, whichever engine holds it.
 *
 * SQLite: one connection, one writer at a time. A write is `BEGIN IMMEDIATE` … `COMMIT` under an
 * async lock, and reads wait while a write is open, so an `await` inside a transaction never lets
 * another request's statements in (they would see its uncommitted rows on the shared connection).
 *
 * PostgreSQL: a pool; a write is a transaction on a client of its own, retried when the server
 * reports a serialization failure or a deadlock; reads run on any pooled client.
 */
export interface Engine {
  readonly name: EngineName;
  /** Reads that must not see another request's unfinished write. */
  read<T>(fn: (q: Q) => Promise<T>): Promise<T>;
  /**
   * One transaction: all of `fn`'s statements commit together or none does. `isolation` matters
   * only where writes run side by side (PostgreSQL): see `Isolation`.
   */
  transaction<T>(fn: (q: Q) => Promise<T>, isolation?: Isolation): Promise<T>;
  close(): Promise<void>;
}

/**
 * How a write is kept safe from the writes beside it on PostgreSQL (SQLite runs one at a time).
 * `serializable`, every write's default: PostgreSQL aborts (and the engine runs again) one of two
 * writes whose interleaving no serial order could give, so any check-then-write is safe.
 * `rowLocks`: READ COMMITTED, for a write whose safety rests on row locks alone, either
 * - a claim: it picks its rows with `skipLockedRows` or `lockSkipLocked`, changes them only under a
 *   condition that re-checks their state, and writes nothing else that another write could be
 *   deciding on at the same time. Claims by many runners at once all read the head of one queue: at
 *   SERIALIZABLE they abort each other (3.6 attempts a claim with 8 runners, bench/README.md "claim →
 *   report on PostgreSQL"); or
 * - a check-then-write about one owner's rows (a user's submissions under a limit): it first locks
 *   the owner's row with `lockedRows`, so that the writes deciding on the same rows run one after
 *   another and each check (a statement after the lock, reading what committed before it) sees the
 *   other's rows; everything else it writes is inserts and changes of its own new rows. At
 *   SERIALIZABLE, submissions of different users aborted each other on the index pages their counts
 *   read (2.3 attempts a submission, bench/README.md).
 */
export type Isolation = 'serializable' | 'rowLocks';

/**
 * A select of rows a claim picks from, locked as it reads them on PostgreSQL
 * (`FOR UPDATE OF <of> SKIP LOCKED`): rows another claim holds are passed over, so concurrent
 * claims take different rows at once. Nothing on SQLite, whose single writer makes the claim
 * atomic. Call it last, just before `.prepare()` or the await; only `of`'s rows are locked.
 */
export function skipLockedRows<S>(select: S, of: AnySQLiteTable): S {
  return forClause(select, 'update', { of, skipLocked: true });
}

/** The select with PostgreSQL's `FOR <strength>` clause; unchanged on SQLite, whose builder has no `for`. */
function forClause<S>(select: S, strength: 'update' | 'no key update', config: { of: AnySQLiteTable; skipLocked?: true }): S {
  // the builder is PostgreSQL's at run time on that engine (postgres-engine.ts), which has `for`
  const pg = select as unknown as { for?: (strength: string, config: { of: AnySQLiteTable; skipLocked?: true }) => S };
  return typeof pg.for === 'function' ? pg.for(strength, config) : select;
}

/**
 * A select of the rows a `rowLocks` write decides on, locked until it ends on PostgreSQL
 * (`FOR NO KEY UPDATE OF <of>`): another write locking them so waits for this one's commit, while
 * writes that only refer to them (a foreign key's check) go on. Nothing on SQLite, whose single
 * writer already runs such writes one after another. Call it last, as `skipLockedRows`.
 */
export function lockedRows<S>(select: S, of: AnySQLiteTable): S {
  return forClause(select, 'no key update', { of });
}

/**
 * The row lock a claim takes on the row it picks: `FOR UPDATE SKIP LOCKED` on PostgreSQL, so that
 * concurrent claims pick different rows instead of waiting for (and then losing to) each other;
 * nothing on SQLite, whose single writer already makes the claim atomic. It ends the subquery that
 * picks the row, e.g.
 * `q.update(t).set(…).where(eq(t.id, sql`(${q.select({ id: t.id }).from(t).where(…).orderBy(…).limit(1)} ${lockSkipLocked(name)})`)).returning()`.
 */
export function lockSkipLocked(engine: EngineName): SQL {
  return engine === 'postgres' ? sql`for update skip locked` : sql``;
}

/** What drizzle's `.prepare()` hands back: run with the placeholders' values. */
interface PreparedQuery<P, R> {
  execute(placeholders?: P): Promise<R> | R;
}

/**
 * A query built once per `q` and run with placeholders (`sql.placeholder('id')`) from then on.
 * Building a drizzle query costs more than SQLite takes to run a small one, so the queries on every
 * request's path (the account, a session, a claim) are built once. On SQLite `q` is one object for
 * the life of the server; on PostgreSQL each transaction has its own, so a query is built once per
 * transaction there, where the round trip to the server costs more anyway.
 */
export function prepared<P extends Record<string, unknown>, R>(build: (q: Q) => PreparedQuery<P, R>): (q: Q, placeholders: P) => Promise<R> {
  const made = new WeakMap<Q, PreparedQuery<P, R>>();
  return async (q, placeholders) => {
    let query = made.get(q);
    if (!query) made.set(q, (query = build(q)));
    return query.execute(placeholders);
  };
}

/**
 * `prepared()` for a query whose SQL depends on a small key besides `q` (a batch size written into
 * its LIMIT, how many values a list binds): one prepared query per key and `q`. Keys must come
 * from a small set, as every key keeps its statement for the life of `q`.
 */
export function preparedPer<K, P extends Record<string, unknown>, R>(build: (q: Q, key: K) => PreparedQuery<P, R>): (q: Q, key: K, placeholders: P) => Promise<R> {
  const byKey = new Map<K, (q: Q, placeholders: P) => Promise<R>>();
  return (q, key, placeholders) => {
    let run = byKey.get(key);
    if (!run) byKey.set(key, (run = prepared((q) => build(q, key))));
    return run(q, placeholders);
  };
}
