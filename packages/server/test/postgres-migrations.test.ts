import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../src/db/postgres-engine.js';
import * as pgSchema from '../src/db/pg-schema.js';
import { freshDatabase, type TestDatabase } from './pg-cluster.js';

/** PostgreSQL's migration folder (drizzle-pg/) applied to real databases on the test cluster. */

const MIGRATIONS = fileURLToPath(new URL('../drizzle-pg/', import.meta.url));
const made: TestDatabase[] = [];
afterAll(async () => {
  for (const db of made) await db.drop();
});

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const PG_TYPES: Record<string, string> = { PgText: 'text', PgBigInt53: 'bigint', PgSmallInt: 'smallint', PgDoublePrecision: 'double precision' };

describe('PostgreSQL migrations', () => {
  it('make the tables, columns and indexes pg-schema.ts describes', async () => {
    const db = await freshDatabase({ migrated: false });
    made.push(db);
    const engine = await openPostgres(db.url);
    await engine.close();
    const tables = (Object.values(pgSchema) as unknown[]).filter((v): v is PgTable => is(v, PgTable)).map((t) => getTableConfig(t));
    const expected = {
      columns: tables.flatMap((t) => t.columns.map((c) => `${t.name}.${c.name} ${PG_TYPES[c.columnType] ?? c.columnType}${c.notNull ? ' not null' : ''}`)).sort(),
      indexes: tables.flatMap((t) => t.indexes.map((i) => `${t.name}.${i.config.name}`)).sort(),
    };
    const found = await withClient(db.url, async (c) => ({
      columns: (
        await c.query<{ c: string }>(
          `SELECT table_name || '.' || column_name || ' ' || data_type || CASE WHEN is_nullable = 'NO' THEN ' not null' ELSE '' END AS c
           FROM information_schema.columns WHERE table_schema = 'public'`,
        )
      ).rows
        .map((r) => r.c)
        .sort(),
      // the primary keys' own indexes are the columns' `primary`, compared above
      indexes: (await c.query<{ i: string }>(`SELECT tablename || '.' || indexname AS i FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE '%\\_pkey'`)).rows.map((r) => r.i).sort(),
    }));
    expect(found).toEqual(expected);
  });

  it('are applied once when several servers open an empty database at the same time', async () => {
    const db = await freshDatabase({ migrated: false });
    made.push(db);
    const engines = await Promise.all([openPostgres(db.url), openPostgres(db.url), openPostgres(db.url)]);
    await Promise.all(engines.map((e) => e.close()));
    const journal = JSON.parse(readFileSync(join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
    const applied = await withClient(db.url, async (c) => (await c.query('SELECT hash FROM drizzle.__drizzle_migrations')).rowCount);
    expect(applied).toBe(journal.entries.length);
  });

  it("end where SQLite's do: a Manager role made before 0011's change gains printout:manage, once", async () => {
    const db = await freshDatabase({ migrated: false });
    made.push(db);
    // the folder as it was before the hand-written step: only its first migration
    const dir = mkdtempSync(join(tmpdir(), 'judge-pg-migrations-'));
    try {
      cpSync(MIGRATIONS, dir, { recursive: true });
      const journalFile = join(dir, 'meta/_journal.json');
      const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: unknown[] };
      writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, 1) }));
      await withClient(db.url, (c) => migrate(drizzle({ client: c }), { migrationsFolder: dir }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const role = (id: string, key: string, permissions: string[]) =>
      withClient(db.url, (c) => c.query(`INSERT INTO roles (id, name, name_key, permissions, built_in_key, created_at) VALUES ($1, $2, $2, $3, $2, '2026-01-01T00:00:00.000Z')`, [id, key, JSON.stringify(permissions)]));
    await role('r-manager', 'manager', ['activity:manage']);
    await role('r-participant', 'participant', ['submission:create']);
    // opened twice: the second finds nothing pending and changes nothing
    for (let i = 0; i < 2; i++) await (await openPostgres(db.url)).close();
    const permissions = await withClient(db.url, async (c) => (await c.query<{ id: string; permissions: string }>('SELECT id, permissions FROM roles ORDER BY id')).rows);
    expect(permissions.map((r) => [r.id, JSON.parse(r.permissions) as string[]])).toEqual([
      ['r-manager', ['activity:manage', 'printout:manage']],
      ['r-participant', ['submission:create']],
    ]);
  });
});
