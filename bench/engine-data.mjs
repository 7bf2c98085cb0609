// What the benchmarks that fill a judge's database themselves (claim-report.mjs, ranking.mjs) write
// and read with, inside the judge process: drizzle's builders on the judge's own data layer
// (`app.deps.tx`), so the same code fills SQLite and PostgreSQL. The built server's schema module
// and the server package's drizzle (the same module instance the server runs) are used.
const schema = await import('../packages/server/dist/db/schema.js');
const drizzle = await import(new URL('../packages/server/node_modules/drizzle-orm/index.js', import.meta.url).href);

export { schema, drizzle };

/** Rows per INSERT: SQLite binds at most 32,766 values in one statement, and the widest rows here have 12 columns. */
const BATCH = 500;

/** Inserts `rows` into `table` in one write, BATCH rows per statement. */
export function insertRows(app, table, rows) {
  return app.deps.tx.write(async (q) => {
    for (let i = 0; i < rows.length; i += BATCH) await q.insert(table).values(rows.slice(i, i + BATCH));
  });
}

/** Several tables' rows in one write, in the order given (parents before children). */
export function insertAll(app, pairs) {
  return app.deps.tx.write(async (q) => {
    for (const [table, rows] of pairs) for (let i = 0; i < rows.length; i += BATCH) await q.insert(table).values(rows.slice(i, i + BATCH));
  });
}

/** `{state: count}` of `table`'s rows. */
export async function countByState(app, table) {
  const { sql } = drizzle;
  const rows = await app.deps.tx.read((q) => q.select({ state: table.state, n: sql`count(*)`.mapWith(Number) }).from(table).groupBy(table.state));
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}
