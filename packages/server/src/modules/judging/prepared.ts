import type { Q } from '../../db/storage.js';

const kept = new WeakMap<Q, Map<string, unknown>>();

/**
 * The runner protocol's hot queries, built once per query builder `q` and run with placeholders
 * (`sql.placeholder`, values given to `execute`). Building a query's SQL is drizzle's work on every
 * run of a builder, and on the claim → report path it was most of a job's CPU: ten builders cost
 * several times the statements they run (bench/README.md, claim-report). On SQLite the engine's
 * `q` lives as long as the server, so each is built once; an engine that hands out a `q` per
 * connection builds each once per connection. The values are bound as given: a JSON column's value
 * is passed as its text.
 */
export function preparedOn<P>(q: Q, key: string, build: (q: Q) => P): P {
  let mine = kept.get(q);
  if (!mine) kept.set(q, (mine = new Map()));
  let p = mine.get(key) as P | undefined;
  if (!p) mine.set(key, (p = build(q)));
  return p;
}
