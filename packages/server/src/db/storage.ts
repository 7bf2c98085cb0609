import { sql, type SQL } from 'drizzle-orm';
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
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
  /** One transaction: all of `fn`'s statements commit together or none does. */
  transaction<T>(fn: (q: Q) => Promise<T>): Promise<T>;
  close(): Promise<void>;
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
