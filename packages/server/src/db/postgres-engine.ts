import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import * as schema from './schema.js';
import type { Engine, Isolation, Q } from './storage.js';

const MIGRATIONS = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'drizzle-pg');

/** Advisory lock keys (`pg_advisory_lock(NAMESPACE, key)`) the judge takes; NAMESPACE is "judg" in ASCII. */
export const ADVISORY_NAMESPACE = 0x6a756467;
export const ADVISORY_KEYS = {
  migrations: 1,
  /** Every write holds it shared for its transaction; a write that kept losing races takes it alone. */
  writes: 2,
  /** Taken by a write just before it appends to the event log, so that event ids become visible in order (cluster/event-log.ts). */
  events: 3,
  /** Held for as long as a server leads the cluster and runs its workers (cluster/leader.ts). */
  leader: 4,
  /** Taken by a write just before it appends to a contest's CLICS event feed (modules/clics/event-log.ts), for the same reason as `events`. */
  clicsEvents: 5,
} as const;

/**
 * How many times a write is tried, and after how many lost races it runs alone. Writes whose reads
 * PostgreSQL can only lock as a whole table (a filter no index serves, or more rows than its
 * predicate locks hold) all conflict with each other; under a steady stream of them one can lose
 * every round (8 such writers at once starved one through 25 tries). Running alone, a write
 * cannot lose: so a write ends after at most `exclusiveAfter` lost races and one more attempt.
 */
export const DEFAULT_MAX_ATTEMPTS = 10;
export const DEFAULT_EXCLUSIVE_AFTER = 4;

/** Connections of a pool opened without a size: node-postgres' own default (a server takes `databasePoolSize`). */
const DEFAULT_POOL_SIZE = 10;

/** The writes lock's arguments, written into the statements that take it (both are constants). */
const WRITES_LOCK = `${ADVISORY_NAMESPACE}, ${ADVISORY_KEYS.writes}`;

/**
 * SQLSTATEs of a transaction that may simply run again: a serialization failure or a deadlock (it
 * lost a race), and "out of shared memory" (53200), which a SERIALIZABLE write meets when the
 * cluster's predicate-lock table is full: its entries outlive their transactions until every
 * overlapping transaction has ended, so the table empties again as the writes in progress end
 * (docs/storage.md, "PostgreSQL": `max_pred_locks_per_transaction`).
 */
const RETRYABLE = new Set(['40001', '40P01', '53200']);

/** What begins a write at each isolation (storage.ts, Isolation). */
const BEGIN: Record<Isolation, string> = {
  serializable: 'BEGIN ISOLATION LEVEL SERIALIZABLE',
  rowLocks: 'BEGIN ISOLATION LEVEL READ COMMITTED',
};

export interface PostgresOptions {
  /** Connections in the pool (DEFAULT_POOL_SIZE; the server's setting `databasePoolSize`). */
  poolSize?: number;
  /** How many times a write is tried before its serialization failure is thrown (DEFAULT_MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** After how many lost races a write's next attempts run alone (DEFAULT_EXCLUSIVE_AFTER). */
  exclusiveAfter?: number;
  /** Told when an idle pooled connection fails (the server restarted, the network dropped it). */
  onIdleError?: (e: Error) => void;
}

/**
 * Makes PostgreSQL's answers what SQLite's are, since services read them through `schema.ts`'
 * SQLite column mappers: bigint (20) and numeric (1700, what `sum()` of bigints gives) become JS
 * numbers, as every SQLite integer and aggregate is. drizzle's node-postgres driver parses results
 * with node-postgres' process-wide parsers (it overrides a pool's own), so these are set there; the
 * judge is their only user in its process. Exact below 2^53, as SQLite's integers are in JS.
 */
function parseNumbersAsSqliteDoes(): void {
  pg.types.setTypeParser(pg.types.builtins.INT8, Number);
  pg.types.setTypeParser(pg.types.builtins.NUMERIC, Number);
}

/** Whether `e` (or what it wraps: drizzle wraps a failed query's error as its `cause`) is a race to run again. */
export function isRetryable(e: unknown): boolean {
  for (let c: unknown = e, depth = 0; c && typeof c === 'object' && depth < 5; c = (c as { cause?: unknown }).cause, depth++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string' && RETRYABLE.has(code)) return true;
  }
  return false;
}

/** Backoff before attempt `n + 1`: random in [0, 2^n ms], at most 100 ms, so that racers spread out. */
const backoff = (n: number) => new Promise<void>((go) => setTimeout(go, Math.random() * Math.min(100, 2 ** n)));

/**
 * The engine of several judge servers sharing one PostgreSQL database (see Engine and
 * docs/storage.md, "PostgreSQL"). A write is one SERIALIZABLE transaction on a pooled client of its
 * own, run again from the start when it loses a serialization race or a deadlock: every
 * check-then-write is then as safe as on SQLite's single writer. Claims run at READ COMMITTED
 * instead, safe by their row locks (storage.ts, Isolation). Reads run on any pooled client and
 * see only committed rows.
 */
export class PostgresEngine implements Engine {
  readonly name = 'postgres' as const;
  /** The query builder on the pool, for reads. */
  readonly q: Q;
  /** Each pooled connection's builder, made once per connection rather than once per write. */
  private readonly bound = new WeakMap<pg.PoolClient, Q>();
  private readonly maxAttempts: number;
  private readonly exclusiveAfter: number;

  constructor(
    readonly pool: pg.Pool,
    options: PostgresOptions = {},
  ) {
    // drizzle's node-postgres builders run `schema.ts`' SQLite tables as PostgreSQL SQL; the columns
    // of drizzle-pg/ store what their mappers expect, so the SQLite-typed builder describes them.
    this.q = drizzle({ client: pool, schema }) as unknown as Q;
    this.maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    this.exclusiveAfter = options.exclusiveAfter ?? DEFAULT_EXCLUSIVE_AFTER;
  }

  read<T>(fn: (q: Q) => Promise<T>): Promise<T> {
    return fn(this.q);
  }

  async transaction<T>(fn: (q: Q) => Promise<T>, isolation: Isolation = 'serializable'): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(fn, isolation, attempt > this.exclusiveAfter);
      } catch (e) {
        if (attempt >= this.maxAttempts || !isRetryable(e)) throw e;
        await backoff(attempt);
      }
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /**
   * One attempt: BEGIN … COMMIT on a client of its own, rolled back on any failure. It holds the
   * writes lock shared, taken in BEGIN's round trip; an `exclusive` attempt takes it alone before
   * BEGIN instead, so that it waits for the writes in progress, keeps new ones waiting, and its
   * snapshot (taken at its first statement) comes after them all.
   */
  private async once<T>(fn: (q: Q) => Promise<T>, isolation: Isolation, exclusive: boolean): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    const lost = (err: unknown) => {
      // the connection itself failed: the pool must not hand it out again (its session locks die with it)
      broken = err instanceof Error ? err : new Error(String(err));
    };
    try {
      if (exclusive) await client.query(`SELECT pg_advisory_lock(${WRITES_LOCK})`);
      const begin = BEGIN[isolation];
      await client.query(exclusive ? begin : `${begin}; SELECT pg_advisory_xact_lock_shared(${WRITES_LOCK})`);
      const result = await fn(this.builderFor(client));
      const end = await client.query('COMMIT');
      // PostgreSQL answers COMMIT of a transaction that a failed statement aborted with ROLLBACK, not
      // an error: that happens when `fn` caught a statement's error and went on (on SQLite it could).
      if (end.command === 'ROLLBACK') throw new Error('a statement failed inside the write and its error was caught, so PostgreSQL rolled the write back');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(lost);
      throw e;
    } finally {
      if (exclusive && !broken) await client.query(`SELECT pg_advisory_unlock(${WRITES_LOCK})`).catch(lost);
      client.release(broken);
    }
  }

  /**
   * A connection of its own, outside the pool, with the pool's settings: for what lives as long as a
   * session (LISTEN, the leader's advisory lock). The caller connects and ends it.
   */
  dedicatedClient(): pg.Client {
    const client = new pg.Client({ ...this.pool.options, keepAlive: true });
    return client;
  }

  private builderFor(client: pg.PoolClient): Q {
    let q = this.bound.get(client);
    if (!q) this.bound.set(client, (q = drizzle({ client, schema }) as unknown as Q));
    return q;
  }
}

/**
 * Refuses a database whose text rules differ from SQLite's: the judge's queries sort and compare
 * text bytewise and fold case with `lower()` for ASCII only, which PostgreSQL does under the C
 * locale; and text is UTF-8 on both.
 */
async function checkDatabase(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ collate: string; ctype: string; encoding: string }>(
    `SELECT datcollate AS collate, datctype AS ctype, pg_encoding_to_char(encoding) AS encoding FROM pg_database WHERE datname = current_database()`,
  );
  const db = rows[0];
  const plain = (locale: string | undefined) => locale === 'C' || locale === 'POSIX';
  if (!db || db.encoding !== 'UTF8' || !plain(db.collate) || !plain(db.ctype)) {
    throw new Error(
      `the database must use UTF-8 and the C locale (it has ${db?.encoding}, collate ${db?.collate}, ctype ${db?.ctype}): ` +
        `CREATE DATABASE judge TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`,
    );
  }
}

/**
 * Applies drizzle-pg/'s pending migrations under an advisory lock, so that servers starting at
 * once take turns: the first applies them, the others then find nothing pending.
 */
async function migrateLocked(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [ADVISORY_NAMESPACE, ADVISORY_KEYS.migrations]);
    try {
      await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [ADVISORY_NAMESPACE, ADVISORY_KEYS.migrations]);
    }
  } finally {
    client.release();
  }
}

/** Connects to `url` (postgres://…), checks the database, applies pending migrations. */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<PostgresEngine> {
  parseNumbersAsSqliteDoes();
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? DEFAULT_POOL_SIZE });
  // an idle connection's failure must not end the process (an unhandled 'error' event would): the
  // pool drops that connection and the next query opens a new one
  pool.on('error', (e) => options.onIdleError?.(e));
  try {
    await checkDatabase(pool);
    await migrateLocked(pool);
  } catch (e) {
    await pool.end();
    throw e;
  }
  return new PostgresEngine(pool, options);
}
