import pg from 'pg';

/**
 * Rows of one statement on a PostgreSQL database, on a connection of its own: for end-to-end tests
 * (under test/, which does not depend on pg) that check what several servers wrote to one database.
 */
export async function pgRows<R extends Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<R>(text, values)).rows;
  } finally {
    await c.end();
  }
}
