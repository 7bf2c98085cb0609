import { QueryBuilder, type SQLiteTable } from 'drizzle-orm/sqlite-core';

/**
 * `table` under a second name, for a query that joins it more than once. drizzle's `alias()` does
 * not do on PostgreSQL what it does on SQLite: services build with `schema.ts`' SQLite tables, and
 * the PostgreSQL dialect writes the join of an aliased table as `join "table" "name"` only for its
 * own tables, so it wrote `join "name"`, a table that does not exist. A subquery of the whole
 * table, `(select … from "table") "name"`, is written alike by both dialects, and both planners
 * flatten it into a plain join of the table (it has no WHERE, GROUP BY or LIMIT of its own).
 */
export function portableAlias<T extends SQLiteTable, N extends string>(table: T, name: N) {
  return new QueryBuilder().select().from(table).as(name);
}
