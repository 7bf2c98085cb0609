// 2,000 open event sockets on one judge: server memory per idle socket, and the time from one
// PUT /instance until every socket has received instanceChanged.
// Targets: < 20 KiB per idle socket, < 250 ms fan-out.
//
// The judge runs in a child process (started with --expose-gc) that reports its own
// process.memoryUsage() after a forced GC, before and after the sockets open; the sockets and
// the clock live here. Sessions: BENCH_USERS accounts (default 20) each sign in with a cookie
// BENCH_SOCKETS / BENCH_USERS times, one socket per session, so every socket is its own session
// (cheap Argon2 settings make 2,000 sign-ins take seconds).
//
//   cd /work/main && pnpm build && node bench/socket-fanout.mjs
//   env: BENCH_SOCKETS (default 2000), BENCH_USERS (default 20), BENCH_ROUNDS (default 5)
// Needs about BENCH_SOCKETS + 200 open files in each process; when `ulimit -n` is lower the script
// re-runs itself under `sh -c 'ulimit -n ...'` (which fails if the hard limit is lower too).
import { performance } from 'node:perf_hooks';
import { adminToken, ensureOpenFiles, fmt, json, pool, serverRequire, startChild } from './lib.mjs';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 2000);
const USERS = Number(process.env.BENCH_USERS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
if (ensureOpenFiles(Math.max(4096, SOCKETS + 512), import.meta.url)) process.exit(0);

const WebSocket = serverRequire('ws');
const KiB = 1024;
const MiB = 1024 * 1024;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const judge = startChild('./judge-child.mjs', [], ['--expose-gc']);
const base = await judge.ready;
const origin = new URL(base).origin;
const token = await adminToken(base);
const bearer = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

// accounts, then one cookie session per socket
const users = await pool(Array.from({ length: USERS }, (_, i) => i), 4, async (i) => {
  const { body } = await json(`${base}/api/v1/users`, { method: 'POST', headers: bearer, body: JSON.stringify({ username: `bench-${i}` }) });
  return body;
});
let t = performance.now();
const cookies = await pool(Array.from({ length: SOCKETS }, (_, i) => users[i % USERS]), 16, async (u) => {
  const res = await fetch(`${base}/api/v1/identity/login?useCookies=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: u.username, password: u.password }),
  });
  if (!res.ok) throw new Error(`login ${u.username}: ${res.status} ${await res.text()}`);
  const set = res.headers.getSetCookie().find((c) => c.startsWith('judge_session='));
  return set.slice('judge_session='.length).split(';')[0];
});
const loginMs = performance.now() - t;

const before = await judge.request('mem');
if (!before.gc) console.log('warning: the judge could not force GC; memory figures are noisier');

// open the sockets
let expected = '';
let received = 0;
let allReceived = () => {};
const sockets = [];
t = performance.now();
await pool(cookies, 100, (cookie) =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/v1/ws`, { headers: { cookie: `judge_session=${cookie}`, origin }, perMessageDeflate: false });
    ws.once('open', () => {
      sockets.push(ws);
      resolve();
    });
    ws.once('unexpected-response', (_q, res) => reject(new Error(`handshake refused: ${res.statusCode}`)));
    ws.once('error', reject);
    ws.on('message', (raw) => {
      const text = raw.toString();
      if (!text.startsWith('{"type":"instanceChanged"')) return;
      if (JSON.parse(text).data.instance.name === expected && ++received === SOCKETS) allReceived();
    });
  }),
);
const openMs = performance.now() - t;
await sleep(500);
const after = await judge.request('mem');
if (after.sockets !== SOCKETS) throw new Error(`the judge counts ${after.sockets} sockets, expected ${SOCKETS}`);

const d = (k) => after.mem[k] - before.mem[k];
console.log(`judge ${base}, Node ${process.version}`);
console.log(`${USERS} accounts, ${fmt(SOCKETS)} cookie sessions signed in in ${fmt(loginMs)} ms, ${fmt(SOCKETS)} sockets (one per session) opened in ${fmt(openMs)} ms`);
console.log('server memory (after forced GC)      before        after        delta    per socket');
for (const k of ['rss', 'heapUsed', 'external', 'arrayBuffers']) {
  console.log(
    `  ${k.padEnd(14)} ${fmt(before.mem[k] / MiB, 1).padStart(20)} MiB ${fmt(after.mem[k] / MiB, 1).padStart(8)} MiB ${fmt(d(k) / MiB, 1).padStart(8)} MiB ${fmt(d(k) / SOCKETS / KiB, 2).padStart(8)} KiB`,
  );
}
// RSS barely moves when the heap grows into pages the sign-ins already made resident, so the
// figure judged is the larger of the two; kernel socket buffers are in neither.
const perSocket = Math.max(d('rss'), d('heapUsed') + d('external')) / SOCKETS / KiB;

// fan-out: PUT /instance → instanceChanged on every socket
const times = [];
const httpTimes = [];
for (let i = 1; i <= ROUNDS; i++) {
  expected = `Bench ${i} ${Date.now()}`;
  received = 0;
  const done = new Promise((r) => (allReceived = r));
  const t0 = performance.now();
  const put = fetch(`${base}/api/v1/instance`, { method: 'PUT', headers: bearer, body: JSON.stringify({ name: expected }) }).then(async (res) => {
    if (!res.ok) throw new Error(`PUT /instance: ${res.status}`);
    await res.arrayBuffer();
    httpTimes.push(performance.now() - t0);
  });
  const timeout = sleep(10_000).then(() => {
    throw new Error(`only ${received} of ${SOCKETS} sockets got instanceChanged within 10 s`);
  });
  await Promise.race([Promise.all([done, put]), timeout]);
  times.push(performance.now() - t0);
  await sleep(300);
}
const sorted = [...times].sort((a, b) => a - b);
console.log(`fan-out, PUT /instance until all ${fmt(SOCKETS)} sockets had instanceChanged (${ROUNDS} rounds):`);
console.log(`  ${times.map((x) => `${fmt(x, 1)} ms`).join(', ')}`);
console.log(`  median ${fmt(sorted[Math.floor(sorted.length / 2)], 1)} ms, worst ${fmt(sorted.at(-1), 1)} ms (PUT answered after ${fmt(Math.min(...httpTimes), 1)}..${fmt(Math.max(...httpTimes), 1)} ms)`);

console.log(`memory per idle socket: ${fmt(perSocket, 2)} KiB (the larger of RSS delta and heap+external delta; target < 20 KiB) ${perSocket < 20 ? 'PASS' : 'FAIL'}`);
console.log(`fan-out worst: ${fmt(sorted.at(-1), 1)} ms (target < 250 ms) ${sorted.at(-1) < 250 ? 'PASS' : 'FAIL'}`);

for (const ws of sockets) ws.terminate();
await judge.stop();
process.exit(0);
