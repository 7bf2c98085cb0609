#!/usr/bin/env node
// Runs the whole vitest suite on SQLite and, alongside it, the server and end-to-end files on
// PostgreSQL, and closes with the plain totals line CI reads: "N passed, N failed" (both runs).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { POSTGRES_EXCLUDED, POSTGRES_FILES } from './postgres-suite.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);

// vitest strips types without checking them: the tests are type-checked first, and a type error
// counts as one failure. Build mode checks them against the packages' declarations, rebuilding a
// package only when its sources changed since the last build, so no source is checked twice.
const typecheck = spawnSync('npx', ['tsc', '-b', 'tsconfig.test.json'], { cwd: root, stdio: 'inherit' });
const typeFailures = typecheck.status === 0 ? 0 : 1;
if (typeFailures) console.log('The tests do not type-check (tsc -b tsconfig.test.json): counted as one failure.');

/** Runs vitest with a JSON report at `out`; resolves with its exit status. */
function vitest(out, extra, { env = process.env, log } = {}) {
  rmSync(out, { force: true });
  const argv = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...extra];
  const child = spawn('npx', argv, { cwd: root, env, stdio: log ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  if (log) {
    child.stdout.pipe(log);
    child.stderr.pipe(log);
  }
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

/** Passed and failed tests of a report (a file that failed to load counts as one failure); undefined when there is none. */
function totals(out) {
  if (!existsSync(out)) return undefined;
  const r = JSON.parse(readFileSync(out, 'utf8'));
  const suitesBroken = r.testResults.filter((t) => t.status === 'failed' && t.assertionResults.length === 0).length;
  return { passed: r.numPassedTests, failed: r.numFailedTests + suitesBroken, skipped: r.numPendingTests };
}

/**
 * The failed tests of a report, a line each with the first line of why: the closing lines are what
 * a CI log keeps when it keeps only its tail, and the SQLite run's details scroll far above them.
 */
function failures(out, label) {
  if (!existsSync(out)) return [];
  const r = JSON.parse(readFileSync(out, 'utf8'));
  const rows = [];
  for (const file of r.testResults) {
    const name = file.name.startsWith(root) ? file.name.slice(root.length) : file.name;
    const broken = file.assertionResults.filter((a) => a.status === 'failed');
    if (file.status === 'failed' && broken.length === 0) rows.push(`${label} ✗ ${name}: ${firstLine(file.message)}`);
    for (const a of broken) rows.push(`${label} ✗ ${name} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
  }
  return rows;
}

function firstLine(text) {
  const line = String(text ?? '').split('\n').find((l) => l.trim() !== '') ?? '(no message)';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** The test files under `dir` (relative to the root), by their paths from the root. */
function testFiles(dir) {
  return readdirSync(`${root}${dir}`, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.test.ts') && !f.includes('node_modules'))
    .map((f) => `${dir}/${f}`);
}

/**
 * The PostgreSQL run: a throw-away cluster of Debian's `postgresql` (scripts/pg-test-cluster.sh,
 * nothing downloaded) that every test app of the run takes a fresh database in. JUDGE_TEST_POSTGRES=0
 * leaves it out; given files, it runs those of them that belong to it (postgres-suite.mjs).
 */
async function postgresRun() {
  if (process.env.JUDGE_TEST_POSTGRES === '0') return undefined;
  const out = `${root}.vitest-results-postgres.json`;
  const logFile = `${root}.vitest-postgres.log`;
  const cluster = spawnSync(`${root}scripts/pg-test-cluster.sh`, ['start', '--watch', String(process.pid)], { encoding: 'utf8' });
  if (cluster.status !== 0) {
    console.log(`PostgreSQL: no test cluster (${cluster.stderr.trim()}): counted as one failure.`);
    return { status: 1, out, logFile, minutes: 0 };
  }
  const url = cluster.stdout.trim();
  const log = createWriteStream(logFile);
  // vitest takes a filter as a part of a path ("test" alone would match every file): the run is
  // given the folders' test files one by one instead
  const filters = args.length ? args : POSTGRES_FILES.flatMap((dir) => testFiles(dir));
  const excluded = POSTGRES_EXCLUDED.flatMap((g) => ['--exclude', g]);
  const status = await vitest(out, [...filters, ...excluded, '--passWithNoTests'], { env: { ...process.env, JUDGE_TEST_DATABASE: url }, log });
  const minutes = (Date.now() - started) / 60_000;
  spawnSync(`${root}scripts/pg-test-cluster.sh`, ['stop', url], { stdio: 'ignore' });
  await new Promise((resolve) => log.end(resolve));
  return { status, out, logFile, minutes };
}

const started = Date.now();
const postgres = postgresRun();
const sqliteOut = `${root}.vitest-results.json`;
const sqliteStatus = await vitest(sqliteOut, args);
const sqliteMinutes = (Date.now() - started) / 60_000;
const pg = await postgres;

const lines = [];
const failed = failures(sqliteOut, 'SQLite');
const sqlite = totals(sqliteOut) ?? { passed: 0, failed: 1, skipped: 0 };
lines.push(`SQLite: ${sqlite.passed} passed, ${sqlite.failed} failed (${sqliteMinutes.toFixed(1)} min)`);
let all = { passed: sqlite.passed, failed: sqlite.failed + typeFailures, skipped: sqlite.skipped };
let ok = sqliteStatus === 0;
if (pg) {
  // its output was kept apart so that the two runs' lines do not mix: shown now, after the SQLite run's
  console.log(`\n──── the PostgreSQL run (alongside the SQLite run; JUDGE_TEST_DATABASE) ────`);
  if (existsSync(pg.logFile)) process.stdout.write(readFileSync(pg.logFile));
  failed.push(...failures(pg.out, 'PostgreSQL'));
  const t = totals(pg.out) ?? { passed: 0, failed: 1, skipped: 0 };
  lines.push(`PostgreSQL: ${t.passed} passed, ${t.failed} failed (${pg.minutes.toFixed(1)} min)`);
  all = { passed: all.passed + t.passed, failed: all.failed + t.failed, skipped: all.skipped + t.skipped };
  ok &&= pg.status === 0;
} else lines.push('PostgreSQL: not run (JUDGE_TEST_POSTGRES=0)');
if (failed.length) console.log(`\nFailed:\n${failed.join('\n')}`);
console.log(`\n${lines.join('\n')}`);
console.log(`${all.passed} passed, ${all.failed} failed${all.skipped ? `, ${all.skipped} skipped` : ''}`);
process.exit(ok && all.failed === 0 && all.passed > 0 ? 0 : 1);
