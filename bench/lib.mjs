// Shared helpers for the benchmarks: run a server in a child process and talk to it over IPC.
import { fork } from 'node:child_process';
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Resolves packages the server depends on (koa, ws, autocannon) from packages/server. */
export const serverRequire = createRequire(fileURLToPath(new URL('../packages/server/package.json', import.meta.url)));

export const ADMIN_PASSWORD = 'bench-admin-password-0';

/**
 * Starts `script` as a child process; it answers `{cmd, id}` messages with `{id, ...}` and first
 * sends `{ready: true, url}`. Returns the url, a request function and a stop function.
 * `detached`: in a session of its own (so, where the kernel groups processes by session for
 * scheduling, a scheduling group of its own).
 */
export function startChild(script, args = [], execArgv = [], { detached = false } = {}) {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), args, { execArgv, detached, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let seq = 0;
  const pending = new Map();
  child.on('message', (m) => {
    if (m && m.id !== undefined && pending.has(m.id)) {
      pending.get(m.id)(m);
      pending.delete(m.id);
    }
  });
  const ready = new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited early with ${code}`)));
    child.on('message', (m) => m?.ready && resolve(m.url));
  });
  return {
    child,
    ready,
    request(cmd, extra = {}) {
      const id = ++seq;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        child.send({ cmd, id, ...extra });
      });
    },
    async stop() {
      child.removeAllListeners('exit');
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ cmd: 'stop', id: ++seq });
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** The soft (or hard) open-file limit of this process, as the shell reports it. */
export function openFileLimit(which = 'S') {
  try {
    const v = execFileSync('sh', ['-c', `ulimit -${which}n`], { encoding: 'utf8' }).trim();
    return v === 'unlimited' ? Infinity : Number(v) || Infinity;
  } catch {
    return Infinity;
  }
}

/**
 * Re-runs this script under a shell that raised the soft open-file limit, when it is below `need`;
 * exits with this run's status. Returns false when the limit is already enough.
 */
export function ensureOpenFiles(need, scriptUrl) {
  const soft = openFileLimit('S');
  if (soft >= need) return false;
  const hard = openFileLimit('H');
  if (hard < need || process.env.JUDGE_BENCH_RAISED) {
    console.error(`the open-file limit is ${soft} (hard ${hard}) and ${need} are needed: run \`ulimit -n ${need}\` as a user allowed to, then run this again`);
    process.exit(1);
  }
  console.error(`raising the open-file limit from ${soft} to ${need} and running again`);
  const script = fileURLToPath(scriptUrl);
  const r = spawnSync('sh', ['-c', `ulimit -Sn ${need} && exec "${process.execPath}" "${script}"`], {
    stdio: 'inherit',
    env: { ...process.env, JUDGE_BENCH_RAISED: '1' },
  });
  process.exit(r.status ?? 1);
}

export async function json(url, init = {}) {
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text}`);
  return { res, body: text ? JSON.parse(text) : undefined };
}

export async function adminToken(base) {
  const { body } = await json(`${base}/api/v1/identity/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin', password: ADMIN_PASSWORD }),
  });
  return body.accessToken;
}

/** Runs `fn` over `items` with at most `n` at a time. */
export async function pool(items, n, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

export const fmt = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/**
 * A throw-away PostgreSQL cluster (scripts/pg-test-cluster.sh: the system's PostgreSQL, a unix
 * socket in a temporary directory, stopped when this process ends however it ends). Answers its URL
 * and a stop function.
 */
export function startPgCluster() {
  const script = fileURLToPath(new URL('../scripts/pg-test-cluster.sh', import.meta.url));
  const r = spawnSync('sh', [script, 'start', '--watch', String(process.pid)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`starting a PostgreSQL cluster failed: ${r.stderr}`);
  const url = r.stdout.trim().split('\n').at(-1);
  return { url, stop: () => spawnSync('sh', [script, 'stop', url]) };
}

/**
 * A new, empty database in the cluster of `clusterUrl` (UTF-8, C locale, as the judge asks), so that
 * every measurement starts from nothing. Answers its URL and a function that drops it.
 */
export async function freshDatabase(clusterUrl) {
  const { randomBytes } = await import('node:crypto');
  const pg = serverRequire('pg');
  const name = `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  await admin.end();
  const u = new URL(clusterUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: clusterUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Which engine the benchmarks' judges use: `BENCH_DATABASE`, a PostgreSQL cluster's URL, or SQLite when unset. */
export const benchEngine = () => (process.env.BENCH_DATABASE ? 'postgres' : 'sqlite');

/**
 * The built judge on a fresh temporary data directory, with the benchmarks' settings: cheap
 * password hashing (they measure requests and sockets, not Argon2), no request limit, warn logs;
 * BENCH_POOL_SIZE sets each judge's PostgreSQL pool (databasePoolSize).
 * `extra` overrides settings; `appOptions` go to startApp (a clock, say). With `BENCH_DATABASE` (a
 * PostgreSQL cluster's URL) and no `database` in `extra`, the judge keeps its data in a new database
 * of that cluster. `filesDir`: the data directory's `files` is a link to it (servers sharing one
 * database share their files). `cleanup()` removes the data directory and the database it made.
 */
export async function startBenchApp(extra = {}, appOptions = {}, { filesDir } = {}) {
  const { mkdtempSync, rmSync, symlinkSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { initDataDir, loadConfig, settingsTable, startApp } = await import('../packages/server/dist/index.js');
  const keys = new Set(settingsTable().map((r) => r.key));
  const memKey = keys.has('auth.argon2MemoryKiB') ? 'argon2MemoryKiB' : 'argon2MemoryKib';
  const overrides = {
    host: '127.0.0.1',
    port: 0,
    logLevel: 'warn',
    // BENCH_POOL_SIZE: the connections each judge keeps to PostgreSQL (setting databasePoolSize)
    ...(process.env.BENCH_POOL_SIZE ? { databasePoolSize: Number(process.env.BENCH_POOL_SIZE) } : {}),
    ...extra,
    limits: { requestsPerMinute: 0, ...extra.limits },
    auth: { [memKey]: 1024, argon2Iterations: 1, loginAttemptsPerMinute: 1_000_000, ...extra.auth },
  };
  const fresh = extra.database === undefined && process.env.BENCH_DATABASE ? await freshDatabase(process.env.BENCH_DATABASE) : undefined;
  if (fresh) overrides.database = fresh.url;
  const dataDir = mkdtempSync(join(tmpdir(), 'judge-bench-'));
  if (filesDir) symlinkSync(filesDir, join(dataDir, 'files'));
  const config = loadConfig(dataDir, overrides, {});
  await initDataDir(dataDir, config, async () => ADMIN_PASSWORD);
  // BENCH_LOG=1: the judge's log lines (warnings and errors) on standard output, where a 500's cause shows
  const app = await startApp({ dataDir, config, logToStdout: process.env.BENCH_LOG === '1', ...appOptions });
  const cleanup = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await fresh?.drop();
  };
  return { app, dataDir, config, cleanup };
}

/** The 1, 5 and 15 minute load averages, as `uptime` shows them: the figures depend on what else runs. */
export async function loadAverage() {
  const { loadavg, cpus } = await import('node:os');
  return `load average ${loadavg().map((x) => x.toFixed(2)).join(', ')} (${cpus().length} CPUs)`;
}

/**
 * One goal's line: the figure, its reference (the target) and their ratio, and whether it is met.
 * `atMost`: the figure must stay at or under the target (latency, CPU); otherwise reach it (rates).
 */
export function goalLine(name, figure, target, unit, atMost, d = 0) {
  const met = atMost ? figure <= target : figure >= target;
  const ratio = figure / target;
  return `GOAL ${name}: ${fmt(figure, d)} ${unit}, reference ${atMost ? '≤' : '≥'} ${fmt(target, d)} ${unit}, ratio ${fmt(ratio, 2)} (${met ? 'met' : 'NOT met'})`;
}
