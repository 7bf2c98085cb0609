// What the transactor costs every other await of the process: ten awaits timed before any read or
// write, and again after a write with a nested read and write (each handed its scope, as services
// do). Run as the server runs (no JUDGE_TX_SCOPE_CHECK) the two figures stay alike; with
// JUDGE_TX_SCOPE_CHECK=1 (the tests' scope check, src/db/scope-check.ts) the second one shows
// what following the scope with AsyncLocalStorage costs: it turns on promise hooks for good.
// Each mode runs in a child process of its own, since the hooks cannot be turned off again.
//
//   pnpm build && node bench/transactor-awaits.mjs
//   env: BENCH_ROUNDS (default 200,000 timings of ten awaits, the median printed)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200_000);

async function tenAwaits() {
  for (let i = 0; i < 10; i++) await null;
}

async function awaitsNs() {
  const took = new Float64Array(ROUNDS);
  for (let i = 0; i < ROUNDS; i++) {
    const t = process.hrtime.bigint();
    await tenAwaits();
    took[i] = Number(process.hrtime.bigint() - t);
  }
  took.sort();
  return took[ROUNDS >> 1];
}

async function child() {
  const { openDatabase } = await import('../packages/server/dist/db/database.js');
  const { Transactor } = await import('../packages/server/dist/db/transactor.js');
  const { roles } = await import('../packages/server/dist/db/schema.js');
  const dir = mkdtempSync(join(tmpdir(), 'transactor-awaits-'));
  const dbh = openDatabase(join(dir, 'judge.db'));
  try {
    const before = await awaitsNs();
    const tx = new Transactor(dbh.engine);
    await tx.write(async (q, out) => {
      await tx.write(async (inner) => inner.select({ id: roles.id }).from(roles).limit(1), { q, out });
      await tx.read((inner) => inner.select({ id: roles.id }).from(roles), q);
    });
    const after = await awaitsNs();
    console.log(JSON.stringify({ before, after }));
  } finally {
    dbh.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'child') {
  await child();
} else {
  console.log(`ten awaits, median ns of ${ROUNDS.toLocaleString('en')} timings, before and after the first transaction; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  for (const [name, check] of [['as the server runs', ''], ['JUDGE_TX_SCOPE_CHECK=1 (tests)', '1']]) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), 'child'], { env: { ...process.env, JUDGE_TX_SCOPE_CHECK: check }, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${name}: ${r.stderr}`);
    const { before, after } = JSON.parse(r.stdout);
    console.log(`  ${name.padEnd(32)} before ${String(before).padStart(6)} ns   after ${String(after).padStart(6)} ns   ratio ${(after / before).toFixed(2)}`);
  }
}
