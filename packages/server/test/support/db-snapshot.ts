import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { files, problemVersionFiles, problemVersions, problems } from '../../src/db/schema.js';
import type { TestJudge } from '../harness.js';

/** What storing a problem version writes: a refused package must leave all of it as it was. */
export const PROBLEM_TABLES = [problems, problemVersions, problemVersionFiles, files];

/**
 * Every row of these tables, read through the data layer, for showing that a refused call changed
 * nothing. Rows are compared as text and sorted, so the order an engine returns them in does not
 * matter (there is no portable rowid).
 */
export function tableSnapshot(j: TestJudge, tables: readonly SQLiteTable[]): Promise<string> {
  return j.app.deps.tx.read(async (q) => {
    const all: string[][] = [];
    for (const t of tables) all.push((await q.select().from(t)).map((r) => JSON.stringify(r)).sort());
    return JSON.stringify(all);
  });
}
