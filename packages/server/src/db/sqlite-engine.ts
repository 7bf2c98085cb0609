import type Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import * as schema from './schema.js';
import { ReadWriteLock, type StuckWaiter } from './rw-lock.js';
import type { Engine, Isolation, Q } from './storage.js';
import { statements } from '../util.js';

/**
 * The client drizzle is given: better-sqlite3's own, except that a statement is prepared once per
 * SQL text and kept. drizzle prepares every query it runs, and preparing costs more than running
 * a small statement (the claim's candidate query spent ~50 µs there).
 */
function cachingClient(sqlite: Database.Database): Database.Database {
  const kept = statements(sqlite);
  const prepare = (text: string): Database.Statement => {
    const st = kept(boundLimits(text));
    // drizzle switches a statement to raw (array) rows for mapped selects; a kept one starts plain.
    if (st.reader) st.raw(false);
    return st;
  };
  return new Proxy(sqlite, {
    get: (target, key) => (key === 'prepare' ? prepare : (Reflect.get(target, key) as unknown)),
  });
}

/**
 * drizzle binds LIMIT and OFFSET as parameters (`limit ?`). SQLite lets a bare parameter there steer
 * the plan, so it prepares the statement again whenever one is bound: a primary-key read with
 * `limit ?` took 25–35 µs instead of 7 (bench/README.md, "LIMIT as a parameter"). Wrapped in a cast
 * it is an expression, evaluated at run time, and the statement stays prepared.
 */
export function boundLimits(text: string): string {
  return text.replace(/ (limit|offset) \?(?=$| )/g, ' $1 cast(? as integer)');
}

/** The embedded engine: one connection, one writer at a time under an async lock (see Engine). */
export class SqliteEngine implements Engine {
  readonly name = 'sqlite' as const;
  readonly q: Q;
  private readonly lock = new ReadWriteLock();

  constructor(private readonly sqlite: Database.Database) {
    // The sync driver's builders resolve when awaited, so the async type describes them truly.
    this.q = drizzle({ client: cachingClient(sqlite), schema }) as unknown as Q;
  }

  /** Where a request found waiting for the connection for long is reported (rw-lock.ts): the server's log. */
  reportStuckTo(report: (s: StuckWaiter) => void): void {
    this.lock.reportStuckTo(report);
  }

  read<T>(fn: (q: Q) => Promise<T>): Promise<T> {
    return this.lock.read(() => fn(this.q));
  }

  /** Every isolation is the single writer's: one write at a time, so nothing runs beside it. */
  transaction<T>(fn: (q: Q) => Promise<T>, _isolation?: Isolation): Promise<T> {
    return this.lock.write(async () => {
      this.sqlite.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(this.q);
        this.sqlite.exec('COMMIT');
        return result;
      } catch (e) {
        if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
        throw e;
      }
    });
  }

  async close(): Promise<void> {
    await this.lock.write(async () => this.sqlite.close());
  }
}
