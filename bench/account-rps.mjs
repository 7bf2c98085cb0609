// GET /api/v1/account through the whole judge (auth, session, rate limit, logging, routing, JSON)
// against a bare Koa server answering the same JSON. Each server runs in its own process;
// autocannon runs here. The two are measured in alternating rounds so that background load on
// the machine hits both alike. Target: the judge reaches at least 50% of bare Koa's requests/s.
//
//   cd /work/main && pnpm build && node bench/account-rps.mjs
//   env: BENCH_SECONDS per round (default 5), BENCH_ROUNDS (default 3), BENCH_CONNECTIONS (default 50),
//        BENCH_PROFILE (a directory: the judge process writes a V8 CPU profile there on exit)
import { adminToken, fmt, goalLine, json, loadAverage, serverRequire, startChild } from './lib.mjs';

const autocannon = serverRequire('autocannon');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = 2;

function run(url, headers, duration) {
  return autocannon({ url, connections: CONNECTIONS, duration, headers });
}

function report(name, r) {
  console.log(
    `  ${name.padEnd(9)} ${fmt(r.requests.average).padStart(8)} req/s   latency p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms   ` +
      `${fmt(r.requests.total)} requests, ${r.non2xx} non-2xx, ${r.errors + r.timeouts} errors`,
  );
  return r;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
const judge = startChild('./judge-child.mjs', [], profile);
const judgeUrl = await judge.ready;
const token = await adminToken(judgeUrl);
const auth = { authorization: `Bearer ${token}` };
const { body: account } = await json(`${judgeUrl}/api/v1/account`, { headers: auth });

const koa = startChild('./koa-child.mjs', [JSON.stringify(account)]);
const koaUrl = await koa.ready;
const same = await json(`${koaUrl}/api/v1/account`);
if (JSON.stringify(same.body) !== JSON.stringify(account)) throw new Error('the baseline does not answer the same document');

const targets = { judge: [`${judgeUrl}/api/v1/account`, auth, judge], 'bare koa': [`${koaUrl}/api/v1/account`, {}, koa] };
console.log(`GET /api/v1/account: ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s each (after ${WARMUP} s warm-up), Node ${process.version}`);
console.log(`body: ${JSON.stringify(account)}`);
console.log(`at the start: ${await loadAverage()}`);
for (const [url, headers] of Object.values(targets)) await run(url, headers, WARMUP);

/** Server CPU time (user + system) per request: less sensitive to other load on the machine. */
async function cpuOf(child, fn) {
  const a = (await child.request('cpu')).cpu;
  const r = await fn();
  const b = (await child.request('cpu')).cpu;
  return { r, cpuUs: b.user - a.user + b.system - a.system };
}

const rps = { judge: [], 'bare koa': [] };
const cpu = { judge: [0, 0], 'bare koa': [0, 0] }; // [µs, requests]
const ratios = [];
let dirty = false;
for (let i = 1; i <= ROUNDS; i++) {
  console.log(`round ${i}`);
  for (const [name, [url, headers, child]] of Object.entries(targets)) {
    const { r, cpuUs } = await cpuOf(child, () => run(url, headers, SECONDS));
    report(name, r);
    cpu[name][0] += cpuUs;
    cpu[name][1] += r.requests.total;
    rps[name].push(r.requests.average);
    if (r.non2xx || r.errors || r.timeouts) dirty = true;
  }
  ratios.push(rps.judge.at(-1) / rps['bare koa'].at(-1));
  console.log(`  ratio     ${fmt(ratios.at(-1) * 100, 1)}%`);
}
await Promise.all([judge.stop(), koa.stop()]);

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const overall = sum(rps.judge) / sum(rps['bare koa']);
console.log(`judge:    ${fmt(sum(rps.judge) / ROUNDS)} req/s mean, ${fmt(median(rps.judge))} median`);
console.log(`bare koa: ${fmt(sum(rps['bare koa']) / ROUNDS)} req/s mean, ${fmt(median(rps['bare koa']))} median`);
console.log(`ratio judge / bare koa: ${fmt(overall * 100, 1)}% overall, ${fmt(median(ratios) * 100, 1)}% median of rounds (target >= 50%) ${overall >= 0.5 ? 'PASS' : 'FAIL'}`);
const perReq = (name) => cpu[name][0] / cpu[name][1];
console.log(
  `server CPU per request: judge ${fmt(perReq('judge'), 1)} µs, bare koa ${fmt(perReq('bare koa'), 1)} µs ` +
    `(bare koa / judge = ${fmt((perReq('bare koa') / perReq('judge')) * 100, 1)}%, the ratio a machine with a spare core for the load generator would show)`,
);
console.log(goalLine('GET /account against bare Koa (requests/s)', overall * 100, 50, '%', false, 1));
console.log(`at the end: ${await loadAverage()}`);
if (dirty) console.log('warning: some requests failed (non-2xx or errors); the figures are not clean');
process.exit(0);
