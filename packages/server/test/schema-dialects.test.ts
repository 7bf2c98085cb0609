import { is, SQL } from 'drizzle-orm';
import { bigint, doublePrecision, getTableConfig as pgConfig, index as pgIndex, PgTable, pgTable, smallint, text as pgText, uniqueIndex as pgUnique } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig, index, integer, real, SQLiteTable, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as pgSchema from '../src/db/pg-schema.js';
import * as sqliteSchema from '../src/db/schema.js';

/**
 * `schema.ts` (SQLite, what services query with) and `pg-schema.ts` (PostgreSQL, what its
 * migrations are generated from) must describe the same tables: the same columns (name, kind, not
 * null, default, primary key), foreign keys (columns, target, on delete/update), unique constraints
 * and indexes (name, columns, unique, partial WHERE). Each side is read with its dialect's
 * `getTableConfig` into one dialect-free description, and the two descriptions must be equal.
 */

/** The kind of value a column holds, named the same on both sides (docs/storage.md, "Type mapping"). */
const KINDS: Record<string, string> = {
  SQLiteText: 'text',
  SQLiteTextJson: 'text',
  SQLiteInteger: 'integer',
  SQLiteBoolean: 'boolean',
  SQLiteReal: 'real',
  PgText: 'text',
  PgBigInt53: 'integer',
  PgSmallInt: 'boolean',
  PgDoublePrecision: 'real',
};

/** SQL text of a fragment (a default, an index's WHERE), parameters shown as JSON. */
function sqlText(s: SQL): string {
  return s.queryChunks
    .map((c) => {
      if (c && typeof c === 'object' && 'value' in c && Array.isArray(c.value)) return c.value.join('');
      if (c && typeof c === 'object' && 'name' in c) return String(c.name);
      return JSON.stringify(c);
    })
    .join('');
}

/** A default as SQL would write it: booleans are stored 0/1 on both sides. */
function defaultOf(d: unknown): unknown {
  if (d === undefined) return undefined;
  if (is(d, SQL)) return sqlText(d);
  if (typeof d === 'boolean') return d ? 1 : 0;
  if (typeof d === 'string') return `'${d}'`;
  return d;
}

type Config = ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>;

function describeConfig(c: Config) {
  const byName = <T extends { name: string }>(xs: T[]) => [...xs].sort((a, b) => a.name.localeCompare(b.name));
  return {
    name: c.name,
    columns: byName(
      c.columns.map((col) => ({
        name: col.name,
        kind: KINDS[col.columnType] ?? `unmapped ${col.columnType}`,
        notNull: col.notNull,
        default: defaultOf(col.default),
        primary: col.primary,
      })),
    ),
    primaryKeys: c.primaryKeys.map((pk) => pk.columns.map((col) => col.name)),
    foreignKeys: c.foreignKeys
      .map((fk) => {
        const r = fk.reference();
        const target = (r.foreignTable as unknown as { [k: symbol]: string })[Symbol.for('drizzle:Name')];
        return { columns: r.columns.map((col) => col.name), target, targetColumns: r.foreignColumns.map((col) => col.name), onDelete: fk.onDelete, onUpdate: fk.onUpdate ?? 'no action' };
      })
      .sort((a, b) => a.columns.join().localeCompare(b.columns.join())),
    uniqueConstraints: byName(c.uniqueConstraints.map((u) => ({ name: u.name ?? '', columns: u.columns.map((col) => col.name) }))),
    indexes: byName(
      c.indexes.map((i) => ({
        name: i.config.name ?? '',
        columns: i.config.columns.map((col) => (is(col, SQL) ? sqlText(col) : (col as { name: string }).name)),
        unique: i.config.unique ?? false,
        where: i.config.where ? sqlText(i.config.where) : undefined,
      })),
    ),
  };
}

const describeSqlite = (t: SQLiteTable) => describeConfig(sqliteConfig(t));
const describePg = (t: PgTable) => describeConfig(pgConfig(t));

const sqliteTables = (Object.values(sqliteSchema) as unknown[]).filter((v): v is SQLiteTable => is(v, SQLiteTable));
const pgTables = (Object.values(pgSchema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));

describe('the SQLite and PostgreSQL schema modules describe the same tables', () => {
  it('have the same tables', () => {
    const names = (ts: { name: string }[]) => ts.map((t) => t.name).sort();
    expect(sqliteTables.length).toBeGreaterThan(20);
    expect(names(pgTables.map(describePg))).toEqual(names(sqliteTables.map(describeSqlite)));
  });

  it.each(sqliteTables.map((t) => [sqliteConfig(t).name, t] as const))('%s: same columns, keys and indexes', (name, table) => {
    const pg = pgTables.find((t) => pgConfig(t).name === name);
    expect(pg, `pg-schema.ts has no table ${name}`).toBeDefined();
    expect(describePg(pg!)).toEqual(describeSqlite(table));
  });
});

describe('the comparison notices every difference it is there for', () => {
  const users = sqliteTable('u', { id: text('id').primaryKey() });
  const pgUsers = pgTable('u', { id: pgText('id').primaryKey() });
  const base = sqliteTable('t', {
    id: text('id').primaryKey(),
    n: integer('n').notNull().default(0),
    flag: integer('flag', { mode: 'boolean' }).notNull().default(false),
    score: real('score'),
    owner: text('owner').references(() => users.id, { onDelete: 'cascade' }),
  }, (t) => [uniqueIndex('t_n').on(t.n), index('t_owner').on(t.owner).where(sql`owner is not null`)]);
  const same = pgTable('t', {
    id: pgText('id').primaryKey(),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
    flag: smallint('flag').notNull().default(0),
    score: doublePrecision('score'),
    owner: pgText('owner').references(() => pgUsers.id, { onDelete: 'cascade' }),
  }, (t) => [pgUnique('t_n').on(t.n), pgIndex('t_owner').on(t.owner).where(sql`owner is not null`)]);

  it('finds equal what is equal', () => {
    expect(describePg(same)).toEqual(describeSqlite(base));
  });

  const variants: [string, PgTable][] = [
    ['a column only one side has', pgTable('t', { id: pgText('id').primaryKey(), n: bigint('n', { mode: 'number' }).notNull().default(0), flag: smallint('flag').notNull().default(0), score: doublePrecision('score'), owner: pgText('owner').references(() => pgUsers.id, { onDelete: 'cascade' }), extra: pgText('extra') }, (t) => [pgUnique('t_n').on(t.n), pgIndex('t_owner').on(t.owner).where(sql`owner is not null`)])],
    ['a column of another kind', pgTable('t', { id: pgText('id').primaryKey(), n: pgText('n').notNull().default('0'), flag: smallint('flag').notNull().default(0), score: doublePrecision('score'), owner: pgText('owner').references(() => pgUsers.id, { onDelete: 'cascade' }) }, (t) => [pgUnique('t_n').on(t.n), pgIndex('t_owner').on(t.owner).where(sql`owner is not null`)])],
    ['a nullable column', pgTable('t', { id: pgText('id').primaryKey(), n: bigint('n', { mode: 'number' }).default(0), flag: smallint('flag').notNull().default(0), score: doublePrecision('score'), owner: pgText('owner').references(() => pgUsers.id, { onDelete: 'cascade' }) }, (t) => [pgUnique('t_n').on(t.n), pgIndex('t_owner').on(t.owner).where(sql`owner is not null`)])],
    ['another default', pgTable('t', { id: pgText('id').primaryKey(), n: bigint('n', { mode: 'number' }).notNull().default(0), flag: smallint('flag').notNull().default(1), score: doublePrecision('score'), owner: pgText('owner').references(() => pgUsers.id, { onDelete: 'cascade' }) }, (t) => [pgUnique('t_n').on(t.n), pgIndex('t_owner').on(t.owner).where(sql`owner is not null`)])],
    ['another ON DELETE', pgTable('t', { id: pgText('id').primaryKey(), n: bigint('n', { mode: 'number' }).notNull().default(0), flag: smallint('flag').notNull().default(0), score: doublePrecision('score'), owner: pgText('owner').references(() => pgUsers.id, { onDelete: 'set null' }) }, (t) => [pgUnique('t_n').on(t.n), pgIndex('t_owner').on(t.owner).where(sql`owner is not null`)])],
    ['an index that is not unique', pgTable('t', { id: pgText('id').primaryKey(), n: bigint('n', { mode: 'number' }).notNull().default(0), flag: smallint('flag').notNull().default(0), score: doublePrecision('score'), owner: pgText('owner').references(() => pgUsers.id, { onDelete: 'cascade' }) }, (t) => [pgIndex('t_n').on(t.n), pgIndex('t_owner').on(t.owner).where(sql`owner is not null`)])],
    ['an index without its WHERE', pgTable('t', { id: pgText('id').primaryKey(), n: bigint('n', { mode: 'number' }).notNull().default(0), flag: smallint('flag').notNull().default(0), score: doublePrecision('score'), owner: pgText('owner').references(() => pgUsers.id, { onDelete: 'cascade' }) }, (t) => [pgUnique('t_n').on(t.n), pgIndex('t_owner').on(t.owner)])],
  ];
  it.each(variants)('finds %s', (_what, variant) => {
    expect(describePg(variant)).not.toEqual(describeSqlite(base));
  });
});
