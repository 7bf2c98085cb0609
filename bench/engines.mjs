// SQLite and PostgreSQL side by side, in one run: claim → report jobs/s (claim-report.mjs),
// the standings' cold load and one update (ranking.mjs), submit latency (submit.mjs). Each script
// runs once per engine, one after the other, as a process of its own with its own judge, on a fresh
// data directory and, for PostgreSQL, a fresh database (BENCH_DATABASE: lib.mjs' startBenchApp);
// this script reads the figures each prints last (BENCH_RESULT=1) and prints them as one table, with
// the load average at each one's start and end. The machine is shared: the CPU per job and per
// submission move less with the load than the rates and latencies do.
//
// PostgreSQL is a throw-away cluster from the system's PostgreSQL (scripts/pg-test-cluster.sh:
// fsync and synchronous commit off, as a test cluster runs; a production server that syncs its
// commits pays a disk flush per write on top), or the cluster BENCH_PG_URL names.
//
//   cd /work/main && pnpm build && node bench/engines.mjs
//   env: BENCH_ENGINES (sqlite,postgres), BENCH_PG_URL (an existing cluster: postgresql://…; a new database is made in it per run),
//        BENCH_JOBS (4000), BENCH_WARMUP (1000), BENCH_PARTICIPANTS (200): claim-report's;
//        BENCH_CONTESTANTS (1000), BENCH_SUBMISSIONS (50000): ranking's; BENCH_SECONDS (10), BENCH_CLIENTS (20): submit's
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fmt, loadAverage, startPgCluster } from './lib.mjs';

const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',');
const defaults = { BENCH_JOBS: '4000', BENCH_WARMUP: '1000', BENCH_PARTICIPANTS: '200', BENCH_CONTESTANTS: '1000', BENCH_SUBMISSIONS: '50000', BENCH_SECONDS: '10', BENCH_CLIENTS: '20' };
const env = { ...defaults, ...process.env, BENCH_RESULT: '1' };
delete env.BENCH_DATABASE;

/** Runs `script` with `extra` env; answers its BENCH_RESULT figures (its other lines go to stderr as it prints them). */
function run(script, extra) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL(script, import.meta.url))], { env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      process.stderr.write(d);
    });
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('BENCH_RESULT '));
      if (!line) return reject(new Error(`${script} (${extra.BENCH_DATABASE ? 'postgres' : 'sqlite'}) exited with ${code} and no figures`));
      resolve({ ...JSON.parse(line.slice('BENCH_RESULT '.length)), exitCode: code });
    });
  });
}

console.log(`engines side by side: ${ENGINES.join(', ')}; Node ${process.version}; ${await loadAverage()}`);
const cluster = ENGINES.includes('postgres') && !process.env.BENCH_PG_URL ? startPgCluster() : undefined;
const pgUrl = process.env.BENCH_PG_URL ?? cluster?.url;
const results = {};
try {
  for (const engine of ENGINES) {
    const extra = engine === 'postgres' ? { BENCH_DATABASE: pgUrl } : {};
    results[engine] = {
      claim: await run('./claim-report.mjs', extra),
      ranking: await run('./ranking.mjs', extra),
      submit: await run('./submit.mjs', extra),
    };
  }
} finally {
  cluster?.stop();
}

const ms = (x, d = 1) => `${fmt(x, d)} ms`;
const rows = [
  ['claim → report', (r) => `${fmt(r.claim.jobsPerSecond)} jobs/s`],
  ['  judge CPU per job', (r) => `${fmt(r.claim.cpuUsPerJob)} µs`],
  ['  claim p50 / p99', (r) => `${ms(r.claim.claimP50, 2)} / ${ms(r.claim.claimP99, 2)}`],
  ['  report p50 / p99', (r) => `${ms(r.claim.reportP50, 2)} / ${ms(r.claim.reportP99, 2)}`],
  ['  every job once, every submission completed', (r) => (r.claim.ok ? 'yes' : 'NO')],
  ['  load average (start → end)', (r) => `${r.claim.loadStart.match(/[\d.]+/)[0]} → ${r.claim.loadEnd.match(/[\d.]+/)[0]}`],
  ['standings cold load, median (max)', (r) => `${ms(r.ranking.coldMedian)} (${ms(r.ranking.coldMax)})`],
  ['standings after one result, median / p95', (r) => `${ms(r.ranking.updateMedian, 2)} / ${ms(r.ranking.updateP95, 2)}`],
  ['standings warm, median (in process / HTTP)', (r) => `${ms(r.ranking.warmMedian, 2)} / ${ms(r.ranking.httpWarmMedian)}`],
  ['  load average (start → end)', (r) => `${r.ranking.loadStart.match(/[\d.]+/)[0]} → ${r.ranking.loadEnd.match(/[\d.]+/)[0]}`],
  ['submit', (r) => `${fmt(r.submit.perSecond)} /s`],
  ['  latency p50 / p99', (r) => `${ms(r.submit.p50)} / ${ms(r.submit.p99)}`],
  ['  judge CPU per submission', (r) => `${fmt(r.submit.cpuUs)} µs`],
  ['  failures', (r) => (Object.keys(r.submit.failures).length ? JSON.stringify(r.submit.failures) : 'none')],
  ['  load average (start → end)', (r) => `${r.submit.loadStart.match(/[\d.]+/)[0]} → ${r.submit.loadEnd.match(/[\d.]+/)[0]}`],
];
const width = 46;
const col = 28;
console.log(`\n${''.padEnd(width)}${ENGINES.map((e) => e.padEnd(col)).join('')}`);
for (const [label, cell] of rows) console.log(`${label.padEnd(width)}${ENGINES.map((e) => cell(results[e]).padEnd(col)).join('')}`);
if (results.sqlite) console.log(`GOAL SQLite claim → report ≥ 1,000 jobs/s: ${fmt(results.sqlite.claim.jobsPerSecond)} (${results.sqlite.claim.jobsPerSecond >= 1000 ? 'met' : 'NOT met'})`);
console.log(`at the end: ${await loadAverage()}`);
if (Object.values(results).some((r) => !r.claim.ok || r.claim.exitCode || r.ranking.exitCode || r.submit.exitCode)) process.exitCode = 1;
