// Where several judge servers keep their stored files: a shared directory (the judge's own BlobStore:
// write to .incoming, fsync, rename under the SHA-256) against PostgreSQL large objects (as CMS
// keeps its files), for (a) 2 KB sources, (b) 1 MB and (c) 50 MB packages. Large objects would also
// need each server to copy a blob into a local file before handing out a path (the sandbox inspects
// packages by path, downloads stream by range): that column is "lo → cache". The PostgreSQL is a
// throw-away cluster (scripts/pg-test-cluster.sh) with fsync turned back on, so both sides flush.
// Figures: docs/storage.md, "Files".
//
//   cd /work/main && pnpm build && node bench/blob-store.mjs
//   env: BENCH_DIR (where the directory store is made; default the system's temporary folder)
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, open, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, loadAverage, serverRequire } from './lib.mjs';

const pg = serverRequire('pg');
const { BlobStore } = await import('../packages/server/dist/modules/files/store.js');

const SCRIPT = fileURLToPath(new URL('../scripts/pg-test-cluster.sh', import.meta.url));
const CASES = [
  { name: '2 KB source', bytes: 2 * 1024, count: 400 },
  { name: '1 MB package', bytes: 1024 * 1024, count: 40 },
  { name: '50 MB package', bytes: 50 * 1024 * 1024, count: 4 },
];

const url = execFileSync(SCRIPT, ['start', '--watch', String(process.pid)], { encoding: 'utf8' }).trim();
const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'judge-blob-bench-'));
process.on('exit', () => {
  rmSync(dir, { recursive: true, force: true });
  try {
    execFileSync(SCRIPT, ['stop', url], { stdio: 'ignore' });
  } catch {
    // the watcher removes it once this process is gone
  }
});

const admin = new pg.Client({ connectionString: url });
await admin.connect();
// the test cluster starts without fsync: a fair comparison flushes on both sides
await admin.query('ALTER SYSTEM SET fsync = on');
await admin.query('ALTER SYSTEM SET synchronous_commit = on');
await admin.query('ALTER SYSTEM SET full_page_writes = on');
await admin.query('SELECT pg_reload_conf()');
await admin.query('CREATE TABLE blobs (sha256 text PRIMARY KEY, oid oid NOT NULL)');

const store = new BlobStore(join(dir, 'files'));
const cache = new BlobStore(join(dir, 'cache'));
await mkdir(store.incomingDir, { recursive: true });
await mkdir(cache.incomingDir, { recursive: true });

async function timed(fn) {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e9;
}

async function dirWrite(bytes) {
  const temp = store.tempPath('bench');
  const h = await open(temp, 'w');
  await h.writeFile(bytes);
  await h.close();
  const { sha256 } = await store.hashFile(temp);
  await store.adopt(temp, sha256);
  return sha256;
}

const dirRead = (sha) => readFile(store.pathOf(sha));

/** One large object per blob, written in one transaction with its row (as a store keyed by SHA-256 would). */
async function loWrite(bytes) {
  const sha = createHash('sha256').update(bytes).digest('hex');
  await admin.query('BEGIN');
  await admin.query('INSERT INTO blobs (sha256, oid) VALUES ($1, lo_from_bytea(0, $2)) ON CONFLICT DO NOTHING', [sha, bytes]);
  await admin.query('COMMIT');
  return sha;
}

async function loRead(sha) {
  const { rows } = await admin.query('SELECT lo_get(oid) AS b FROM blobs WHERE sha256 = $1', [sha]);
  return rows[0].b;
}

/** What a per-server cache does on a miss: read the large object, write it to a local file, flush, rename. */
async function loToCache(sha) {
  const b = await loRead(sha);
  const temp = cache.tempPath('fill');
  await writeFile(temp, b);
  await cache.adopt(temp, sha);
}

const rate = (c, s) => ({ ops: c.count / s, mbs: (c.count * c.bytes) / 1024 / 1024 / s });
const cell = (r) => `${fmt(r.ops, r.ops < 10 ? 1 : 0).padStart(7)} op/s ${fmt(r.mbs, 1).padStart(7)} MB/s`;

console.log(`blob store: shared directory (${dir}) vs PostgreSQL large objects; ${await loadAverage()}`);
console.log(`  ${'case'.padEnd(14)} ${'dir write'.padEnd(24)} ${'lo write'.padEnd(24)} ${'dir read'.padEnd(24)} ${'lo read'.padEnd(24)} lo → cache`);
for (const c of CASES) {
  const blobs = Array.from({ length: c.count }, () => randomBytes(c.bytes));
  const dirShas = [];
  const loShas = [];
  const dw = await timed(async () => {
    for (const b of blobs) dirShas.push(await dirWrite(b));
  });
  const lw = await timed(async () => {
    for (const b of blobs) loShas.push(await loWrite(b));
  });
  const dr = await timed(async () => {
    for (const s of dirShas) await dirRead(s);
  });
  const lr = await timed(async () => {
    for (const s of loShas) await loRead(s);
  });
  const lc = await timed(async () => {
    for (const s of loShas) await loToCache(s);
  });
  console.log(`  ${c.name.padEnd(14)} ${cell(rate(c, dw))}  ${cell(rate(c, lw))}  ${cell(rate(c, dr))}  ${cell(rate(c, lr))}  ${cell(rate(c, lc))}`);
}
console.log(`  ${await loadAverage()}`);
await admin.end();
