// The access policy's activity lookup, asked on every activity request: through the asynchronous
// data layer (a read under the engine's lock, drizzle's builder, statements kept per SQL text)
// against the prepared statement it replaced, in one process and one run, alternating, so that
// load from elsewhere on the machine hits both alike. Prints µs per lookup and the ratio.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../packages/server/dist/db/database.js';
import { Transactor } from '../packages/server/dist/db/transactor.js';
import { activities } from '../packages/server/dist/db/schema.js';
import { findActivity } from '../packages/server/dist/modules/policy/index.js';

// drizzle-orm is the server package's dependency, not the repository's
const { eq, sql } = await import(new URL('../packages/server/node_modules/drizzle-orm/index.js', import.meta.url).href);

const N = Number(process.env.BENCH_LOOKUPS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'activity-lookup-'));
const dbh = openDatabase(join(dir, 'judge.db'));
const tx = new Transactor(dbh.engine);
const now = new Date().toISOString();
const ids = [];
for (let i = 0; i < 200; i++) {
  const id = crypto.randomUUID();
  ids.push(id);
  dbh.db.insert(activities).values({ id, slug: `a-${i}`, slugKey: `a-${i}`, name: `Activity ${i}`, type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', createdAt: now, publishedAt: now }).run();
}
const key = sql.placeholder('key');
const prepared = dbh.db.select().from(activities).where(eq(activities.id, key)).prepare();

async function layer() {
  for (let i = 0; i < N; i++) if (!(await tx.read((q) => findActivity(q, ids[i % ids.length])))) throw new Error('missing');
}
async function statement() {
  // awaited too, as a request handler would: the difference is the layer, not the await
  for (let i = 0; i < N; i++) if (!(await Promise.resolve(prepared.get({ key: ids[i % ids.length] })))) throw new Error('missing');
}
async function timed(fn) {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1000 / N;
}

console.log(`activity lookup by id, ${N} lookups per measurement, ${ROUNDS} rounds; load average at the start ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
await layer();
await statement();
const a = [];
const b = [];
for (let r = 0; r < ROUNDS; r++) {
  a.push(await timed(layer));
  b.push(await timed(statement));
  console.log(`  round ${r + 1}: data layer ${a[r].toFixed(1)} µs, prepared statement ${b[r].toFixed(1)} µs`);
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
console.log(`median: data layer ${median(a).toFixed(1)} µs per lookup, prepared statement ${median(b).toFixed(1)} µs, extra ${(median(a) - median(b)).toFixed(1)} µs (ratio ${(median(a) / median(b)).toFixed(2)})`);
console.log(`load average at the end ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
dbh.close();
rmSync(dir, { recursive: true, force: true });
