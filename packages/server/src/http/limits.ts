import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** One budget: `points` per `duration` seconds, under its own key prefix. */
export interface LimitSpec {
  points: number;
  duration: number;
  keyPrefix: string;
  /** Once `points` are spent, the key stays refused this many seconds (0: until the duration ends). */
  blockDuration?: number;
}

/**
 * Where request limits and sign-in budgets are counted. One server counts in memory; several
 * servers on one PostgreSQL count in a shared table, so a client that spreads its attempts over the
 * servers behind a load balancer gets no more than from one (docs/storage.md, "Several servers").
 */
export interface LimitStore {
  readonly shared: boolean;
  limiter(spec: LimitSpec): RateLimiterAbstract;
}

export const memoryLimits: LimitStore = {
  shared: false,
  limiter: (spec) => new RateLimiterMemory(spec),
};

/** rate-limiter-flexible's own table layout (RateLimiterPostgres), made here so that no limiter races to make it. */
const TABLE = 'rate_limits';
const CREATE = `CREATE TABLE IF NOT EXISTS ${TABLE} (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`;

/**
 * Budgets in PostgreSQL. If the database cannot be reached, each server counts in memory meanwhile
 * (the limiter's insurance), rather than refusing every sign-in or letting every attempt through.
 */
export async function postgresLimits(pool: pg.Pool): Promise<LimitStore> {
  try {
    await pool.query(CREATE);
  } catch (e) {
    // two servers starting at once: the loser of CREATE TABLE's race sees the type's unique key
    if ((e as { code?: string }).code !== '23505') throw e;
  }
  let sweeping = false;
  return {
    shared: true,
    limiter: (spec) => {
      // one limiter is enough to clear expired rows for the shared table
      const clearExpiredByTimeout = !sweeping;
      sweeping = true;
      return new RateLimiterPostgres({
        ...spec,
        storeClient: pool,
        storeType: 'pool',
        tableName: TABLE,
        tableCreated: true,
        clearExpiredByTimeout,
        insuranceLimiter: new RateLimiterMemory(spec),
      });
    },
  };
}
